// One typed context, built by the same factory for HTTP (GraphQL and REST)
// and WebSocket requests, with one caller per signed-in request
// (services/caller.ts: deps, actor and the viewer of services/viewer.ts).
import type { IncomingHttpHeaders } from 'node:http';
import type { PrismaClient, User } from './generated/prisma/client.js';
import type { Config } from './config.js';
import type { AppDeps } from './services/deps.js';
import type { Actor } from './core/types.js';
import type { PubSub } from './pubsub.js';
import { resolveSession, sessionToken, type NewSession } from './auth/sessions.js';
import { apiTokenStillValid, resolveApiToken, type ResolvedToken } from './auth/tokens.js';
import { createCaller, type Caller } from './services/caller.js';

export type { AppDeps };

export type AuthKind = 'session' | 'token' | null;

export interface Auth {
  user: User | null;
  sessionId: string | null;
  kind: AuthKind;
  /** The API token the caller used (kind 'token'). */
  token?: ResolvedToken['token'] | null;
}

/** What the transport gives us about a request. */
export interface RequestInfo {
  headers: IncomingHttpHeaders;
  ip?: string | null;
  /** graphql-ws: the connection_init payload (`{ authorization: 'Bearer grc_…' }`). */
  connectionParams?: Readonly<Record<string, unknown>> | null;
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
  /** The API token the caller used, with its scope; null for sessions. */
  apiToken: ResolvedToken['token'] | null;
  actor: Actor;
  /** What every service a signed-in user reaches takes first (services/caller.ts); null when nobody is signed in. */
  caller: Caller | null;
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
 * The Bearer credential of a request: the Authorization header, else (graphql-ws)
 * the connection parameters' `authorization`. Null when none is presented.
 */
export function bearerOf(headers: IncomingHttpHeaders, connectionParams?: RequestInfo['connectionParams']): string | null {
  const fromParams = connectionParams?.authorization ?? connectionParams?.Authorization;
  const authz = headers.authorization ?? (typeof fromParams === 'string' ? fromParams : undefined);
  if (typeof authz === 'string' && authz.toLowerCase().startsWith('bearer ')) return authz.slice(7).trim();
  return null;
}

/**
 * Who is calling: a Bearer API token, else the session cookie. Memoised per
 * request object, so GraphiQL checks, persisted-operation checks and the
 * context share one lookup (never longer: a revoked token fails the next request).
 * `ip`, when known, is recorded as the token's last-used address.
 */
export function authenticate(
  deps: AppDeps,
  key: object,
  headers: IncomingHttpHeaders,
  extra: Pick<RequestInfo, 'ip' | 'connectionParams'> = {},
): Promise<Auth> {
  let p = authCache.get(key);
  if (!p) {
    p = (async (): Promise<Auth> => {
      const bearer = bearerOf(headers, extra.connectionParams);
      if (bearer !== null) {
        const r = await resolveApiToken(deps.prisma, bearer, extra.ip);
        return r ? { user: r.user, sessionId: null, kind: 'token', token: r.token } : { user: null, sessionId: null, kind: null };
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
  const auth = await authenticate(deps, key, info.headers, { ip: info.ip ?? null, connectionParams: info.connectionParams });
  const userAgent = typeof info.headers['user-agent'] === 'string' ? info.headers['user-agent'] : null;
  const actor: Actor = { user: auth.user, ip: info.ip ?? null, userAgent, sessionId: auth.sessionId };
  const caller = callerOf(deps, actor);
  return {
    deps,
    prisma: deps.prisma,
    config: deps.config,
    pubsub: deps.pubsub,
    user: auth.user,
    sessionId: auth.sessionId,
    authKind: auth.kind,
    apiToken: auth.token ?? null,
    actor,
    caller,
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
  if (ctx.apiToken) return apiTokenStillValid(ctx.prisma, ctx.apiToken.id);
  const u = await ctx.prisma.user.findUnique({ where: { id: ctx.user.id }, select: { isActive: true } });
  return Boolean(u?.isActive);
}

/** After a sign-in or sign-out within a request, the rest of the request sees the new state. */
export function setContextUser(ctx: Context, user: User | null, sessionId: string | null) {
  ctx.user = user;
  ctx.sessionId = sessionId;
  ctx.authKind = user ? 'session' : null;
  ctx.apiToken = null;
  ctx.actor = { ...ctx.actor, user, sessionId };
  ctx.caller = callerOf(ctx.deps, ctx.actor);
}

function callerOf(deps: AppDeps, actor: Actor): Caller | null {
  return actor.user ? createCaller(deps, { ...actor, user: actor.user }) : null;
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
