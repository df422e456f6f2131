// Shared plumbing of the REST adapter: declared access per route (fail
// closed), the request context, errors as { message }.
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { access, type AccessRule, type AppDeps, type Context } from '../context.js';
import { AppError, AuthenticationError, ForbiddenError, ValidationError, errorBody, knownFault } from '../core/errors.js';
import { requestContext } from '../request-context.js';
import { assertCleanStrings } from '../core/validation.js';

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

/**
 * Builds the request context and enforces the route's declared access, before
 * any input is looked at (a caller who may not call a route learns nothing of its
 * input rules): registered before the input checks below, in the same phase.
 */
export function registerAccessControl(app: FastifyInstance, deps: AppDeps) {
  app.decorateRequest('ctx', null as unknown as Context);
  app.addHook('preValidation', async (req: FastifyRequest, reply: FastifyReply) => {
    if (!req.url.startsWith('/api/') || req.is404) return;
    const rule = req.routeOptions.config?.access;
    req.ctx = await requestContext(deps, req, reply);
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

/**
 * One check at the edge for every /api route: no string in the path parameters,
 * the query or a JSON body may carry a NUL byte or an unpaired surrogate (the
 * database refuses them with an internal error), an unsafe control character
 * (terminal escapes, bidirectional overrides, byte order marks: core/validation.ts)
 * or exceed the global length backstop; the answer is a 400 naming the field.
 */
export function registerInputHygiene(app: FastifyInstance) {
  app.addHook('preValidation', async (req: FastifyRequest) => {
    if (!req.url.startsWith('/api/') || req.is404) return;
    assertCleanStrings(req.params);
    assertCleanStrings(req.query);
    if (req.body !== undefined && !(typeof req.isMultipart === 'function' && req.isMultipart())) assertCleanStrings(req.body);
  });
}

/**
 * The challenge of a 401 (RFC 9110: a 401 names how to authenticate): an API
 * token as a bearer token, or the session cookie that signing in sets.
 */
export const AUTH_CHALLENGE = 'Bearer realm="GRC Platform"';

export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((err: Error & { statusCode?: number; validation?: unknown; code?: string }, req, reply) => {
    const known = err instanceof AppError ? err : knownFault(err);
    if (known) {
      if ('retryAfterSeconds' in known) reply.header('retry-after', String((known as { retryAfterSeconds: number }).retryAfterSeconds));
      if (known.status === 401) reply.header('www-authenticate', AUTH_CHALLENGE);
      return reply.status(known.status).send(errorBody(known.status, known.message, known.code, known instanceof ValidationError ? known.field : undefined));
    }
    if (err.validation || (err.statusCode && err.statusCode >= 400 && err.statusCode < 500)) {
      const status = err.statusCode ?? 400;
      return reply.status(status).send(errorBody(status, err.message, err.validation ? 'BAD_USER_INPUT' : undefined));
    }
    // At error level with the request's id (the operator's key to the 500 the caller saw).
    req.log.error({ err }, `unexpected error: ${err.message}`);
    return reply.status(500).send(errorBody(500, 'Internal server error'));
  });
}

export type Route = RouteOptions & { config: { access: RouteAccess } };
