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
  descriptions: {
    full: 'Every right of the owner: queries, mutations, REST writes.',
    read: 'Reading only: queries, subscriptions and REST GETs.',
  },
});

export const ApiTokenNode = builder.prismaNode('ApiToken', {
  description: 'A token a tool presents as `Authorization: Bearer …` (or in graphql-ws connectionParams) to act as its owner.',
  id: { field: 'id', description: 'The token’s global id (not the secret).' },
  // node(id:) of a record that does not exist answers null (Relay), not an internal error.
  nullable: true,
  // Administrators see every token; others only their own.
  authScopes: (token, ctx) => access.admin(ctx.user) || (access.signedIn(ctx.user) && ctx.user!.id === token.userId),
  fields: (t) => ({
    name: t.exposeString('name', { description: 'What the owner called it, to tell tokens apart.' }),
    prefix: t.exposeString('prefix', { description: 'The first characters of the token, to recognise it.' }),
    scope: t.expose('scope', { type: ApiTokenScopeEnum, description: 'What the token may do.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the token was created.' }),
    lastUsedAt: t.expose('lastUsedAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When a request last presented the token (written at most once a minute).',
    }),
    lastUsedIp: t.exposeString('lastUsedIp', { nullable: true, description: 'The address of that last request.' }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', description: 'When the token stops working.' }),
    revokedAt: t.expose('revokedAt', { type: 'DateTime', nullable: true, description: 'When the token was revoked (null: not revoked).' }),
    active: t.boolean({ description: 'Neither revoked nor expired.', resolve: (token) => isLive(token) }),
    owner: t.relation('user', { description: 'The user the token acts as.' }),
  }),
});

const ApiTokenSettings = builder.objectRef<tokens.TokenSettings>('ApiTokenSettings').implement({
  description: 'Who may create API tokens.',
  fields: (t) => ({
    usersMayCreateTokens: t.exposeBoolean('usersMayCreateTokens', {
      description: 'Users other than administrators may create their own API tokens.',
    }),
  }),
});

const ApiTokenCreated = builder.objectRef<{ token: string; record: tokens.ApiTokenWithOwner }>('ApiTokenCreated').implement({
  description: 'A new token: the secret itself is only in the REST answer or shown once on the API Tokens page.',
  fields: (t) => ({
    token: t.exposeString('token', { description: 'Shown once; only its hash is stored.' }),
    name: t.string({ description: 'What the owner called it.', resolve: (p) => p.record.name }),
    expiresAt: t.field({ type: 'DateTime', description: 'When it stops working.', resolve: (p) => p.record.expiresAt }),
    apiToken: t.field({ type: ApiTokenNode, description: 'The token as it is listed from now on.', resolve: (p) => p.record }),
  }),
});

builder.prismaObjectFields('User', (t) => ({
  canCreateApiTokens: t.boolean({
    description: 'Whether this user may create API tokens (administrators, or everyone when an administrator allows it).',
    resolve: (user, _args, ctx) => tokens.mayCreateTokens(ctx.caller!, user),
  }),
  activeApiTokenCount: t.int({
    description: 'How many of this user’s API tokens are neither revoked nor expired.',
    resolve: (user, _args, ctx) => tokens.countLiveTokens(ctx.caller!, user.id),
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
    args: { all: t.arg.boolean({ description: 'Administrators: every user’s tokens, not only their own.' }), ...tokenOrder.arg() },
    resolve: (query, _root, args, ctx) =>
      ctx.prisma.apiToken.findMany({
        ...runnable(query),
        where: tokens.tokenListFilter(ctx.caller!, args),
        orderBy: tokenOrder.orderBy<Prisma.ApiTokenOrderByWithRelationInput>(args.orderBy),
      }),
    totalCount: (_root, args, ctx) => ctx.prisma.apiToken.count({ where: tokens.tokenListFilter(ctx.caller!, args) }),
  }),
  apiTokenSettings: t.field({
    type: ApiTokenSettings,
    description: 'Whether users who are not administrators may create their own API tokens.',
    authScopes: { admin: true },
    resolve: (_root, _args, ctx) => tokens.getTokenSettings(ctx.caller!),
  }),
}));

builder.mutationFields((t) => ({
  createApiToken: t.field({
    type: ApiTokenCreated,
    description: 'Creates an API token for the signed-in user (a session, never a token). The secret is returned once.',
    authScopes: { signedIn: true },
    errors: { types: [ValidationError] },
    args: {
      name: t.arg.string({ required: true, description: 'What to call the token (1 to 100 characters).' }),
      expiresInDays: t.arg.int({ description: '1 to 365; default 90.' }),
      scope: t.arg({ type: ApiTokenScopeEnum, description: 'Default read.' }),
    },
    resolve: (_root, args, ctx) => tokens.createToken(ctx.caller!, args),
  }),
  revokeApiToken: t.field({
    type: ApiTokenNode,
    description: 'Revokes a token at once: the next request that presents it is refused.',
    authScopes: { signedIn: true },
    errors: {},
    args: { id: t.arg.globalID({ required: true, for: ApiTokenNode, description: 'The token’s global id.' }) },
    resolve: (_root, { id }, ctx) => tokens.revokeToken(ctx.caller!, id.id),
  }),
  setApiTokenSettings: t.field({
    type: ApiTokenSettings,
    description: 'Allows or forbids users who are not administrators to create their own tokens (administrators).',
    authScopes: { admin: true },
    errors: { types: [ValidationError] },
    args: { usersMayCreateTokens: t.arg.boolean({ required: true, description: 'true: every user may create tokens for themselves.' }) },
    resolve: (_root, args, ctx) => tokens.setTokenSettings(ctx.caller!, args),
  }),
}));
