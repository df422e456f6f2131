// Types shared by the services.
import type { PrismaClient, Prisma, User } from '../generated/prisma/client.js';

/** The Prisma client or a transaction of it. */
export type DbClient = PrismaClient | Prisma.TransactionClient;

/** Who is acting, as the services need to know it. */
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
