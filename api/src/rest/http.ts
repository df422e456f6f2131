// Shared plumbing of the REST adapter: declared access per route (fail
// closed), the request context, errors as { message }, the session cookie.
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { Config } from '../config.js';
import { access, createContext, type AccessRule, type AppDeps, type Context } from '../context.js';
import { AppError, AuthenticationError, ForbiddenError } from '../core/errors.js';
import { SECURE_SESSION_COOKIE, SESSION_COOKIE, type NewSession } from '../auth/sessions.js';
import { overTls } from '../web-security.js';

export type RouteAccess = AccessRule | 'public';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call this route. Every /api route must declare it. */
    access?: RouteAccess;
  }
  interface FastifyRequest {
    ctx: Context;
  }
}

/** Secure whenever the request came over TLS (directly or through a trusted proxy) or COOKIE_SECURE=true. */
function cookieSecure(reply: FastifyReply, config: Config): boolean {
  return config.cookieSecure || overTls(reply.request);
}

export function setSessionCookie(reply: FastifyReply, config: Config, s: NewSession) {
  const secure = cookieSecure(reply, config);
  // Secure cookies go by the __Host- name (Path=/, no Domain); a plain one left from before is removed.
  reply.setCookie(secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE, s.token, {
    httpOnly: true,
    sameSite: 'lax',
    secure,
    path: '/',
    expires: s.expiresAt,
  });
  if (secure && reply.request.cookies?.[SESSION_COOKIE] !== undefined) {
    reply.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: 'lax', path: '/' });
  }
}

export function clearSessionCookie(reply: FastifyReply, config: Config) {
  const secure = cookieSecure(reply, config);
  reply.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: 'lax', secure, path: '/' });
  if (secure) reply.clearCookie(SECURE_SESSION_COOKIE, { httpOnly: true, sameSite: 'lax', secure: true, path: '/' });
}

/** Builds the request context and enforces the route's declared access. */
export function registerAccessControl(app: FastifyInstance, deps: AppDeps) {
  app.decorateRequest('ctx', null as unknown as Context);
  app.addHook('preHandler', async (req: FastifyRequest, reply: FastifyReply) => {
    if (!req.url.startsWith('/api/') || req.is404) return;
    const rule = req.routeOptions.config?.access;
    req.ctx = await createContext(deps, req.raw, {
      headers: req.headers,
      ip: req.ip,
      cookies: { set: (s) => setSessionCookie(reply, deps.config, s), clear: () => clearSessionCookie(reply, deps.config) },
    });
    if (rule === 'public') return;
    if (!rule) throw new ForbiddenError('This route declares no access rule');
    // A read-only API token may only read.
    if (req.ctx.apiToken?.scope === 'read' && req.method !== 'GET' && req.method !== 'HEAD') {
      throw new ForbiddenError('This API token is read-only: it can only make GET requests');
    }
    if (access[rule](req.ctx.user)) return;
    if (!req.ctx.user) throw new AuthenticationError('You are not signed in');
    if (req.ctx.user.passwordResetRequired) throw new ForbiddenError('You must change your password first');
    throw new ForbiddenError(rule === 'admin' ? 'Only administrators can do this' : 'You do not have permission to do this');
  });
}

export function registerErrorHandler(app: FastifyInstance, log: (m: string) => void) {
  app.setErrorHandler((err: Error & { statusCode?: number; validation?: unknown; code?: string }, _req, reply) => {
    if (err instanceof AppError) {
      if ('retryAfterSeconds' in err) reply.header('retry-after', String((err as { retryAfterSeconds: number }).retryAfterSeconds));
      return reply.status(err.status).send({ message: err.message });
    }
    if (err.validation || (err.statusCode && err.statusCode >= 400 && err.statusCode < 500)) {
      return reply.status(err.statusCode ?? 400).send({ message: err.message });
    }
    log(`unexpected error: ${err.stack ?? err.message}`);
    return reply.status(500).send({ message: 'Internal server error' });
  });
}

export type Route = RouteOptions & { config: { access: RouteAccess } };
