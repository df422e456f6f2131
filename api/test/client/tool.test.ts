// A downstream tool with an API token: the typed
// client generated from /api/openapi.json (calls.ts) makes the API tests' calls,
// and the CSV exports stream to a token with the web's filters, announcing their
// rows (X-Total-Rows); GraphQL's riskExport gives an address the token can fetch.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedRows } from '../helpers/seed.js';
import { Client, adminClient, startServer, userClient, type TestServer } from '../helpers/server.js';
import { apiClient, assignedRisks, createAndDeactivate, createToken, decide, exportQueue } from './calls.js';

let server: TestServer;
let admin: Client;
let reviewer: Awaited<ReturnType<typeof userClient>>;
let reviewerToken: string;
let rowIds: bigint[];

const lines = (csv: string) =>
  csv
    .replace(/^\uFEFF/, '')
    .trimEnd()
    .split('\r\n');

beforeAll(async () => {
  server = await startServer();
  admin = await adminClient(server);
  rowIds = await seedRows(server.app.deps.prisma, [
    { userId: 'U1', userName: 'Alice Jones', accessRiskId: 'R01', system: 'SAP ERP', roleProfile: 'Z_AP' },
    { userId: 'U1', userName: 'Alice Jones', accessRiskId: 'R02', system: 'SAP ERP', roleProfile: 'Z_GL', riskLevel: 'low' },
    { userId: 'U2', userName: 'Bob Smith', accessRiskId: 'R03', system: 'Workday', roleProfile: 'HR' },
  ]);
  reviewer = await userClient(server, admin, 'reviewer');
  for (const value of ['U1', 'U2']) {
    expect((await admin.post('/api/assignment-criteria', { reviewerId: reviewer.user.id, criteriaType: 'user_id', criteriaValue: value })).status).toBe(201);
  }
  expect((await admin.post('/api/review-periods', { name: 'Q4 review' })).status).toBe(201);
  await admin.put('/api/tokens/settings', { usersMayCreateTokens: true });
  reviewerToken = (await createToken(apiClient(server.url, { cookie: reviewer.client.cookieHeader }), 'nightly export')).secret;
}, 120_000);
afterAll(async () => server?.close());

describe('a tool with an API token', () => {
  it('makes the API tests’ calls through the client generated from /api/openapi.json', async () => {
    const tool = apiClient(server.url, { token: reviewerToken });
    expect(await assignedRisks(tool, { system: 'SAP ERP', limit: 10 })).toMatchObject({ total: 2, ids: ['R01', 'R02'], level: 'high' });
    const session = apiClient(server.url, { cookie: reviewer.client.cookieHeader });
    expect(await decide(session, Number(rowIds[0]))).toEqual({ saved: 1, totalDecisions: 1 });
    expect(await assignedRisks(tool, { limit: 10 })).toMatchObject({ total: 3, pendingReview: 2 });
    const adminApi = apiClient(server.url, { cookie: admin.cookieHeader });
    expect(await createAndDeactivate(adminApi, 'typed.client@example.com')).toMatchObject({ isActive: false });
  });

  it('streams Export Results with the web’s filters, announcing its rows; riskExport gives the address for the same filter', async () => {
    const tool = apiClient(server.url, { token: reviewerToken });
    const sap = await exportQueue(tool, { system: 'SAP ERP', riskLevel: 'high' });
    const rows = lines(sap.csv);
    expect(rows).toHaveLength(2);
    expect(rows[1]).toContain('R01');
    expect(sap.totalRows).toBe(1);

    const graph = new Client(server.url);
    graph.bearer = reviewerToken;
    const r = await graph.gql('query ($filter: RiskFilterInput) { riskExport(kind: QUEUE, filter: $filter) { kind path url totalRows } }', {
      filter: { system: 'SAP ERP' },
    });
    expect(r.body.errors).toBeUndefined();
    const link = r.body.data.riskExport;
    expect(link).toMatchObject({ kind: 'QUEUE', path: '/api/risks/export?system=SAP+ERP', totalRows: 2 });
    expect(link.url).toBe(`${server.config.publicUrl}${link.path}`);
    const file = await graph.get(link.path);
    expect(file.status).toBe(200);
    expect(file.headers.get('x-total-rows')).toBe('2');
    expect(
      lines(file.body)
        .slice(1)
        .map((l) => l.includes('SAP ERP')),
    ).toEqual([true, true]);
    // The token's own decision rides along (Export Results: the caller's decisions).
    expect(lines(file.body)[1]).toContain('retain');
  });

  it('gives an administrator’s token the risk report and the evidence, with their row counts; a bad filter is a 400 before any byte', async () => {
    const created = await admin.post('/api/tokens', { name: 'auditor tool', scope: 'read' });
    expect(created.status).toBe(201);
    const tool = new Client(server.url);
    tool.bearer = created.body.token;
    const link = (await tool.gql('{ riskExport(kind: RISK_REPORT, filter: { userId: "U1" }) { path totalRows } }')).body.data.riskExport;
    expect(link).toEqual({ path: '/api/reports/risk-report?userId=U1', totalRows: 2 });
    const report = await tool.get(link.path);
    expect(report.headers.get('x-total-rows')).toBe('2');
    expect(lines(report.body)).toHaveLength(3);

    const period = (await tool.get('/api/review-periods/active')).body;
    const evidence = await tool.get(`/api/reports/evidence?periodId=${period.id}&format=csv`);
    expect(evidence.status).toBe(200);
    expect(evidence.headers.get('x-total-rows')).toBe('1');

    const tooLong = await tool.get(`/api/risks/export?system=${'x'.repeat(600)}`);
    expect(tooLong.status).toBe(400);
    const graphBad = await tool.gql(`{ riskExport(kind: QUEUE, filter: { system: "${'x'.repeat(600)}" }) { path } }`);
    expect(graphBad.body.errors?.[0]?.message).toMatch(/system is too long/);
  });
});
