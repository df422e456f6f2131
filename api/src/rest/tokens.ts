// REST: API tokens (list, create, revoke) and the administrators' switch.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import * as tokens from '../services/tokens.js';
import { isLive } from '../auth/tokens.js';
import { flag, idParams, routeSchema } from './edge.js';

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

/** Who may manage or create tokens is settled before the input is read: a token never does, whatever it sends. */
const sessionFirst = async (req: FastifyRequest) => {
  tokens.requireSession(req.ctx.actor);
};
const mayCreateFirst = async (req: FastifyRequest) => {
  await tokens.assertMayCreateToken(req.ctx.prisma, req.ctx.actor);
};

const ListQuery = z.object({ all: flag('all').optional() });
const SettingsBody = z.object({ usersMayCreateTokens: z.boolean({ error: 'usersMayCreateTokens must be true or false' }) });

export function registerTokenRoutes(app: FastifyInstance) {
  app.get<{ Querystring: { all?: string } }>(
    '/api/tokens',
    { config: { access: 'signedIn' }, schema: routeSchema({ summary: "The caller's API tokens (administrators: ?all=true for everyone's)", querystring: ListQuery }) },
    async (req) => {
      const { ctx } = req;
      const list = await tokens.listTokens(ctx.prisma, ctx.actor, { all: req.query.all === 'true' });
      return { tokens: list.map(shape), canCreate: await tokens.mayCreateTokens(ctx.prisma, ctx.user) };
    },
  );

  app.post<{ Body: tokens.CreateTokenInput }>(
    '/api/tokens',
    {
      config: { access: 'signedIn' },
      preValidation: mayCreateFirst,
      schema: routeSchema({
        summary: 'Create an API token { name, expiresInDays (1-365, default 90), scope (read|full, default read) }; the secret is returned once as token',
        body: tokens.createTokenSchema,
      }),
    },
    async (req, reply) => {
      const { token, record } = await tokens.createToken(req.ctx.prisma, req.ctx.actor, req.body ?? {});
      return reply.status(201).send({ token, apiToken: shape(record) });
    },
  );

  app.get(
    '/api/tokens/settings',
    { config: { access: 'admin' }, schema: routeSchema({ summary: 'Whether users may create their own API tokens' }) },
    async (req) => tokens.getTokenSettings(req.ctx.prisma),
  );

  app.put<{ Body: z.infer<typeof SettingsBody> }>(
    '/api/tokens/settings',
    { config: { access: 'admin' }, preValidation: sessionFirst, schema: routeSchema({ summary: 'Allow or forbid users to create their own API tokens { usersMayCreateTokens }', body: SettingsBody }) },
    async (req) => tokens.setTokenSettings(req.ctx.prisma, req.ctx.actor, req.body),
  );

  app.delete<{ Params: { id: string } }>(
    '/api/tokens/:id',
    { config: { access: 'signedIn' }, preValidation: sessionFirst, schema: routeSchema({ summary: 'Revoke an API token (its owner or an administrator)', params: idParams }) },
    async (req) => ({ apiToken: shape(await tokens.revokeToken(req.ctx.prisma, req.ctx.actor, req.params.id)) }),
  );
}
