// API tokens: the ApiToken node, the viewer's (or, for administrators, every
// user's) tokens, creating and revoking them, and the administrators' switch.
import { builder, runnable } from '../builder.js';
import { enumOf } from '../enums.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { listOrder } from '../ordering.js';
import { ValidationError } from '../../core/errors.js';
import { isLive } from '../../auth/tokens.js';
import * as tokens from '../../services/identity/tokens.js';
import { access } from '../../context.js';

export const ApiTokenScopeEnum = enumOf('ApiTokenScope', {
  description: 'read: queries only (GraphQL queries and subscriptions, REST GET); full: all of the owner’s rights.',
  values: ['read', 'full'] as const,
});

export const ApiTokenNode = builder.prismaNode('ApiToken', {
  id: { field: 'id' },
  // node(id:) of a record that does not exist answers null (Relay), not an internal error.
  nullable: true,
  // Administrators see every token; others only their own.
  authScopes: (token, ctx) => access.admin(ctx.user) || (access.signedIn(ctx.user) && ctx.user!.id === token.userId),
  fields: (t) => ({
    name: t.exposeString('name'),
    prefix: t.exposeString('prefix', { description: 'The first characters of the token, to recognise it.' }),
    scope: t.expose('scope', { type: ApiTokenScopeEnum }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    lastUsedAt: t.expose('lastUsedAt', { type: 'DateTime', nullable: true }),
    lastUsedIp: t.exposeString('lastUsedIp', { nullable: true }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime' }),
    revokedAt: t.expose('revokedAt', { type: 'DateTime', nullable: true }),
    active: t.boolean({ description: 'Neither revoked nor expired.', resolve: (token) => isLive(token) }),
    owner: t.relation('user'),
  }),
});

const ApiTokenSettings = builder.objectRef<tokens.TokenSettings>('ApiTokenSettings').implement({
  fields: (t) => ({
    usersMayCreateTokens: t.exposeBoolean('usersMayCreateTokens', {
      description: 'Users other than administrators may create their own API tokens.',
    }),
  }),
});

const ApiTokenCreated = builder
  .objectRef<{ token: string; record: tokens.ApiTokenWithOwner }>('ApiTokenCreated')
  .implement({
    fields: (t) => ({
      token: t.exposeString('token', { description: 'Shown once; only its hash is stored.' }),
      name: t.string({ resolve: (p) => p.record.name }),
      expiresAt: t.field({ type: 'DateTime', resolve: (p) => p.record.expiresAt }),
      apiToken: t.field({ type: ApiTokenNode, resolve: (p) => p.record }),
    }),
  });

builder.prismaObjectFields('User', (t) => ({
  canCreateApiTokens: t.boolean({
    description: 'Whether this user may create API tokens (administrators, or everyone when an administrator allows it).',
    resolve: (user, _args, ctx) => tokens.mayCreateTokens(ctx.prisma, user),
  }),
  activeApiTokenCount: t.int({
    description: 'How many of this user’s API tokens are neither revoked nor expired.',
    resolve: (user, _args, ctx) => tokens.countLiveTokens(ctx.prisma, user.id),
  }),
}));

const tokenOrder = listOrder(
  'ApiToken',
  'API tokens',
  {
    CREATED_AT: { columns: ['createdAt'], description: 'When the token was created.' },
    NAME: { columns: ['name'], description: 'The token’s name.' },
    EXPIRES_AT: { columns: ['expiresAt'], description: 'When the token expires.' },
  },
  { field: 'CREATED_AT', direction: 'desc' },
);

builder.queryFields((t) => ({
  apiTokens: t.prismaConnection({
    type: 'ApiToken',
    cursor: 'id',
    description: "The viewer's API tokens, newest first; with `all`, administrators get every user's.",
    authScopes: { signedIn: true },
    args: { all: t.arg.boolean(), ...tokenOrder.arg() },
    resolve: (query, _root, args, ctx) =>
      ctx.prisma.apiToken.findMany({
        ...runnable(query),
        where: tokens.tokenListFilter(ctx.actor, args),
        orderBy: tokenOrder.orderBy<Prisma.ApiTokenOrderByWithRelationInput>(args.orderBy),
      }),
    totalCount: (_root, args, ctx) => ctx.prisma.apiToken.count({ where: tokens.tokenListFilter(ctx.actor, args) }),
  }),
  apiTokenSettings: t.field({
    type: ApiTokenSettings,
    authScopes: { admin: true },
    resolve: (_root, _args, ctx) => tokens.getTokenSettings(ctx.prisma),
  }),
}));

builder.mutationFields((t) => ({
  createApiToken: t.field({
    type: ApiTokenCreated,
    description: 'Creates an API token for the signed-in user (a session, never a token). The secret is returned once.',
    authScopes: { signedIn: true },
    errors: { types: [ValidationError] },
    args: {
      name: t.arg.string({ required: true }),
      expiresInDays: t.arg.int({ description: '1 to 365; default 90.' }),
      scope: t.arg({ type: ApiTokenScopeEnum, description: 'Default read.' }),
    },
    resolve: (_root, args, ctx) => tokens.createToken(ctx.prisma, ctx.actor, args),
  }),
  revokeApiToken: t.field({
    type: ApiTokenNode,
    authScopes: { signedIn: true },
    errors: {},
    args: { id: t.arg.globalID({ required: true, for: ApiTokenNode }) },
    resolve: (_root, { id }, ctx) => tokens.revokeToken(ctx.deps, ctx.actor, id.id),
  }),
  setApiTokenSettings: t.field({
    type: ApiTokenSettings,
    authScopes: { admin: true },
    errors: { types: [ValidationError] },
    args: { usersMayCreateTokens: t.arg.boolean({ required: true }) },
    resolve: (_root, args, ctx) => tokens.setTokenSettings(ctx.prisma, ctx.actor, args),
  }),
}));
