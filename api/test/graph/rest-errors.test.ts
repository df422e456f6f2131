// What a tool reads from the REST API besides the data: every error answer
// carries the SPEC's message with a stable code (GraphQL's ErrorCode) and the
// field at fault; a 401 says how to authenticate; the filters of fixed values
// take the SPEC's spelling only and are published as enums; every operation of
// /api/openapi.json has an operationId and a tag; pages of CORS_ORIGINS can
// read the headers tools need.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, adminClient, startServer, userClient, type TestServer } from '../helpers/server.js';

const PARTNER = 'https://tools.example';
let server: TestServer;
let admin: Client;

beforeAll(async () => {
  server = await startServer({ CORS_ORIGINS: PARTNER });
  admin = await adminClient(server);
}, 60_000);
afterAll(async () => server?.close());

describe('error answers', () => {
  it('name the field at fault and carry a code', async () => {
    const r = await admin.post('/api/users', { email: 'not an address', firstName: 'A', role: 'reviewer' });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ message: 'Please enter a valid email address', code: 'BAD_USER_INPUT', field: 'email' });
  });

  it('a 401 says how to authenticate', async () => {
    const r = await new Client(server.url).get('/api/users');
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ message: 'You are not signed in', code: 'UNAUTHENTICATED' });
    expect(r.headers.get('www-authenticate')).toBe('Bearer realm="GRC Platform"');
  });

  it('refusals, unknown routes and conflicts carry their codes', async () => {
    const { client: reviewer } = await userClient(server, admin);
    expect((await reviewer.get('/api/users')).body).toEqual({ message: 'Only administrators can do this', code: 'FORBIDDEN' });
    expect((await admin.get('/api/no-such-thing')).body).toEqual({ message: 'Not found: GET /api/no-such-thing', code: 'NOT_FOUND' });
    const missing = await admin.put('/api/users/00000000-0000-4000-8000-000000000000', { firstName: 'X' });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('NOT_FOUND');
  });
});

describe('filters of fixed values', () => {
  it("take the SPEC's lower-case spelling and refuse GraphQL's, naming the value", async () => {
    expect((await admin.get('/api/risks?riskLevel=high')).status).toBe(200);
    expect((await admin.get('/api/risks?riskLevel=')).status).toBe(200);
    const upper = await admin.get('/api/risks?riskLevel=HIGH');
    expect(upper.status).toBe(400);
    expect(upper.body).toMatchObject({ message: "Unknown risk level 'HIGH': use high, medium or low", code: 'BAD_USER_INPUT', field: 'riskLevel' });
    const decision = await admin.get('/api/risks/export?decision=PENDING');
    expect(decision.status).toBe(400);
    expect(decision.body.message).toMatch(/^Unknown decision state 'PENDING': use /);
  });

  it('are published as enums', async () => {
    const doc = (await admin.get('/api/openapi.json')).body;
    const params = doc.paths['/api/risks'].get.parameters as { name: string; schema: { enum?: string[] } }[];
    expect(params.find((p) => p.name === 'riskLevel')?.schema.enum).toEqual(['', 'all', 'All', 'All Systems', 'high', 'medium', 'low']);
    expect(params.find((p) => p.name === 'decision')?.schema.enum).toContain('retain_mitigated');
    expect(params.find((p) => p.name === 'recommendation')?.schema.enum).toEqual(['', 'all', 'All', 'All Systems', 'remove', 'review', 'retain']);
  });
});

describe('the OpenAPI document', () => {
  it('gives every operation a unique operationId and a tag', async () => {
    const doc = (await admin.get('/api/openapi.json')).body;
    const ops = Object.entries(doc.paths as Record<string, Record<string, { operationId?: string; tags?: string[] }>>).flatMap(([p, methods]) =>
      Object.entries(methods).map(([m, op]) => ({ where: `${m} ${p}`, ...op })),
    );
    expect(ops.length).toBeGreaterThan(50);
    for (const op of ops) {
      expect(op.operationId, op.where).toMatch(/^[a-z][A-Za-z0-9]+$/);
      expect(op.tags?.length, op.where).toBe(1);
    }
    expect(new Set(ops.map((o) => o.operationId)).size).toBe(ops.length);
    expect(doc.paths['/api/users/{id}'].put.operationId).toBe('putUsersById');
    expect(doc.paths['/api/users/{id}'].put.tags).toEqual(['users']);
    expect((doc.tags as { name: string }[]).map((t) => t.name)).toContain('review-periods');
    expect(doc.components.schemas.Error.properties.code.enum).toContain('BAD_USER_INPUT');
  });
});

describe('CORS', () => {
  it('lets pages of CORS_ORIGINS read the rows announced and the request id', async () => {
    const r = await admin.request('GET', '/api/risks/export', undefined, { origin: PARTNER });
    expect(r.status).toBe(200);
    expect(r.headers.get('access-control-allow-origin')).toBe(PARTNER);
    const exposed = (r.headers.get('access-control-expose-headers') ?? '').split(/,\s*/);
    expect(exposed).toEqual(expect.arrayContaining(['x-total-rows', 'x-request-id']));
    expect(r.headers.get('x-total-rows')).not.toBeNull();
  });
});
