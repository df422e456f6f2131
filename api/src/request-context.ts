// The request context of a Fastify request (GraphQL over HTTP, multipart
// GraphQL and REST alike), with the session cookie it may set or clear.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from './config.js';
import { createContext, type AppDeps, type Context } from './context.js';
import { SECURE_SESSION_COOKIE, SESSION_COOKIE, type NewSession } from './auth/sessions.js';
import { overTls } from './web-security.js';

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

export async function requestContext(deps: AppDeps, req: FastifyRequest, reply?: FastifyReply): Promise<Context> {
  const ctx = await createContext(deps, req.raw, {
    headers: req.headers,
    ip: req.ip,
    cookies: reply ? { set: (s) => setSessionCookie(reply, deps.config, s), clear: () => clearSessionCookie(reply, deps.config) } : undefined,
  });
  // The request's later log lines (its 'request completed' line included) name the user.
  if (ctx.user && !(req as { loggedUser?: boolean }).loggedUser) {
    (req as { loggedUser?: boolean }).loggedUser = true;
    req.log = req.log.child({ userId: ctx.user.id });
    if (reply) reply.log = req.log;
  }
  return ctx;
}
