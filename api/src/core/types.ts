// Types shared by the services.
import type { PrismaClient, Prisma, User } from '../generated/prisma/client.js';

/** The Prisma client or a transaction of it. */
export type DbClient = PrismaClient | Prisma.TransactionClient;

/** Who is acting, as the services need to know it. */
/** Where a lower layer reports a problem it rides out (the app's structured log, at warn level). */
export type Warn = (message: string) => void;

export interface Actor {
  user: User | null;
  ip?: string | null;
  userAgent?: string | null;
  /** The session the request came with, if any. */
  sessionId?: string | null;
}

/** The subset of a user that may leave the server. */
export interface PublicUser {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  role: User['role'];
  isActive: boolean;
  passwordResetRequired: boolean;
  createdAt: Date;
  lastLoginAt: Date | null;
}

export function publicUser(u: User): PublicUser {
  return {
    id: u.id,
    firstName: u.firstName,
    lastName: u.lastName,
    email: u.email,
    role: u.role,
    isActive: u.isActive,
    passwordResetRequired: u.passwordResetRequired,
    createdAt: u.createdAt,
    lastLoginAt: u.lastLoginAt,
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether an id from a URL or a body can be a database id at all (else: not found). */
export function isUuid(v: string | null | undefined): v is string {
  return typeof v === 'string' && UUID.test(v);
}

/** A day in milliseconds (a UTC day: 24 hours). */
export const DAY_MS = 86_400_000;
