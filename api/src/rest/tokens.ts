// REST: API tokens (list, create, revoke) and the administrators' switch.
import type { FastifyInstance, FastifySchema } from 'fastify';
import * as tokens from '../services/tokens.js';
import { isLive } from '../auth/tokens.js';

/** A token as it leaves the server: never its secret or hash. */
function shape(t: tokens.ApiTokenWithOwner) {
  return {
    id: t.id,
    name: t.name,
    prefix: t.prefix,
    scope: t.scope,
    createdAt: t.createdAt,
    lastUsedAt: t.lastUsedAt,
    lastUsedIp: t.lastUsedIp,
    expiresAt: t.expiresAt,
    revokedAt: t.revokedAt,
    active: isLive(t),
    owner: { id: t.user.id, email: t.user.email, firstName: t.user.firstName, lastName: t.user.lastName },
  };
}

/** The route's summary in /api/openapi.json (rest/openapi.ts reads schema.summary). */
const doc = (summary: string) => ({ summary }) as FastifySchema;

export function registerTokenRoutes(app: FastifyInstance) {
  app.get<{ Querystring: { all?: string } }>(
    '/api/tokens',
    { config: { access: 'signedIn' }, schema: doc("The caller's API tokens (administrators: ?all=true for everyone's)") },
    async (req) => {
      const { ctx } = req;
      const list = await tokens.listTokens(ctx.prisma, ctx.actor, { all: req.query.all === 'true' });
      return { tokens: list.map(shape), canCreate: await tokens.mayCreateTokens(ctx.prisma, ctx.user) };
    },
  );

  app.post<{ Body: tokens.CreateTokenInput }>(
    '/api/tokens',
    { config: { access: 'signedIn' }, schema: doc('Create an API token { name, expiresInDays (1-365, default 90), scope (read|full, default read) }; the secret is returned once as token') },
    async (req, reply) => {
      const { token, record } = await tokens.createToken(req.ctx.prisma, req.ctx.actor, req.body ?? {});
      return reply.status(201).send({ token, apiToken: shape(record) });
    },
  );

  app.get(
    '/api/tokens/settings',
    { config: { access: 'admin' }, schema: doc('Whether users may create their own API tokens') },
    async (req) => tokens.getTokenSettings(req.ctx.prisma),
  );

  app.put<{ Body: { usersMayCreateTokens?: unknown } }>(
    '/api/tokens/settings',
    { config: { access: 'admin' }, schema: doc('Allow or forbid users to create their own API tokens { usersMayCreateTokens }') },
    async (req) => tokens.setTokenSettings(req.ctx.prisma, req.ctx.actor, req.body ?? {}),
  );

  app.delete<{ Params: { id: string } }>(
    '/api/tokens/:id',
    { config: { access: 'signedIn' }, schema: doc('Revoke an API token (its owner or an administrator)') },
    async (req) => ({ apiToken: shape(await tokens.revokeToken(req.ctx.prisma, req.ctx.actor, req.params.id)) }),
  );
}
