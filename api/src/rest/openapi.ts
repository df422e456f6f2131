// /api/openapi.json, built from the routes as they are registered, so the
// document cannot miss one.
import type { FastifyInstance, RouteOptions } from 'fastify';
import { jsonSchema, type RouteSchema } from './edge.js';
import { ErrorJson } from './reply-check.js';

interface Collected {
  method: string;
  url: string;
  access: string;
  schema: RouteSchema;
}

export function collectRoutes(app: FastifyInstance): Collected[] {
  const routes: Collected[] = [];
  app.addHook('onRoute', (r: RouteOptions) => {
    if (!r.url.startsWith('/api/')) return;
    const methods = Array.isArray(r.method) ? r.method : [r.method];
    for (const m of methods) {
      if (m === 'HEAD' || m === 'OPTIONS') continue;
      routes.push({
        method: m.toLowerCase(),
        url: r.url,
        access: (r.config as { access?: string } | undefined)?.access ?? 'none',
        schema: (r.schema ?? {}) as RouteSchema,
      });
    }
  });
  return routes;
}

const ACCESS_TEXT: Record<string, string> = {
  public: 'No sign-in needed.',
  authenticated: 'Any signed-in user, including one who must still change the password.',
  signedIn: 'Any signed-in user.',
  admin: 'Administrators only.',
  reviewer: 'Reviewers only.',
};

type JsonSchema = { properties?: Record<string, unknown>; required?: string[] };

/** Path parameters (every one in the URL, typed by schema.params) and query parameters (schema.querystring). */
function parameters(r: Collected) {
  const path = (r.schema.params ? jsonSchema(r.schema.params) : {}) as JsonSchema;
  const query = (r.schema.querystring ? jsonSchema(r.schema.querystring) : {}) as JsonSchema;
  const list = [
    ...[...r.url.matchAll(/:([A-Za-z_]+)/g)].map((m) => ({
      name: m[1]!,
      in: 'path',
      required: true,
      schema: path.properties?.[m[1]!] ?? { type: 'string' },
    })),
    ...Object.entries(query.properties ?? {}).map(([name, schema]) => ({
      name,
      in: 'query',
      required: query.required?.includes(name) ?? false,
      schema,
    })),
  ];
  return list.length ? list : undefined;
}

function requestBody(s: RouteSchema) {
  if (s.body) return { required: true, content: { 'application/json': { schema: jsonSchema(s.body) } } };
  if (s.multipartBody) return { required: true, content: { 'multipart/form-data': { schema: jsonSchema(s.multipartBody) } } };
  return undefined;
}

/** The successful answer: the JSON Schema of `reply`, the files it may be, its headers. */
function success(s: RouteSchema) {
  const status = String(s.replyStatus ?? 200);
  const content = { ...(s.reply ? { 'application/json': { schema: jsonSchema(s.reply, 'output') } } : {}), ...s.replyFiles };
  return {
    [status]: {
      description: s.replyDescription ?? 'OK',
      ...(s.replyHeaders ? { headers: s.replyHeaders } : {}),
      ...(Object.keys(content).length ? { content } : {}),
    },
  };
}

const errorBody = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };

/** The errors every route may answer (rest/http.ts: always `{ message }`); 401/403 only where sign-in is needed. */
function errorResponses(access: string) {
  return {
    '400': { description: 'Bad input: the message names the field (a parameter, the query or the body)', content: errorBody },
    ...(access === 'public'
      ? {}
      : {
          '401': { description: 'Not signed in, or the API token is invalid, expired or revoked', content: errorBody },
          '403': { description: 'Signed in, but not allowed (role, a read-only token, or a call that needs a session)', content: errorBody },
        }),
    '404': { description: 'What the path names does not exist, or the caller may not see it', content: errorBody },
    '409': { description: 'Refused in the current state (e.g. no active review period)', content: errorBody },
    '429': {
      description: 'Too many requests: try again after Retry-After seconds',
      headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds to wait' } },
      content: errorBody,
    },
    '500': { description: 'An unexpected failure (logged on the server); the message says nothing more', content: errorBody },
  };
}

const camel = (words: string[]) => words.map((w, i) => (i ? w[0]!.toUpperCase() + w.slice(1) : w)).join('');

/**
 * An operation's id, made from its method and path so that it is stable and
 * unique (`GET /api/users/{id}/activate` → `getUsersByIdActivate`): client
 * generators name their functions after it.
 */
export function operationIdOf(method: string, url: string): string {
  const words = url
    .replace(/^\/api\//, '')
    .split('/')
    .filter(Boolean)
    .flatMap((seg) => (seg.startsWith(':') ? ['by', seg.slice(1)] : seg.split(/[^A-Za-z0-9]+/).filter(Boolean)));
  return camel([method.toLowerCase(), ...words]);
}

/** An operation's tag: its domain, the first segment of its path (`/api/review-periods/…` → `review-periods`). */
export function tagOf(url: string): string {
  return (
    url
      .replace(/^\/api\//, '')
      .split('/')[0]!
      .replace(/\.[a-z]+$/, '') || 'api'
  );
}

export function openApiDocument(routes: Collected[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const p = r.url.replace(/:([A-Za-z_]+)/g, '{$1}');
    (paths[p] ??= {})[r.method] = {
      operationId: operationIdOf(r.method, r.url),
      tags: [tagOf(r.url)],
      summary: r.schema.summary ?? `${r.method.toUpperCase()} ${p}`,
      description: ACCESS_TEXT[r.access] ?? '',
      parameters: parameters(r),
      requestBody: requestBody(r.schema),
      security: r.access === 'public' ? [] : [{ session: [] }, { bearer: [] }],
      responses: { ...success(r.schema), ...errorResponses(r.access) },
    };
  }
  const tags = [...new Set(routes.map((r) => tagOf(r.url)))].sort().map((name) => ({ name }));
  return {
    openapi: '3.1.0',
    tags,
    info: { title: 'GRC Platform REST API', version: '1.0.0', description: 'The documented /api calls (SPEC §7). GraphQL is at /graphql.' },
    paths,
    components: {
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: 'grc_session' },
        bearer: { type: 'http', scheme: 'bearer', description: 'An API token (grc_…)' },
      },
      schemas: {
        Error: jsonSchema(ErrorJson.describe('An error answer'), 'output'),
      },
    },
  };
}
