// /api/openapi.json describes answers too: the successful
// answer's JSON Schema (from the same zod schema the route declares as `reply`)
// and the error answers every route may give; real answers validate against the
// published schemas. Every JSON answer of every API test is checked against the
// document as well (rest/reply-check.ts, on under NODE_ENV=test).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { seedRows } from '../helpers/seed.js';
import Fastify from 'fastify';
import { z } from 'zod';
import { Client, adminClient, startServer, userClient, type TestServer } from '../helpers/server.js';
import { registerReplyCheck } from '../../src/rest/reply-check.js';
import { routeSchema } from '../../src/rest/edge.js';

let server: TestServer;
let admin: Client;
let doc: any;

beforeAll(async () => {
  server = await startServer();
  admin = await adminClient(server);
  doc = (await admin.get('/api/openapi.json')).body;
  await seedRows(server.app.deps.prisma, [
    { userId: 'U1', userName: 'Alice Jones', accessRiskId: 'R01', system: 'SAP ERP', roleProfile: 'Z_AP' },
    { userId: 'U2', userName: 'Bob Smith', accessRiskId: 'R02', system: 'Workday', roleProfile: 'HR', riskLevel: 'low' },
  ]);
}, 60_000);
afterAll(async () => server?.close());

/** Successful answers with no body to describe: a deletion's 204 and the sign-in redirects. */
const NO_BODY = ['delete /api/mapping-profiles/{id}', 'get /api/login', 'get /api/auth/callback'];

const ajv = new Ajv2020({ strict: false, allErrors: true });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);

/** Checks a real answer against the schema the document publishes for it. */
function expectDocumented(method: string, path: string, status: number, body: unknown) {
  const response = doc.paths[path]?.[method]?.responses?.[String(status)];
  expect(response, `${method} ${path} ${status} is documented`).toBeDefined();
  let schema = response.content?.['application/json']?.schema;
  expect(schema, `${method} ${path} ${status} has a schema`).toBeDefined();
  if (schema.$ref) schema = doc.components.schemas[schema.$ref.replace('#/components/schemas/', '')];
  const validate = ajv.compile(schema);
  expect(validate(body) ? [] : validate.errors, `${method} ${path} ${status}: ${JSON.stringify(body).slice(0, 300)}`).toEqual([]);
}

describe('answers in the OpenAPI document', () => {
  it('every route documents its error answers with the error shape, and its successful answer (JSON or file)', () => {
    const withoutReply: string[] = [];
    const problems: string[] = [];
    for (const [path, ops] of Object.entries<Record<string, any>>(doc.paths)) {
      for (const [method, o] of Object.entries<any>(ops)) {
        const key = `${method} ${path}`;
        const ok = Object.entries<any>(o.responses).find(([status]) => /^[23]/.test(status));
        if (!ok) problems.push(`${key}: no successful answer`);
        else if (!Object.values<any>(ok[1].content ?? {}).some((c) => c.schema)) withoutReply.push(key);
        const errors = ['400', '404', '409', '429', '500', ...(o.security?.length === 0 ? [] : ['401', '403'])];
        for (const status of errors) {
          if (o.responses[status]?.content?.['application/json']?.schema?.$ref !== '#/components/schemas/Error')
            problems.push(`${key}: ${status} not documented`);
        }
      }
    }
    expect(problems).toEqual([]);
    expect(withoutReply.sort()).toEqual([...NO_BODY].sort());
  });

  it('the answers of the token and risk routes validate against the published schemas, over a session and a token', async () => {
    expectDocumented('get', '/api/risks', 200, (await admin.get('/api/risks?limit=5')).body);
    expectDocumented('get', '/api/risks/systems', 200, (await admin.get('/api/risks/systems')).body);
    expectDocumented('get', '/api/tokens/settings', 200, (await admin.get('/api/tokens/settings')).body);
    const settings = await admin.put('/api/tokens/settings', { usersMayCreateTokens: true });
    expectDocumented('put', '/api/tokens/settings', 200, settings.body);

    const reviewer = await userClient(server, admin, 'reviewer');
    expect((await admin.post('/api/assignment-criteria', { reviewerId: reviewer.user.id, criteriaType: 'user_id', criteriaValue: 'U1' })).status).toBe(201);
    const created = await reviewer.client.post('/api/tokens', { name: 'tool', scope: 'read' });
    expect(created.status).toBe(201);
    expectDocumented('post', '/api/tokens', 201, created.body);
    const tool = new Client(server.url);
    tool.bearer = created.body.token;
    const assigned = await tool.get('/api/assigned-risks?limit=10');
    expect(assigned.body.total).toBe(1);
    expectDocumented('get', '/api/assigned-risks', 200, assigned.body);
    // A row with every optional column filled in (dates, numbers, AI fields) validates too.
    await server.app.deps.prisma.riskRow.updateMany({
      where: { userId: 'U1' },
      data: {
        executionCount: 12,
        lastExecutedOn: new Date('2026-10-01'),
        aiSuggestedCategory: 'Financial Fraud',
        aiCategoryConfidence: 0.9,
        aiProcessedAt: new Date(),
        aiCategoryAccepted: true,
      },
    });
    expectDocumented('get', '/api/assigned-risks', 200, (await tool.get('/api/assigned-risks')).body);
    expectDocumented('get', '/api/tokens', 200, (await reviewer.client.get('/api/tokens')).body);
    const revoked = await reviewer.client.request('DELETE', `/api/tokens/${created.body.apiToken.id}`);
    expectDocumented('delete', '/api/tokens/{id}', 200, revoked.body);
    await admin.put('/api/tokens/settings', { usersMayCreateTokens: false });
  });

  it('error answers have the documented error shape', async () => {
    const bad = await admin.get('/api/risks?limit=0');
    expect(bad.status).toBe(400);
    expectDocumented('get', '/api/risks', 400, bad.body);
    const anonymous = await new Client(server.url).get('/api/risks');
    expect(anonymous.status).toBe(401);
    expectDocumented('get', '/api/risks', 401, anonymous.body);
    const reviewer = await userClient(server, admin, 'reviewer');
    const forbidden = await reviewer.client.get('/api/risks');
    expect(forbidden.status).toBe(403);
    expectDocumented('get', '/api/risks', 403, forbidden.body);
    const missing = await admin.request('DELETE', '/api/tokens/00000000-0000-4000-8000-000000000000');
    expect(missing.status).toBe(404);
    expectDocumented('delete', '/api/tokens/{id}', 404, missing.body);
  });
});

describe('the answers checked against the document in the API tests', () => {
  it('an answer that drifted from its reply schema (a field renamed, an undocumented status, an error of another shape) fails the call', async () => {
    const app = Fastify();
    registerReplyCheck(app);
    const reply = z.strictObject({ total: z.number().int() });
    app.get('/api/ok', { schema: routeSchema({ reply }) }, async () => ({ total: 3 }));
    app.get('/api/renamed', { schema: routeSchema({ reply }) }, async () => ({ count: 3 }));
    app.get('/api/created', { schema: routeSchema({ reply }) }, async (_req, r) => r.status(201).send({ total: 1 }));
    app.get('/api/odd-error', { schema: routeSchema({ reply }) }, async (_req, r) => r.status(400).send({ error: 'no message' }));
    const call = async (url: string) => {
      const r = await app.inject({ method: 'GET', url });
      return { status: r.statusCode, message: r.json().message };
    };
    expect(await call('/api/ok')).toEqual({ status: 200, message: undefined });
    expect(await call('/api/renamed')).toEqual({ status: 500, message: expect.stringContaining('GET /api/renamed does not match /api/openapi.json') });
    expect(await call('/api/created')).toEqual({ status: 500, message: expect.stringContaining('status 201, documented 200') });
    expect(await call('/api/odd-error')).toEqual({ status: 500, message: expect.stringContaining('the error shape') });
    await app.close();
  });
});
