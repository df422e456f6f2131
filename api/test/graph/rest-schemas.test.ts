// REST input schemas: every /api route declares zod
// schemas for its path parameters, query and body; Fastify checks them before the
// handler (400 naming the field, after the access check), and /api/openapi.json
// publishes the same schemas, so a client reads the rules the server applies.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, adminClient, startServer, userClient, type TestServer } from '../helpers/server.js';

let server: TestServer;
let admin: Client;
let doc: any;

beforeAll(async () => {
  server = await startServer();
  admin = await adminClient(server);
  doc = (await admin.get('/api/openapi.json')).body;
}, 60_000);
afterAll(async () => {
  await server?.close();
});

/** State-changing routes that read no input besides their path (a body, if any, is ignored). */
const NO_BODY = new Set([
  'post /api/admin/validate-openai-key',
  'delete /api/admin/purge-risk-data',
  'post /api/ai/bulk-categorize',
  'post /api/logout',
  'put /api/notifications/read-all',
  'put /api/notifications/{id}/read',
  'delete /api/notifications/{id}',
  'put /api/review-periods/{id}/open',
  'put /api/review-periods/{id}/close',
  'delete /api/assignment-criteria/{id}',
  'post /api/reviews/submit',
  'post /api/reviews/recall',
  'put /api/submissions/{id}/approve',
  'post /api/uploads/{id}/retry',
  'put /api/users/{id}/deactivate',
  'put /api/users/{id}/activate',
  'delete /api/tokens/{id}',
  'delete /api/mapping-profiles/{id}',
  'put /api/rule-sets/{id}/activate',
  'delete /api/review-period-templates/{id}',
]);

const op = (method: string, path: string) => doc.paths[path]?.[method];
const bodySchema = (method: string, path: string) => op(method, path)?.requestBody?.content?.['application/json']?.schema;
const param = (method: string, path: string, name: string) => op(method, path)?.parameters?.find((p: any) => p.name === name);

async function rows(table: string): Promise<number> {
  const [r] = await server.app.deps.db.sql.query<{ n: number | string }>(`SELECT count(*) AS n FROM ${table}`);
  return Number(r!.n);
}

describe('the OpenAPI document carries the schemas the routes check', () => {
  it('every state-changing route documents its body (or is known to read none); every path parameter is typed', () => {
    const missing: string[] = [];
    for (const [path, ops] of Object.entries<Record<string, any>>(doc.paths)) {
      for (const [method, o] of Object.entries<any>(ops)) {
        const key = `${method} ${path}`;
        if (method !== 'get' && !NO_BODY.has(key) && !o.requestBody) missing.push(`${key}: no requestBody`);
        for (const m of path.matchAll(/\{(\w+)\}/g)) {
          const p = o.parameters?.find((x: any) => x.in === 'path' && x.name === m[1]);
          if (!p?.schema?.type && !p?.schema?.enum) missing.push(`${key}: path parameter ${m[1]} untyped`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it('bodies, queries and parameters show types, bounds and enums', () => {
    const token = bodySchema('post', '/api/tokens');
    expect(token.required).toEqual(['name']);
    expect(token.properties.name).toMatchObject({ type: 'string', maxLength: 100 });
    expect(JSON.stringify(token.properties.expiresInDays)).toMatch(/"type":"integer".*"minimum":1.*"maximum":365/);
    expect(JSON.stringify(token.properties.scope)).toContain('"enum":["read","full"]');

    expect(bodySchema('post', '/api/users').required).toEqual(expect.arrayContaining(['email', 'firstName', 'role']));
    expect(bodySchema('post', '/api/users').properties.role.enum).toEqual(['admin', 'reviewer']);
    expect(bodySchema('post', '/api/assignment-criteria').properties.criteriaValue).toMatchObject({ maxLength: 500 });
    expect(bodySchema('post', '/api/notifications').properties.message).toMatchObject({ maxLength: 5000 });
    expect(bodySchema('put', '/api/tokens/settings').properties.usersMayCreateTokens).toMatchObject({ type: 'boolean' });
    expect(bodySchema('post', '/api/reviews/decisions').properties.decisions).toMatchObject({ type: 'array', maxItems: 100_000 });
    expect(bodySchema('post', '/api/reviews/decision').properties.compositeBusinessRole).toMatchObject({ type: 'string', maxLength: 500 });
    expect(JSON.stringify(bodySchema('post', '/api/review-periods').properties.startDate)).toContain('"format":"date-time"');
    expect(JSON.stringify(bodySchema('post', '/api/internal-login').properties.password)).toContain('"maxLength":1024');

    expect(param('get', '/api/risks', 'page')).toMatchObject({ in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 1_000_000 } });
    expect(param('get', '/api/risks', 'limit').schema).toMatchObject({ maximum: 500 });
    expect(param('get', '/api/risks', 'search').schema).toMatchObject({ type: 'string', maxLength: 500 });
    expect(param('get', '/api/assignment-values/{criteriaType}', 'criteriaType')).toMatchObject({
      in: 'path',
      schema: { enum: expect.arrayContaining(['system', 'user_id']) },
    });
    expect(param('delete', '/api/tokens/{id}', 'id')).toMatchObject({ in: 'path', required: true, schema: { type: 'string', maxLength: 100 } });

    const upload = op('post', '/api/upload').requestBody.content['multipart/form-data'].schema;
    expect(upload.properties.file).toMatchObject({ type: 'string', format: 'binary' });
    expect(upload.properties.uploadMode.enum).toEqual(['append', 'replace']);
  });
});

describe('the routes check them at the edge', () => {
  it('a wrong-typed or out-of-bounds field answers 400 naming the field, and writes nothing', async () => {
    const cases: [string, string, unknown, RegExp][] = [
      ['POST', '/api/tokens', { name: 'tool', expiresInDays: 'ten' }, /expiresInDays/],
      ['POST', '/api/tokens', { name: 'tool', expiresInDays: 400 }, /expiresInDays/],
      ['POST', '/api/tokens', { name: 'tool', scope: ['full'] }, /scope/],
      ['PUT', '/api/tokens/settings', { usersMayCreateTokens: 'yes' }, /usersMayCreateTokens/],
      ['POST', '/api/users', { email: 'x@example.com', firstName: 'X', role: 'reviewer', lastName: 7 }, /Last name/],
      ['POST', '/api/internal-login', { email: 5, password: 'x' }, /Email/],
      ['POST', '/api/reviews/decisions', { decisions: 'all of them' }, /decision/i],
      ['POST', '/api/reviews/decisions', { decisions: [{ riskDefinitionId: 1, decision: 'retain', comments: 5 }] }, /^Decision 1: comments/],
      ['POST', '/api/reviews/decision', { userId: 'U1', compositeBusinessRole: 'x'.repeat(501), decision: 'retain' }, /compositeBusinessRole/],
      ['PUT', '/api/submissions/1/return', { comment: { text: 'x' } }, /Comment/],
      ['GET', '/api/risks?page=abc', undefined, /page/],
      ['GET', '/api/risks?limit=501', undefined, /limit/],
      ['GET', '/api/risks?page=1&page=2', undefined, /page/],
      ['GET', '/api/users?active=maybe', undefined, /active/],
      ['GET', '/api/tokens?all=yes', undefined, /all/],
      ['GET', '/api/assignment-values/colour', undefined, /criteria type/],
      ['PUT', '/api/users/00000000-0000-4000-8000-000000000000/reset-password', { newPassword: 123456 }, /New password/],
    ];
    for (const [method, url, body, field] of cases) {
      const before = [await rows('api_tokens'), await rows('users'), await rows('decisions'), await rows('admin_settings')];
      const r = await admin.request(method, url, body);
      expect(r.status, `${method} ${url} ${JSON.stringify(body)}`).toBe(400);
      expect(r.body.message, `${method} ${url}`).toMatch(field);
      // The message, its code and the field: nothing of the validator's internals.
      expect(r.body.code, `${method} ${url}`).toBe('BAD_USER_INPUT');
      expect(
        Object.keys(r.body).filter((k) => k !== 'field'),
        `${method} ${url}`,
      ).toEqual(['message', 'code']);
      expect([await rows('api_tokens'), await rows('users'), await rows('decisions'), await rows('admin_settings')]).toEqual(before);
    }
  });

  it('a filter value has the same bound over REST and GraphQL (500 characters: an assignment criteria value)', async () => {
    const long = 'x'.repeat(501);
    const rest = await admin.get(`/api/risks?system=${long}`);
    expect(rest.status).toBe(400);
    expect(rest.body.message).toBe('system is too long (500 characters at most)');
    const gql = await admin.gql('query($f: RiskFilterInput) { riskQueue(filter: $f) { totalCount } }', { f: { system: long } });
    expect(gql.body.errors[0]).toMatchObject({ message: 'system is too long (500 characters at most)', extensions: { code: 'BAD_USER_INPUT' } });
    expect(
      (await admin.gql('query($f: RiskFilterInput) { riskQueue(filter: $f) { totalCount } }', { f: { system: 'x'.repeat(500) } })).body.data.riskQueue
        .totalCount,
    ).toBe(0);
  });

  it('handlers get the parsed values: numbers in a query arrive as numbers, unknown body fields are dropped', async () => {
    const page = await admin.get('/api/risks?page=2&limit=3');
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ page: 2, limit: 3 });
    const t = await admin.post('/api/tokens', { name: ' trimmed ', isAdmin: true });
    expect(t.status).toBe(201);
    expect(t.body.apiToken).toMatchObject({ name: 'trimmed', scope: 'read' });
  });

  it('the access rule is checked first: a caller who may not call a route learns nothing of its input rules', async () => {
    const anonymous = new Client(server.url);
    expect((await anonymous.post('/api/users', { email: 5 })).status).toBe(401);
    expect((await anonymous.get('/api/risks?page=abc')).status).toBe(401);
    const { client: reviewer } = await userClient(server, admin, 'reviewer');
    const r = await reviewer.post('/api/users', { email: 5 });
    expect(r.status).toBe(403);
    expect(r.body.message).toBe('Only administrators can do this');
  });
});
