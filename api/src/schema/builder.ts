// The Pothos schema builder: configuration only. Domain files (imported by
// schema/index.ts) add the types and fields; the builder never imports them.
import SchemaBuilder from '@pothos/core';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import PrismaPlugin from '@pothos/plugin-prisma';
import RelayPlugin from '@pothos/plugin-relay';
import ErrorsPlugin from '@pothos/plugin-errors';
import { GraphQLError } from 'graphql';
import type PrismaTypes from '../generated/pothos-types.js';
import { getDatamodel } from '../generated/pothos-types.js';
import type { Context } from '../context.js';
import { access } from '../context.js';
import { AppError, ERROR_CODES, ValidationError, type ErrorCode } from '../core/errors.js';
import { PLAUSIBLE_YEARS, isPlausibleDate } from '../core/validation.js';
import { decodeIDOrThrow } from './global-ids.js';

/** The caller's scopes (scope-auth), also read by onlyVisible below. */
function scopesOf(ctx: Context) {
  return {
    public: true,
    authenticated: access.authenticated(ctx.user),
    signedIn: access.signedIn(ctx.user),
    admin: access.admin(ctx.user),
    reviewer: access.reviewer(ctx.user),
    self: (id: string) => access.signedIn(ctx.user) && ctx.user!.id === id,
  };
}

type ScopeMap = Partial<Record<keyof ReturnType<typeof scopesOf>, unknown>>;
type TypeScopes = boolean | ScopeMap | ((value: unknown, ctx: Context) => boolean | ScopeMap | Promise<boolean | ScopeMap>);

/**
 * A record read by node(id:)/nodes(ids:), or null when its type's authScopes (the
 * one rule of who sees it, declared on the type) refuse it to the caller: the
 * answer is then the same as for an id that names nothing.
 */
async function onlyVisible(typename: string, value: unknown, ctx: Context): Promise<unknown> {
  if (value == null || value instanceof Error) return value;
  const rule = (builder.configStore.getTypeConfig(typename).pothosOptions as { authScopes?: TypeScopes }).authScopes;
  if (rule === undefined) return value;
  const wanted = typeof rule === 'function' ? await rule(value, ctx) : rule;
  if (typeof wanted === 'boolean') return wanted ? value : null;
  const granted = scopesOf(ctx);
  const any = Object.entries(wanted).some(([scope, arg]) => {
    const g = granted[scope as keyof typeof granted];
    return typeof g === 'function' ? g(arg as string) : g && arg === true;
  });
  return any ? value : null;
}

/** Largest page a connection returns, whatever `first`/`last` asks. */
export const MAX_CONNECTION_SIZE = 500;

export const builder = new SchemaBuilder<{
  Context: Context;
  PrismaTypes: PrismaTypes;
  AuthScopes: {
    public: boolean;
    authenticated: boolean;
    signedIn: boolean;
    admin: boolean;
    reviewer: boolean;
    /** The signed-in user is the user with this id. */
    self: string;
  };
  Scalars: {
    DateTime: { Input: Date; Output: Date };
    Upload: { Input: unknown; Output: never };
    ID: { Input: string; Output: string | number | bigint };
  };
  DefaultFieldNullability: false;
}>({
  // Relay first, so scope functions receive decoded global IDs (Pothos docs).
  plugins: [RelayPlugin, ScopeAuthPlugin, PrismaPlugin, ErrorsPlugin],
  defaultFieldNullability: false,
  scopeAuth: {
    authorizeOnSubscribe: true,
    authScopes: scopesOf,
    unauthorizedError: (_parent, ctx) =>
      ctx.user
        ? new GraphQLError('You do not have permission to do this', { extensions: { code: 'FORBIDDEN', http: { status: 200 } } })
        : new GraphQLError('You are not signed in', { extensions: { code: 'UNAUTHENTICATED', http: { status: 200 } } }),
  },
  prisma: {
    client: (ctx) => ctx.prisma,
    dmmf: getDatamodel(),
    exposeDescriptions: false,
    filterConnectionTotalCount: true,
    maxConnectionSize: MAX_CONNECTION_SIZE,
    defaultConnectionSize: 50,
    onUnusedQuery: process.env.NODE_ENV === 'production' ? null : 'warn',
  },
  // The parts the relay plugin generates (Node, node(id:), nodes(ids:), PageInfo) are described here, where Pothos takes their options.
  relay: {
    clientMutationId: 'omit',
    cursorType: 'String',
    nodeTypeOptions: { description: 'Anything with a global id: read it again with `node(id:)`.' },
    idFieldOptions: { description: 'The global id: opaque, stable, and accepted by `node(id:)` and the arguments that take an id.' },
    pageInfoTypeOptions: { description: 'Where a page of a connection is in the whole list.' },
    hasNextPageFieldOptions: { description: 'More items follow this page.' },
    hasPreviousPageFieldOptions: { description: 'Items come before this page.' },
    startCursorFieldOptions: {
      description: 'The cursor of the first item of the page: pass it as `before` for the previous page (null when the page is empty).',
    },
    endCursorFieldOptions: { description: 'The cursor of the last item of the page: pass it as `after` for the next page (null when the page is empty).' },
    // A record the caller may not see answers null, as one that does not exist: no error, no __typename.
    nodeQueryOptions: {
      description: 'The object with this global id, or null when it does not exist or the caller may not see it (the answer does not tell which).',
      args: { id: { description: 'A global id, as an `id` field gave it.' } },
      authScopes: { signedIn: true },
      resolve: async (_root, args, ctx, _info, resolveNode) => onlyVisible(args.id.typename, await resolveNode(args.id), ctx),
    },
    nodesQueryOptions: {
      description: 'The objects with these global ids, in the same order; null for each that does not exist or the caller may not see.',
      args: { ids: { description: 'Global ids, as `id` fields gave them.' } },
      authScopes: { signedIn: true },
      resolve: async (_root, args, ctx, _info, resolveNodes) =>
        Promise.all((await resolveNodes(args.ids)).map((node, i) => onlyVisible(args.ids[i]!.typename, node, ctx))),
    },
    // Malformed ids and ids of no Node type are BAD_USER_INPUT (global-ids.ts).
    decodeGlobalID: (globalID) => decodeIDOrThrow(globalID),
  },
  errors: {
    // Only our own domain errors become typed results; anything else is an
    // unexpected failure and is masked by Yoga.
    defaultTypes: [AppError],
  },
});

builder.queryType({ description: 'What a signed-in user (or API token) can read: each field says who may ask it.' });
builder.mutationType({
  description: 'What a signed-in user can change. Each answer is a result union: the success with its data, or an error with a code and a message.',
});
builder.subscriptionType({ description: 'Live events over graphql-ws (or server-sent events): each field says what it delivers and to whom.' });

builder.scalarType('DateTime', {
  description: 'An ISO-8601 date and time in UTC.',
  serialize: (d) => (d instanceof Date ? d.toISOString() : new Date(d as string).toISOString()),
  parseValue: (v) => {
    const d = new Date(String(v));
    if (Number.isNaN(d.getTime())) throw new GraphQLError(`Not a valid date: ${String(v)}`);
    if (!isPlausibleDate(d)) throw new GraphQLError(`Not a valid date: ${String(v)} ${PLAUSIBLE_YEARS}`);
    return d;
  },
});

export const ErrorInterface = builder.interfaceRef<Error>('Error').implement({
  description: 'A refusal or failure a caller can act on: its message is meant for people.',
  fields: (t) => ({ message: t.exposeString('message', { description: 'What went wrong, in words to show the user.' }) }),
});

/** The code of a typed error: one closed set, so a tool can switch on it. */
const ErrorCodeEnum = builder.enumType('ErrorCode', {
  description: 'What kind of error a mutation answered (the same codes as `extensions.code` of GraphQL errors).',
  values: Object.fromEntries(Object.entries(ERROR_CODES).map(([code, description]) => [code, { value: code, description }])) as Record<
    ErrorCode,
    { value: ErrorCode; description: string }
  >,
});

builder.objectType(AppError, {
  name: 'BaseError',
  description: 'A refusal of the domain (not allowed, not found, a conflict with the current state).',
  interfaces: [ErrorInterface],
  fields: (t) => ({ code: t.expose('code', { type: ErrorCodeEnum, description: 'The machine-readable reason, e.g. FORBIDDEN, NOT_FOUND, CONFLICT.' }) }),
});

builder.objectType(ValidationError, {
  name: 'ValidationError',
  description: 'The input broke a rule: `field` names the input field at fault.',
  interfaces: [ErrorInterface],
  fields: (t) => ({
    code: t.expose('code', { type: ErrorCodeEnum, description: 'Always BAD_USER_INPUT.' }),
    field: t.exposeString('field', { nullable: true, description: 'The input field at fault (null when the input as a whole is).' }),
    message: t.exposeString('message', { description: 'The rule broken, in words to show next to the field.' }),
  }),
});

/**
 * The Prisma query Pothos built for a field, safe to run: when the client asks
 * for no field of the record (only `__typename`), Pothos gives `{ select: {} }`,
 * which Prisma refuses; a mutation that re-reads the record it wrote would then
 * answer an error after committing. Ask for the id instead.
 */
export function runnable<Q extends object>(query: Q): Q {
  const select = (query as { select?: object }).select;
  return select && Object.keys(select).length === 0 ? ({ ...query, select: { id: true } } as Q) : query;
}
