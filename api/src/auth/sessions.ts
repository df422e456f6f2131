// Database sessions. The browser holds a random token in an HttpOnly cookie;
// the database holds only its SHA-256, so a leaked table cannot be replayed.
import crypto from 'node:crypto';
import type { AuthMethod, PrismaClient, User } from '../generated/prisma/client.js';
import type { DbClient } from '../core/types.js';

export const SESSION_COOKIE = 'grc_session';
/**
 * The name over TLS: the __Host- prefix makes the browser refuse it unless it is
 * Secure, Path=/ and has no Domain, so no sibling host or plain-http page can plant it.
 */
export const SECURE_SESSION_COOKIE = '__Host-grc_session';

/** The session token among a request's cookies, under either name. */
export function sessionToken(cookies: Record<string, string>): string | undefined {
  return cookies[SECURE_SESSION_COOKIE] || cookies[SESSION_COOKIE] || undefined;
}
/** lastSeenAt is refreshed at most this often, to keep reads cheap. */
const TOUCH_INTERVAL_MS = 60_000;

export function sha256(value: string): string {
  return crypto.createHash('sha256').update(value).digest('hex');
}

export interface NewSession {
  token: string;
  id: string;
  expiresAt: Date;
}

export async function createSession(
  db: DbClient,
  userId: string,
  ttlHours: number,
  meta: { ip?: string | null; userAgent?: string | null; authMethod?: AuthMethod; idToken?: string | null },
): Promise<NewSession> {
  const token = crypto.randomBytes(32).toString('base64url');
  const id = sha256(token);
  const expiresAt = new Date(Date.now() + ttlHours * 3600_000);
  await db.session.create({
    data: {
      id,
      userId,
      expiresAt,
      ip: meta.ip ?? null,
      userAgent: meta.userAgent?.slice(0, 500) ?? null,
      authMethod: meta.authMethod ?? 'password',
      idToken: meta.idToken ?? null,
    },
  });
  return { token, id, expiresAt };
}

export interface SessionLookup {
  sessionId: string;
  user: User;
}

/** The signed-in user behind a cookie token, or null (expired, unknown, deactivated). */
export async function resolveSession(prisma: PrismaClient, token: string, ttlHours: number): Promise<SessionLookup | null> {
  const id = sha256(token);
  const session = await prisma.session.findUnique({ where: { id }, include: { user: true } });
  if (!session) return null;
  const now = Date.now();
  if (session.expiresAt.getTime() <= now || !session.user.isActive) {
    await prisma.session.deleteMany({ where: { id } });
    return null;
  }
  if (now - session.lastSeenAt.getTime() > TOUCH_INTERVAL_MS) {
    // Sliding expiry, best effort: a touch that meets a session signed out meanwhile, or a
    // busy database, must not fail the request it rides on (the next request touches again).
    const expiresAt = new Date(now + ttlHours * 3600_000);
    await prisma
      .$transaction([
        prisma.session.updateMany({ where: { id }, data: { lastSeenAt: new Date(now), expiresAt } }),
        prisma.user.updateMany({ where: { id: session.userId }, data: { lastSeenAt: new Date(now) } }),
      ])
      .catch(() => {});
  }
  return { sessionId: id, user: session.user };
}

/** How a session was started (and, for single sign-on, the provider's ID token); null when it is gone. */
export async function sessionOrigin(db: DbClient, sessionId: string): Promise<{ authMethod: AuthMethod; idToken: string | null } | null> {
  return db.session.findUnique({ where: { id: sessionId }, select: { authMethod: true, idToken: true } });
}

export async function endSession(db: DbClient, sessionId: string): Promise<void> {
  await db.session.deleteMany({ where: { id: sessionId } });
}

/** Ends every session of a user, except optionally one (the caller's own). */
export async function endUserSessions(db: DbClient, userId: string, exceptSessionId?: string | null): Promise<number> {
  const r = await db.session.deleteMany({
    where: { userId, ...(exceptSessionId ? { id: { not: exceptSessionId } } : {}) },
  });
  return r.count;
}
