// REST: API tokens (list, create, revoke) and the administrators' switch.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import * as tokens from '../../services/identity/tokens.js';
import { isLive } from '../../auth/tokens.js';
import { flag, idParams, isoDate, routeSchema } from '../edge.js';

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
  await tokens.assertMayCreateToken(req.ctx.caller!);
};

/** The JSON of `shape`, as a client receives it (rest/openapi.ts; checked in api/test/graph/openapi-replies.test.ts). */
const TokenJson = z.strictObject({
  id: z.uuid().describe('The token’s id (for DELETE /api/tokens/{id}); not the secret'),
  name: z.string().describe('What its owner called it'),
  prefix: z.string().describe('The first characters of the secret, to recognise it'),
  scope: z.enum(['read', 'full']).describe('read: queries, subscriptions and GETs only; full: all of the owner’s rights'),
  createdAt: isoDate(),
  lastUsedAt: isoDate().nullable().describe('Last request that presented it (written at most once a minute)'),
  lastUsedIp: z.string().nullable().describe('The address of that request'),
  expiresAt: isoDate(),
  revokedAt: isoDate().nullable(),
  active: z.boolean().describe('Neither revoked nor expired'),
  owner: z.strictObject({ id: z.uuid(), email: z.string(), firstName: z.string(), lastName: z.string() }).describe('The user it acts as'),
});
const SettingsJson = z.strictObject({ usersMayCreateTokens: z.boolean().describe('Users who are not administrators may create their own tokens') });

const ListQuery = z.object({ all: flag('all').optional() });
const SettingsBody = z.object({ usersMayCreateTokens: z.boolean({ error: 'usersMayCreateTokens must be true or false' }) });

export function registerTokenRoutes(app: FastifyInstance) {
  app.get<{ Querystring: { all?: string } }>(
    '/api/tokens',
    {
      config: { access: 'signedIn' },
      schema: routeSchema({
        summary: "The caller's API tokens (administrators: ?all=true for everyone's)",
        querystring: ListQuery,
        reply: z.strictObject({ tokens: z.array(TokenJson).describe('Newest first'), canCreate: z.boolean().describe('The caller may create tokens') }),
      }),
    },
    async (req) => {
      const { ctx } = req;
      const list = await tokens.listTokens(ctx.caller!, { all: req.query.all === 'true' });
      return { tokens: list.map(shape), canCreate: await tokens.mayCreateTokens(ctx.caller!, ctx.caller!.actor.user) };
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
        reply: z.strictObject({ token: z.string().describe('The secret (grc_…): shown this once, never again'), apiToken: TokenJson }),
        replyStatus: 201,
      }),
    },
    async (req, reply) => {
      const { token, record } = await tokens.createToken(req.ctx.caller!, req.body ?? {});
      return reply.status(201).send({ token, apiToken: shape(record) });
    },
  );

  app.get(
    '/api/tokens/settings',
    { config: { access: 'admin' }, schema: routeSchema({ summary: 'Whether users may create their own API tokens', reply: SettingsJson }) },
    async (req) => tokens.getTokenSettings(req.ctx.caller!),
  );

  app.put<{ Body: z.infer<typeof SettingsBody> }>(
    '/api/tokens/settings',
    {
      config: { access: 'admin' },
      preValidation: sessionFirst,
      schema: routeSchema({
        summary: 'Allow or forbid users to create their own API tokens { usersMayCreateTokens }',
        body: SettingsBody,
        reply: SettingsJson,
      }),
    },
    async (req) => tokens.setTokenSettings(req.ctx.caller!, req.body),
  );

  app.delete<{ Params: { id: string } }>(
    '/api/tokens/:id',
    {
      config: { access: 'signedIn' },
      preValidation: sessionFirst,
      schema: routeSchema({ summary: 'Revoke an API token (its owner or an administrator)', params: idParams, reply: z.strictObject({ apiToken: TokenJson }) }),
    },
    async (req) => ({ apiToken: shape(await tokens.revokeToken(req.ctx.caller!, req.params.id)) }),
  );
}
