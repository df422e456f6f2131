// GraphQL Yoga over the Pothos schema: persisted operations, depth/cost
// limits, introspection and GraphiQL for signed-in callers only, masked errors.
import fs from 'node:fs';
import { createYoga, type Plugin, type YogaServerInstance } from 'graphql-yoga';
import { GraphQLError, Kind, NoSchemaIntrospectionCustomRule, getOperationAST, parse, visit, type ExecutionArgs, type ValidationContext } from 'graphql';
import { usePersistedOperations } from '@graphql-yoga/plugin-persisted-operations';
import { maxDepthPlugin } from '@escape.tech/graphql-armor-max-depth';
import { costLimitPlugin } from '@escape.tech/graphql-armor-cost-limit';
import { maxAliasesPlugin } from '@escape.tech/graphql-armor-max-aliases';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { schema } from './schema/index.js';
import { authenticate, bearerOf, type AppDeps, type Context } from './context.js';
import { requestContext } from './request-context.js';
import { AppError, knownFault, ValidationError } from './core/errors.js';
import { assertCleanStrings, isSecretField, stringProblem } from './core/validation.js';
import { graphiqlOptions, renderLocalGraphiQL } from './graphiql.js';
import { graphqlTracing } from './tracing.js';

export interface ServerContext {
  req: FastifyRequest;
  reply?: FastifyReply;
}

// Cost counts list sizes written into a query; connections are capped at 500 items anyway.
export const GRAPHQL_LIMITS = { maxDepth: 12, maxCost: 250000, maxAliases: 20 };

/** The `extensions.code` of a document refused for each limit. */
export const LIMIT_CODES = {
  maxDepth: 'MAX_DEPTH_EXCEEDED',
  maxCost: 'MAX_COST_EXCEEDED',
  maxAliases: 'MAX_ALIASES_EXCEEDED',
} as const;

const LIMIT_WORDS: Record<keyof typeof GRAPHQL_LIMITS, string> = {
  maxDepth: 'nests deeper than the depth limit',
  maxCost: 'costs more than the cost limit',
  maxAliases: 'has more aliases than the alias limit',
};

/**
 * graphql-armor refuses a document with a bare 'Syntax Error: …' and no code;
 * instead each limit reports its own validation error (HTTP 400) naming the
 * limit, its value and what the document has, so a tool can tell them apart.
 */
function limitRejection(limit: keyof typeof GRAPHQL_LIMITS) {
  return (context: ValidationContext | null, armorError: GraphQLError) => {
    const found = Number(/found (\d+)/.exec(armorError.message)?.[1] ?? NaN);
    const max = GRAPHQL_LIMITS[limit];
    const error = new GraphQLError(`The operation ${LIMIT_WORDS[limit]} (${limit} ${max})${Number.isFinite(found) ? `: it has ${found}` : ''}.`, {
      extensions: { code: LIMIT_CODES[limit], limit, max, ...(Number.isFinite(found) ? { found } : {}), http: { status: 400 } },
    });
    // Without a validation context to report to, refuse by throwing, as armor itself would.
    if (!context) throw error;
    context.reportError(error);
  };
}

/** Relay's persisted operations (web/persisted-queries.json), reloaded when the file changes. */
export function createPersistedStore(file: string) {
  let mtime = -1;
  let map: Record<string, string> = {};
  return (id: string): string | null => {
    try {
      const m = fs.statSync(file).mtimeMs;
      if (m !== mtime) {
        map = JSON.parse(fs.readFileSync(file, 'utf8'));
        mtime = m;
      }
    } catch {
      map = {};
    }
    return Object.prototype.hasOwnProperty.call(map, id) ? map[id]! : null;
  };
}

function headersOf(request: Request) {
  const h: Record<string, string> = {};
  request.headers.forEach((v, k) => (h[k] = v));
  return h;
}

export function createGraphQL(deps: AppDeps): { yoga: YogaServerInstance<ServerContext, Context>; persisted: (id: string) => string | null } {
  const persisted = createPersistedStore(deps.config.persistedQueriesFile);

  const yoga = createYoga<ServerContext, Context>({
    schema,
    graphqlEndpoint: '/graphql',
    landingPage: false,
    // CORS is answered for /graphql and /api alike by web-security.ts (CORS_ORIGINS only);
    // Yoga's default would reflect any origin with credentials.
    cors: false,
    // GraphiQL from the app's own files (graphiql.ts), not Yoga's CDN page.
    renderGraphiQL: renderLocalGraphiQL,
    logging: deps.config.LOG_LEVEL === 'silent' ? false : 'warn',
    context: ({ req, reply }) => requestContext(deps, req, reply),
    graphiql: async (_request, ctx) => {
      const auth = await authenticate(deps, ctx.req.raw, ctx.req.headers, { ip: ctx.req.ip });
      return auth.user ? graphiqlOptions() : false;
    },
    maskedErrors: {
      maskError(error, message) {
        // Duck-typed: graphql may be loaded twice (ESM and CJS copies), so instanceof is unreliable.
        const isGql = (e: unknown): e is GraphQLError => (e as Error | undefined)?.name === 'GraphQLError';
        const raw = isGql(error) ? error.originalError : error;
        const original = raw instanceof AppError ? raw : (knownFault(raw) ?? raw);
        if (original instanceof AppError) {
          return new GraphQLError(original.message, { extensions: { code: original.code } });
        }
        // A global id of the wrong type for its argument (checked by the relay plugin after global-ids.ts decoded it).
        if ((original as Error | undefined)?.name === 'PothosValidationError') {
          const e = isGql(error) ? error : undefined;
          return new GraphQLError((original as Error).message, { nodes: e?.nodes, path: e?.path, extensions: { code: 'BAD_USER_INPUT' } });
        }
        // A file the multipart request's map names but does not carry (graphql-upload-minimal's
        // HttpError, thrown when the resolver awaits the Upload): the client's request, not ours.
        if (isClientHttpError(original)) {
          const e = isGql(error) ? error : undefined;
          return new GraphQLError(original.message, {
            nodes: e?.nodes,
            path: e?.path,
            extensions: { code: original.status === 413 ? 'PAYLOAD_TOO_LARGE' : 'BAD_USER_INPUT' },
          });
        }
        if (isGql(error) && !error.originalError) return error;
        if (isGql(error) && isGql(error.originalError)) return error;
        deps.logError(`unexpected GraphQL error: ${(original as Error)?.stack ?? String(original)}`);
        return new GraphQLError(message, { extensions: { code: 'INTERNAL_SERVER_ERROR' } });
      },
    },
    plugins: [
      usePersistedOperations({
        getPersistedOperation: (id) => persisted(id),
        extractPersistedOperationId: (params) => {
          const p = params as typeof params & { documentId?: string; doc_id?: string; id?: string };
          return p.documentId ?? p.doc_id ?? p.extensions?.persistedQuery?.sha256Hash ?? null;
        },
        // Arbitrary documents only from authenticated callers (API tokens, GraphiQL).
        allowArbitraryOperations: async (request) => {
          const auth = await authenticate(deps, request, headersOf(request));
          return Boolean(auth.user);
        },
        customErrors: {
          persistedQueryOnly: {
            message: 'Only persisted operations are accepted from callers who are not signed in',
            extensions: { code: 'PERSISTED_QUERY_ONLY', http: { status: 400 } },
          },
        },
      }),
      // Anonymous callers may not introspect the schema. Whether the caller is
      // signed in is settled once, while the request is parsed (auth is memoised).
      {
        onValidate({ context, addValidationRule }) {
          const ctx = context as unknown as ServerContext & { __signedIn?: boolean };
          if (ctx.__signedIn === false) addValidationRule(NoSchemaIntrospectionCustomRule);
        },
        async onRequestParse({ serverContext }) {
          const sc = serverContext as unknown as ServerContext & { __signedIn?: boolean };
          if (!sc?.req) return;
          const auth = await authenticate(deps, sc.req.raw, sc.req.headers, { ip: sc.req.ip });
          // A presented API token that is unknown, revoked or expired is refused, not run anonymously.
          if (!auth.user && bearerOf(sc.req.headers) !== null) {
            throw new GraphQLError('The API token is invalid, expired or revoked', {
              extensions: { code: 'UNAUTHENTICATED', http: { status: 401 } },
            });
          }
          sc.__signedIn = Boolean(auth.user);
        },
      } as Plugin<ServerContext>,
      readOnlyTokens,
      readableParams,
      graphqlTracing<ServerContext>(),
      cleanStrings,
      // A fragment spread is not a level of nesting (Relay spreads many).
      maxDepthPlugin({
        n: GRAPHQL_LIMITS.maxDepth,
        ignoreIntrospection: true,
        flattenFragments: true,
        propagateOnRejection: false,
        onReject: [limitRejection('maxDepth')],
      }),
      costLimitPlugin({ maxCost: GRAPHQL_LIMITS.maxCost, ignoreIntrospection: true, propagateOnRejection: false, onReject: [limitRejection('maxCost')] }),
      maxAliasesPlugin({ n: GRAPHQL_LIMITS.maxAliases, propagateOnRejection: false, onReject: [limitRejection('maxAliases')] }),
    ],
  });
  return { yoga, persisted };
}

/**
 * A `read` API token runs queries and subscriptions only: a mutation is refused
 * (HTTP 403, code FORBIDDEN) before anything executes, over HTTP and graphql-ws alike.
 */
const readOnlyTokens: Plugin<ServerContext> = {
  onExecute({ args, setResultAndStopExecution }) {
    const ctx = args.contextValue as unknown as Context | undefined;
    if (ctx?.apiToken?.scope !== 'read') return;
    if (getOperationAST(args.document, args.operationName)?.operation !== 'mutation') return;
    setResultAndStopExecution({
      errors: [
        new GraphQLError('This API token is read-only: it cannot run mutations', {
          extensions: { code: 'FORBIDDEN', http: { status: 403 } },
        }),
      ],
    });
  },
};

/**
 * The GraphQL side of the edge check (rest/http.ts registerInputHygiene): no string
 * in the variables or in a literal argument may carry a NUL byte, an unpaired
 * surrogate or an unsafe control character (core/validation.ts), or exceed the
 * global length; refused as BAD_USER_INPUT naming the argument and input field,
 * before anything executes (queries, mutations and subscriptions alike).
 */
function hostileStringError(args: ExecutionArgs): GraphQLError | null {
  try {
    assertCleanStrings(args.variableValues ?? {});
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    return new GraphQLError(`Variable ${err.message}`, { extensions: { code: 'BAD_USER_INPUT', field: err.field } });
  }
  let found: GraphQLError | null = null;
  visit(args.document, {
    Argument(node) {
      if (found) return false;
      let inner: GraphQLError | null = null;
      const fields: string[] = [];
      visit(node.value, {
        [Kind.OBJECT_FIELD]: {
          enter(f) {
            fields.push(f.name.value);
          },
          leave() {
            fields.pop();
          },
        },
        [Kind.STRING](s) {
          const field = [node.name.value, ...fields].join('.');
          const problem = inner ? null : stringProblem(s.value, { secret: isSecretField(fields.at(-1) ?? node.name.value) });
          if (problem) inner = new GraphQLError(`Argument ${field} ${problem}`, { nodes: [s], extensions: { code: 'BAD_USER_INPUT', field } });
        },
      });
      found = inner;
      return false;
    },
  });
  return found;
}

const cleanStrings: Plugin<ServerContext> = {
  onExecute({ args, setResultAndStopExecution }) {
    const error = hostileStringError(args);
    if (error) setResultAndStopExecution({ errors: [error] });
  },
  onSubscribe({ args, setResultAndStopExecution }) {
    const error = hostileStringError(args);
    if (error) setResultAndStopExecution({ errors: [error] });
  },
};

/** An error a request parser marks as the client's (status 4xx, expose: true), as graphql-upload-minimal's HttpError does. */
function isClientHttpError(e: unknown): e is Error & { status: number } {
  const x = e as { status?: unknown; expose?: unknown } | null;
  return e instanceof Error && x?.expose === true && typeof x.status === 'number' && x.status >= 400 && x.status < 500;
}

/**
 * Parameters that are not JSON where JSON is required (a GET's `variables` or
 * `extensions`): Yoga's parser throws a bare SyntaxError, which would be masked as
 * an internal error; it is the client's request, refused with 400 saying which.
 */
const readableParams: Plugin<ServerContext> = {
  onRequestParse({ requestParser, setRequestParser }) {
    if (!requestParser) return;
    const parse = requestParser;
    setRequestParser(async (request) => {
      try {
        return await parse(request);
      } catch (err) {
        if (!(err instanceof SyntaxError)) throw err;
        throw new GraphQLError(`The request's variables or extensions are not valid JSON: ${err.message}`, {
          extensions: { code: 'BAD_REQUEST', http: { status: 400 } },
        });
      }
    });
  },
};

export interface OperationParams {
  query?: string | null;
  documentId?: string | null;
  operationName?: string | null;
  variables?: Record<string, unknown> | null;
  extensions?: { persistedQuery?: { sha256Hash?: string } } | null;
}

export interface Prepared {
  args: ExecutionArgs;
  execute: (a: ExecutionArgs) => unknown;
  subscribe: (a: ExecutionArgs) => unknown;
}

/**
 * Prepares an operation that arrives outside Yoga's own HTTP handling
 * (graphql-ws messages, multipart uploads) with the same rules: persisted
 * operations for anonymous callers, the same plugins (limits, masking,
 * introspection guard) through Yoga's envelop, the same context.
 */
export function prepareOperation(
  yoga: YogaServerInstance<ServerContext, Context>,
  persisted: (id: string) => string | null,
  context: Context,
  params: OperationParams,
): Prepared | readonly GraphQLError[] {
  const persistedId = params.documentId ?? params.extensions?.persistedQuery?.sha256Hash;
  let query = params.query ?? undefined;
  if (persistedId) {
    query = persisted(persistedId) ?? undefined;
    if (!query) return [new GraphQLError('PersistedQueryNotFound', { extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } })];
  } else if (!context.user) {
    return [new GraphQLError('Only persisted operations are accepted from callers who are not signed in', { extensions: { code: 'PERSISTED_QUERY_ONLY' } })];
  }
  if (!query) return [new GraphQLError('Must provide a query string')];
  const enveloped = yoga.getEnveloped({ __signedIn: Boolean(context.user) } as never);
  let document;
  try {
    document = parse(query);
  } catch (e) {
    return [e as GraphQLError];
  }
  const errors = enveloped.validate(enveloped.schema, document);
  if (errors.length) return errors;
  return {
    args: {
      schema: enveloped.schema,
      document,
      operationName: params.operationName ?? undefined,
      variableValues: params.variables ?? undefined,
      contextValue: context,
      rootValue: { execute: enveloped.execute, subscribe: enveloped.subscribe },
    },
    execute: enveloped.execute as (a: ExecutionArgs) => unknown,
    subscribe: enveloped.subscribe as (a: ExecutionArgs) => unknown,
  };
}
