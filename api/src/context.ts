// One typed context, built by the same factory for HTTP (GraphQL and REST)
// and WebSocket requests.
import type { IncomingHttpHeaders } from 'node:http';
import type { PrismaClient, User } from './generated/prisma/client.js';
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import type { Mailer } from './services/mail.js';
import type { Actor } from './core/types.js';
import type { PubSub } from './pubsub.js';
import type { JobQueue } from './jobs/queue.js';
import { resolveSession, sessionToken, type NewSession } from './auth/sessions.js';
import { resolveApiToken } from './auth/tokens.js';

/** Long-lived things the app is built from. */
export interface AppDeps {
  config: Config;
  db: Database;
  prisma: PrismaClient;
  mailer: Mailer;
  jobs: JobQueue;
  pubsub: PubSub;
  log: (msg: string) => void;
}

export type AuthKind = 'session' | 'token' | null;

export interface Auth {
  user: User | null;
  sessionId: string | null;
  kind: AuthKind;
}

/** What the transport gives us about a request. */
export interface RequestInfo {
  headers: IncomingHttpHeaders;
  ip?: string | null;
  /** HTTP only: sets or clears the session cookie on the response. */
  cookies?: {
    set(session: NewSession): void;
    clear(): void;
  };
}

export interface Context {
  deps: AppDeps;
  prisma: PrismaClient;
  config: Config;
  pubsub: PubSub;
  user: User | null;
  sessionId: string | null;
  authKind: AuthKind;
  actor: Actor;
  cookies?: RequestInfo['cookies'];
}

export function parseCookies(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!header) return out;
  for (const part of header.split(';')) {
    const i = part.indexOf('=');
    if (i < 0) continue;
    const k = part.slice(0, i).trim();
    if (!k || k in out) continue;
    try {
      out[k] = decodeURIComponent(part.slice(i + 1).trim());
    } catch {
      out[k] = part.slice(i + 1).trim();
    }
  }
  return out;
}

const authCache = new WeakMap<object, Promise<Auth>>();

/**
 * Who is calling: a Bearer API token, else the session cookie. Memoised per
 * request object, so GraphiQL checks, persisted-operation checks and the
 * context share one lookup.
 */
export function authenticate(deps: AppDeps, key: object, headers: IncomingHttpHeaders): Promise<Auth> {
  let p = authCache.get(key);
  if (!p) {
    p = (async (): Promise<Auth> => {
      const authz = headers.authorization;
      if (typeof authz === 'string' && authz.toLowerCase().startsWith('bearer ')) {
        const user = await resolveApiToken(deps.prisma, authz.slice(7).trim());
        return { user, sessionId: null, kind: user ? 'token' : null };
      }
      const token = sessionToken(parseCookies(headers.cookie));
      if (!token) return { user: null, sessionId: null, kind: null };
      const s = await resolveSession(deps.prisma, token, deps.config.SESSION_TTL_HOURS);
      return s ? { user: s.user, sessionId: s.sessionId, kind: 'session' } : { user: null, sessionId: null, kind: null };
    })();
    authCache.set(key, p);
  }
  return p;
}

export async function createContext(deps: AppDeps, key: object, info: RequestInfo): Promise<Context> {
  const auth = await authenticate(deps, key, info.headers);
  const userAgent = typeof info.headers['user-agent'] === 'string' ? info.headers['user-agent'] : null;
  return {
    deps,
    prisma: deps.prisma,
    config: deps.config,
    pubsub: deps.pubsub,
    user: auth.user,
    sessionId: auth.sessionId,
    authKind: auth.kind,
    actor: { user: auth.user, ip: info.ip ?? null, userAgent, sessionId: auth.sessionId },
    cookies: info.cookies,
  };
}

/** For long-lived subscriptions: is the session (or token) the context was built with still valid? */
export async function stillSignedIn(ctx: Context): Promise<boolean> {
  if (!ctx.user) return false;
  if (ctx.authKind === 'session' && ctx.sessionId) {
    const s = await ctx.prisma.session.findUnique({ where: { id: ctx.sessionId }, select: { expiresAt: true } });
    return Boolean(s && s.expiresAt.getTime() > Date.now());
  }
  const u = await ctx.prisma.user.findUnique({ where: { id: ctx.user.id }, select: { isActive: true } });
  return Boolean(u?.isActive);
}

/** After a sign-in or sign-out within a request, the rest of the request sees the new state. */
export function setContextUser(ctx: Context, user: User | null, sessionId: string | null) {
  ctx.user = user;
  ctx.sessionId = sessionId;
  ctx.authKind = user ? 'session' : null;
  ctx.actor = { ...ctx.actor, user, sessionId };
}

/** The role checks, in one place, for Pothos scopes and REST routes alike. */
export const access = {
  /** Any authenticated user, including one who must still change the password. */
  authenticated: (u: User | null) => Boolean(u),
  /** Fully signed in: authenticated and no password change pending. */
  signedIn: (u: User | null) => Boolean(u && !u.passwordResetRequired),
  admin: (u: User | null) => Boolean(u && !u.passwordResetRequired && u.role === 'admin'),
  reviewer: (u: User | null) => Boolean(u && !u.passwordResetRequired && u.role === 'reviewer'),
};
export type AccessRule = keyof typeof access;
