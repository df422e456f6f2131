// Figures and names a user reads on the dashboard and in the exported files:
// 'Pending Reviews' has one definition, on its card and in the trend chart;
// a person is named by one rule on screen and in every file.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, adminClient, startServer, type TestServer } from '../helpers/server.js';
import { parseCsv } from '../helpers/csv.js';
import { loadExport } from '../helpers/upload.js';

let server: TestServer;
let admin: Client;
let solo: { client: Client; user: { id: string } };

const CSV =
  'User ID,User Name,Access Risk ID,Risk Description,Risk Level,Rule ID,System,Role/Profile\r\n' +
  'E1,Erin Ebb,ER1,Pay vendors,High,0301,SAP ERP,Z_AP_CLERK\r\n' +
  'E1,Erin Ebb,ER2,Post journals,Medium,0102,SAP ERP,Z_GL\r\n' +
  'E2,Eli Eck,ER3,Payroll,Low,0101,SAP ERP,HR_ADMIN\r\n';

beforeAll(async () => {
  server = await startServer();
  admin = await adminClient(server);
  // A reviewer without a last name (SPEC §5: it is optional), as the first administrator has none.
  const created = await admin.post('/api/users', { email: 'solo@example.com', firstName: 'Solo', lastName: '', role: 'reviewer', password: 'Start#123' });
  expect(created.status).toBe(201);
  const client = new Client(server.url);
  expect((await client.login('solo@example.com', 'Start#123')).status).toBe(200);
  expect((await client.put('/api/internal/change-password', { currentPassword: 'Start#123', newPassword: 'Changed#456' })).status).toBe(200);
  solo = { client, user: created.body.user };
  await loadExport(server, admin, CSV);
  expect((await admin.post('/api/assignment-criteria', { reviewerId: solo.user.id, criteriaType: 'system', criteriaValue: 'SAP ERP' })).status).toBe(201);
});
afterAll(async () => server?.close());

const todayPending = async (c: Client) => {
  const trend = await c.get('/api/dashboard/trend?range=30d');
  expect(trend.status).toBe(200);
  return trend.body.points.at(-1).pending as number;
};

describe("the dashboard's 'Pending Reviews'", () => {
  it('is what the trend chart calls pending, with or without an active period', async () => {
    // No period yet: nothing is decided, every row is pending in both places.
    expect((await admin.get('/api/dashboard/stats')).body.pendingReviews).toBe(3);
    expect(await todayPending(admin)).toBe(3);

    const period = (await admin.post('/api/review-periods', { name: 'Pending figures' })).body;
    const rows = (await solo.client.get('/api/assigned-risks')).body.risks as { id: number; accessRiskId: string }[];
    const remove = rows.find((r) => r.accessRiskId === 'ER1')!.id;
    expect((await solo.client.post('/api/reviews/decision', { riskDefinitionId: remove, decision: 'remove' })).status).toBeLessThan(300);
    for (const c of [admin, solo.client]) {
      expect((await c.get('/api/dashboard/stats')).body.pendingReviews).toBe(2);
      expect(await todayPending(c)).toBe(2);
    }

    // Closed: the card still says what the chart says (the decisions of the period closed last).
    expect((await admin.put(`/api/review-periods/${period.id}/close`)).status).toBe(200);
    for (const c of [admin, solo.client]) {
      const stats = (await c.get('/api/dashboard/stats')).body;
      expect(stats.pendingReviews).toBe(await todayPending(c));
      expect(stats.pendingReviews).toBe(2);
      const g = await c.gql('{ dashboardStats { pendingReviews } }');
      expect(g.body.data.dashboardStats.pendingReviews).toBe(2);
    }
    expect((await admin.put(`/api/review-periods/${period.id}/open`)).status).toBe(200);
  });
});

describe('names in the exported files', () => {
  it('a user without a last name is written with one space before the e-mail, as the screen shows them', async () => {
    // The reviewer removes a row and submits; the first administrator ('Administrator', no last name) approves.
    expect((await solo.client.post('/api/reviews/submit')).status).toBeLessThan(300);
    const submissions = (await admin.get('/api/submissions?status=submitted')).body as { id: string; reviewer: { id: string } }[];
    const mine = submissions.find((s) => s.reviewer.id === solo.user.id)!;
    expect((await admin.put(`/api/submissions/${mine.id}/approve`)).status).toBe(200);

    const report = parseCsv(await (await fetch(server.url + '/api/reports/risk-report', { headers: { cookie: admin.cookieHeader } })).text());
    const decided = report.find((r) => r['Access Risk ID'] === 'ER1')!;
    expect(decided['Reviewed By']).toBe('Solo <solo@example.com>');
    expect(decided['Approved By']).toBe('Administrator <admin@example.com>');

    const items = (await admin.get('/api/remediation')).body.items as { id: string }[];
    expect(items.length).toBe(1);
    const set = await admin.put(`/api/remediation/${items[0]!.id}`, { status: 'done' });
    expect(set.body.statusSetBy).toBe('Administrator <admin@example.com>');
    const file = parseCsv(await (await fetch(server.url + '/api/remediation?format=csv', { headers: { cookie: admin.cookieHeader } })).text());
    const line = Object.values(file[0]!).join('|');
    expect(line).toContain('Solo <solo@example.com>');
    expect(line).toContain('Administrator <admin@example.com>');
    expect(line).not.toMatch(/ {2}</);
    // The screen's name (GraphQL) follows the same rule.
    const g = await admin.gql(`{ users(first: 50) { edges { node { email displayName } } } }`);
    const names = new Map((g.body.data.users.edges as { node: { email: string; displayName: string } }[]).map((e) => [e.node.email, e.node.displayName]));
    expect(names.get('solo@example.com')).toBe('Solo');
    expect(names.get('admin@example.com')).toBe('Administrator');
  });
});
