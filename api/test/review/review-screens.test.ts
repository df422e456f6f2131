// What the review screens get from the server, as a reviewer or an
// administrator meets it over the API: a period's dates, a closed period's
// decisions, search, the dashboard's trend, assignment counts, filter options.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, adminClient, startServer, userClient, type TestServer } from '../helpers/server.js';
import { seedRows } from '../helpers/seed.js';

let server: TestServer;
let admin: Client;
let reviewer: Awaited<ReturnType<typeof userClient>>;
let rows: bigint[];

beforeAll(async () => {
  server = await startServer();
  admin = await adminClient(server);
  reviewer = await userClient(server, admin);
  rows = await seedRows(server.app.deps.prisma, [
    // One risk id with two descriptions (as a file may carry them), and another risk.
    { userId: 'W1', userName: 'Wanda Webb', userGroup: 'WEBGRP', accessRiskId: 'WR1', riskDescription: 'Post journal entries and approve them' },
    { userId: 'W2', userName: 'Walt Whit', userGroup: 'WEBGRP', accessRiskId: 'WR1', riskDescription: 'Maintain vendor master data' },
    { userId: 'W3', userName: 'Wes Wong', userGroup: 'WEBGRP', accessRiskId: 'WR2', riskDescription: 'Create purchase orders' },
    { userId: 'W4', userName: 'Wyn West', userGroup: 'WEBGRP', accessRiskId: 'WR2', riskDescription: 'Create purchase orders' },
  ]);
  // W1 was loaded 60 days ago; W2..W4 today (every row of WEBGRP is high). Set before the assignment:
  // its change has the reviewer's dashboard figures worked out (jobs/dashboard-figures.ts), and
  // changing a load time in SQL bumps no data version (no real path changes it).
  await server.app.deps.prisma.$executeRaw`UPDATE risk_rows SET created_at = now() - interval '60 days' WHERE id = ${rows[0]}`;
  const a = await admin.post('/api/assignment-criteria', { reviewerId: reviewer.user.id, criteriaType: 'user_group', criteriaValue: 'WEBGRP' });
  expect(a.status).toBe(201);
});
afterAll(async () => server?.close());

const assigned = async (query = '') => (await reviewer.client.get(`/api/assigned-risks${query}`)).body;

describe('review periods', () => {
  it('closing a period ends it at the closing time; reopening makes it ongoing again', async () => {
    const p = (await admin.post('/api/review-periods', { name: 'Review screens: dates' })).body;
    expect(p.endDate).toBeNull();
    const before = Date.now();
    const closed = (await admin.put(`/api/review-periods/${p.id}/close`)).body;
    expect(closed.status).toBe('closed');
    expect(closed.endDate).not.toBeNull();
    expect(new Date(closed.endDate).getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(new Date(closed.endDate).getTime()).toBeLessThanOrEqual(Date.now() + 1000);
    const listed = (await admin.get('/api/review-periods')).body.find((x: any) => x.id === p.id);
    expect(listed.endDate).toBe(closed.endDate);

    const reopened = (await admin.put(`/api/review-periods/${p.id}/open`)).body;
    expect(reopened).toMatchObject({ status: 'active', endDate: null });
    await admin.put(`/api/review-periods/${p.id}/close`);
  });

  it('a period closed before its planned end date ends when it is closed', async () => {
    const planned = new Date(Date.now() + 60_000);
    const p = (await admin.post('/api/review-periods', { name: 'Review screens: planned', endDate: planned.toISOString() })).body;
    await new Promise((r) => setTimeout(r, 10));
    const closed = (await admin.put(`/api/review-periods/${p.id}/close`)).body;
    // Closed before its planned end: it ended when it was closed.
    expect(new Date(closed.endDate).getTime()).toBeLessThan(planned.getTime());
  });
});

describe('a reviewer while the period is closed', () => {
  it('still sees their decisions and counts, read-only', async () => {
    const p = (await admin.post('/api/review-periods', { name: 'Review screens: closed decisions' })).body;
    const d = await reviewer.client.post('/api/reviews/decision', { riskDefinitionId: Number(rows[0]), decision: 'remove' });
    expect(d.status).toBeLessThan(300);
    expect((await assigned()).reviewed).toBe(1);
    await admin.put(`/api/review-periods/${p.id}/close`);

    const after = await assigned();
    expect(after.reviewed).toBe(1);
    expect(after.pendingReview).toBe(3);
    const byId = new Map(after.risks.map((r: any) => [String(r.id), r.decision]));
    expect(byId.get(String(rows[0]))).toBe('remove');
    expect(byId.get(String(rows[1]))).toBe('');
    // Pending filter: the decided row is not pending.
    const gql = await reviewer.client.gql(`{ assignedRisks(filter: { decision: PENDING }) { totalCount edges { node { myDecision } } } }`);
    expect(gql.body.data.assignedRisks.totalCount).toBe(3);
    // Read-only: no change while closed.
    const refused = await reviewer.client.post('/api/reviews/decision', { riskDefinitionId: Number(rows[0]), decision: 'retain' });
    expect(refused.status).toBe(409);
  });
});

describe("a reviewer's search", () => {
  it('for words of a risk description finds the rows with that description, not every row of the risk id', async () => {
    const r = await assigned('?search=journal');
    expect(r.risks.map((x: any) => x.userId)).toEqual(['W1']);
    expect(r.total).toBe(1);
    const v = await assigned('?search=vendor%20master');
    expect(v.risks.map((x: any) => x.userId)).toEqual(['W2']);
    // The risk id itself still finds every row of it; a shared description every row that has it.
    expect((await assigned('?search=WR1')).risks.map((x: any) => x.userId).sort()).toEqual(['W1', 'W2']);
    expect((await assigned('?search=purchase')).risks.map((x: any) => x.userId).sort()).toEqual(['W3', 'W4']);
    // A user's name finds that user's rows.
    expect((await assigned('?search=Walt')).risks.map((x: any) => x.userId)).toEqual(['W2']);
    // The administrators' queue searches the same way.
    expect((await admin.get('/api/risks?search=journal')).body.risks.map((x: any) => x.userId)).toEqual(['W1']);
  });
});

describe("the dashboard's 'High Risk Users' card", () => {
  it('carries a trend: how many of those users had their first high-risk row loaded in the last 30 days', async () => {
    // W1 was loaded 60 days ago; W2..W4 today (beforeAll).
    const g = await reviewer.client.gql('{ dashboardStats { highRiskUsers newHighRiskUsers } }');
    expect(g.body.data.dashboardStats).toEqual({ highRiskUsers: 4, newHighRiskUsers: 3 });
  });
});

describe('assignments', () => {
  it('show how many loaded rows each criterion matches', async () => {
    const c = await admin.post('/api/assignment-criteria', { reviewerId: reviewer.user.id, criteriaType: 'risk_id', criteriaValue: 'WR1' });
    expect(c.status).toBe(201);
    const g = await admin.gql('{ assignmentCriteria(first: 100) { edges { node { criteriaType criteriaValue matchingRows } } } }');
    const nodes = g.body.data.assignmentCriteria.edges.map((e: any) => e.node);
    expect(nodes).toContainEqual({ criteriaType: 'USER_GROUP', criteriaValue: 'WEBGRP', matchingRows: 4 });
    expect(nodes).toContainEqual({ criteriaType: 'RISK_ID', criteriaValue: 'WR1', matchingRows: 2 });
  });
});

describe('filter options', () => {
  it('are searched on the server: only the values (or labels) containing the text, at most the limit', async () => {
    const g = await admin.gql(
      '{ byLabel: assignmentValues(criteriaType: USER_ID, search: "wanda", limit: 5) { value label } capped: assignmentValues(criteriaType: USER_ID, search: "w", limit: 2) { value } }',
    );
    expect(g.body.data.byLabel).toEqual([{ value: 'W1', label: 'W1 — Wanda Webb' }]);
    expect(g.body.data.capped).toHaveLength(2);
  });
});
