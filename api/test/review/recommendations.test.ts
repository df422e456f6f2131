// Help deciding over REST and GraphQL: beside each row,
// usage from the export, last period's decision on the same user and role,
// the high-risk rule and the other reviewers sharing the row; a
// recommendation with its reason in words derived from those facts; the
// lists filtered and sorted by it, and a decision by filter narrowed by it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, adminClient, startServer, userClient, type TestServer } from '../helpers/server.js';
import { seedRows } from '../helpers/seed.js';
import { parseCsv } from '../helpers/csv.js';

let server: TestServer;
let admin: Client;
let a: Awaited<ReturnType<typeof userClient>>;
let b: Awaited<ReturnType<typeof userClient>>;
let rows: bigint[];
const recent = new Date(Date.now() - 10 * 86_400_000);
const day = (d: Date) => d.toISOString().slice(0, 10);

type Row = {
  id: number;
  userId: string;
  recommendation: { value: string; reason: string };
  lastPeriodDecision: string | null;
  sharedWith: { reviewers: number; removed: number; retained: number };
};

beforeAll(async () => {
  server = await startServer();
  admin = await adminClient(server);
  a = await userClient(server, admin);
  b = await userClient(server, admin);
  const prisma = server.app.deps.prisma;
  rows = await seedRows(prisma, [
    { userId: 'U1', accessRiskId: 'R1', roleProfile: 'Z_AP', ruleId: '0101' }, // unused: 0 executions
    { userId: 'U2', accessRiskId: 'R2', roleProfile: 'Z_GL', ruleId: '0301' }, // used, high-risk, retained last period
    { userId: 'U3', accessRiskId: 'R3', roleProfile: 'Z_HR', ruleId: '0201' }, // high-risk, no usage
    { userId: 'U4', accessRiskId: 'R4', roleProfile: 'Z_FI', ruleId: '0101' }, // removed last period
    { userId: 'U5', accessRiskId: 'R5', roleProfile: 'Z_MM', ruleId: '0101' }, // shared with B, who removes it
    { userId: 'U6', accessRiskId: 'R6', roleProfile: 'Z_SD', ruleId: '0101' }, // retained last period, no usage
    { userId: 'U7', accessRiskId: 'R7', roleProfile: 'Z_PP', ruleId: '0101' }, // last executed long ago
  ]);
  await prisma.riskRow.update({ where: { id: rows[0]! }, data: { executionCount: 0 } });
  await prisma.riskRow.update({ where: { id: rows[1]! }, data: { executionCount: 12, lastExecutedOn: recent } });
  await prisma.riskRow.update({ where: { id: rows[6]! }, data: { executionCount: 3, lastExecutedOn: new Date('2020-01-15') } });
  expect((await admin.post('/api/assignment-criteria', { reviewerId: a.user.id, criteriaType: 'system', criteriaValue: 'SAP ERP' })).status).toBe(201);
  expect((await admin.post('/api/assignment-criteria', { reviewerId: b.user.id, criteriaType: 'user_id', criteriaValue: 'U5' })).status).toBe(201);
  // Last period: A retained U2/Z_GL and U6/Z_SD and removed U4/Z_FI.
  const p1 = (await admin.post('/api/review-periods', { name: 'Q1 review' })).body.id;
  const decided = await a.client.post('/api/reviews/decisions', {
    decisions: [
      { riskDefinitionId: Number(rows[1]), decision: 'retain' },
      { riskDefinitionId: Number(rows[3]), decision: 'remove' },
      { riskDefinitionId: Number(rows[5]), decision: 'retain' },
    ],
  });
  expect(decided.status).toBe(200);
  expect((await admin.put(`/api/review-periods/${p1}/close`)).status).toBe(200);
  expect((await admin.post('/api/review-periods', { name: 'Q2 review' })).status).toBe(201);
  expect((await b.client.post('/api/reviews/decision', { riskDefinitionId: Number(rows[4]), decision: 'remove' })).status).toBe(200);
});
afterAll(async () => server?.close());

const assigned = async (query = '') => {
  const r = await a.client.get(`/api/assigned-risks${query}`);
  expect(r.status).toBe(200);
  return r.body.risks as Row[];
};

describe('help deciding', () => {
  it("Export Results carries each row's recommendation as the list shows it, and the evidence file the one its reviewer was shown", async () => {
    const listed = new Map((await assigned()).map((r) => [r.userId, r.recommendation.value]));
    const res = await fetch(`${server.url}/api/risks/export`, { headers: { cookie: a.client.cookieHeader } });
    expect(res.status).toBe(200);
    const exported = parseCsv(await res.text());
    expect(exported).toHaveLength(listed.size);
    expect(new Map(exported.map((l) => [l['User ID'], l.Recommendation]))).toEqual(listed);
    expect(listed.get('U1')).toBe('remove');
    // Q1's evidence, frozen at its close: U2 was used (retain); U4 and U6 had no usage and no earlier decision (review).
    const periods = await admin.gql(`{ reviewPeriods(first: 5) { edges { node { id name } } } }`);
    const q1 = periods.body.data.reviewPeriods.edges.find((e: { node: { name: string } }) => e.node.name === 'Q1 review').node.id;
    const ev = await admin.gql(`query($id: ID!) { periodEvidence(periodId: $id) { decisions { userId recommendation } } }`, { id: q1 });
    expect(ev.body.errors).toBeUndefined();
    expect(ev.body.data.periodEvidence.decisions).toEqual([
      { userId: 'U2', recommendation: 'RETAIN' },
      { userId: 'U4', recommendation: 'REVIEW' },
      { userId: 'U6', recommendation: 'REVIEW' },
    ]);
  });

  it('each assigned row carries the facts and a recommendation with its reason, from real usage, last period, rule and other reviewers', async () => {
    const byUser = new Map((await assigned()).map((r) => [r.userId, r]));
    expect(byUser.get('U1')!.recommendation).toEqual({ value: 'remove', reason: 'Not used: the export shows 0 executions' });
    expect(byUser.get('U2')!.recommendation).toEqual({
      value: 'retain',
      reason: `Used: 12 executions, last on ${day(recent)}; high-risk rule; retained in the last period (Q1 review)`,
    });
    expect(byUser.get('U2')!.lastPeriodDecision).toBe('retain');
    expect(byUser.get('U3')!.recommendation).toEqual({ value: 'review', reason: 'High-risk rule with no usage in the export' });
    expect(byUser.get('U4')!.recommendation).toEqual({ value: 'review', reason: 'Removed in the last period (Q1 review), yet still granted' });
    expect(byUser.get('U4')!.lastPeriodDecision).toBe('remove');
    expect(byUser.get('U5')!.recommendation).toEqual({ value: 'review', reason: '1 other reviewer shares it and 1 decided remove: agree before deciding' });
    expect(byUser.get('U5')!.sharedWith).toEqual({ reviewers: 1, removed: 1, retained: 0 });
    expect(byUser.get('U6')!.recommendation).toEqual({ value: 'retain', reason: 'Retained in the last period (Q1 review); no usage in the export' });
    expect(byUser.get('U7')!.recommendation).toEqual({ value: 'remove', reason: 'Not used since 2020-01-15 (over 180 days)' });
    expect(byUser.get('U1')!.sharedWith).toEqual({ reviewers: 0, removed: 0, retained: 0 });
    // Never applied on its own: every row is still pending.
    expect((await assigned()).every((r) => (r as unknown as { decision: string }).decision === '')).toBe(true);
  });

  it('filters and sorts by recommendation (remove, review, retain), and a bad value is a 400 naming it', async () => {
    expect((await assigned('?recommendation=remove')).map((r) => r.userId)).toEqual(['U1', 'U7']);
    expect((await assigned('?sort=recommendation')).map((r) => r.userId)).toEqual(['U1', 'U7', 'U3', 'U4', 'U5', 'U2', 'U6']);
    const page2 = await a.client.get('/api/assigned-risks?sort=recommendation&limit=3&page=2');
    expect(page2.body.risks.map((r: Row) => r.userId)).toEqual(['U4', 'U5', 'U2']);
    expect(page2.body.total).toBe(7);
    const bad = await a.client.get('/api/assigned-risks?recommendation=maybe');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('recommendation');
    // The administrators' queue carries the same fields.
    const queue = await admin.get('/api/risks?recommendation=retain');
    expect(queue.status).toBe(200);
    expect(queue.body.risks.map((r: Row) => [r.userId, r.recommendation.value])).toEqual([
      ['U2', 'retain'],
      ['U6', 'retain'],
    ]);
    // The REST shape, on both lists: recommendation { value, reason } and lastPeriodDecision.
    const u2 = (risks: Row[]) => risks.find((r) => r.userId === 'U2')!;
    for (const row of [u2(queue.body.risks), u2(await assigned())]) {
      expect(Object.keys(row.recommendation).sort()).toEqual(['reason', 'value']);
      expect(row).toMatchObject({ recommendation: { value: 'retain', reason: expect.stringMatching(/^Used: 12 executions/) }, lastPeriodDecision: 'retain' });
    }
  });

  it('GraphQL gives the same fields, on the lists and on rows read by id, with the filter and sort', async () => {
    const r = await a.client.gql(`{ assignedRisks(filter: { recommendation: REVIEW }, orderBy: RECOMMENDATION) {
      totalCount edges { node { id userId isHighRiskRule executionCount lastPeriodDecision sharedReviewers sharedRemoved sharedRetained recommendation { value reason } } } } }`);
    expect(r.body.errors).toBeUndefined();
    const list = r.body.data.assignedRisks.edges.map((e: { node: unknown }) => e.node);
    expect(list.map((x: { userId: string }) => x.userId)).toEqual(['U3', 'U4', 'U5']);
    expect(list[1]).toMatchObject({ lastPeriodDecision: 'REMOVE', recommendation: { value: 'REVIEW' } });
    expect(list[2]).toMatchObject({ sharedReviewers: 1, sharedRemoved: 1, sharedRetained: 0 });
    // orderBy is the argument's name, as on every connection; the older `sort` still answers the same; both disagreeing is refused.
    const all = `edges { node { userId } }`;
    const byOrder = await a.client.gql(`{ assignedRisks(orderBy: RECOMMENDATION) { ${all} } }`);
    expect(byOrder.body.data.assignedRisks.edges.map((e: { node: { userId: string } }) => e.node.userId)).toEqual(['U1', 'U7', 'U3', 'U4', 'U5', 'U2', 'U6']);
    const bySort = await a.client.gql(`{ assignedRisks(sort: RECOMMENDATION) { ${all} } }`);
    expect(bySort.body.data).toEqual(byOrder.body.data);
    const byRow = await a.client.gql(`{ assignedRisks(orderBy: ROW) { ${all} } }`);
    expect(byRow.body.data.assignedRisks.edges.map((e: { node: { userId: string } }) => e.node.userId)).not.toEqual(['U1', 'U7', 'U3', 'U4', 'U5', 'U2', 'U6']);
    const both = await a.client.gql(`{ assignedRisks(orderBy: ROW, sort: RECOMMENDATION) { ${all} } }`);
    expect(both.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    const node = await a.client.gql(`query($id: ID!) { node(id: $id) { ... on RiskRow { lastPeriodDecision recommendation { value reason } } } }`, {
      id: list[1].id,
    });
    expect(node.body.data.node).toEqual({
      lastPeriodDecision: 'REMOVE',
      recommendation: { value: 'REVIEW', reason: 'Removed in the last period (Q1 review), yet still granted' },
    });
  });

  it('a decision by filter narrowed by recommendation decides only those rows', async () => {
    const r = await a.client.post('/api/reviews/decisions/by-filter', { filter: { recommendation: 'remove' }, decision: 'remove', comments: 'Unused access' });
    expect(r.status).toBe(200);
    expect(r.body.count).toBe(2);
    const decided = (await assigned('?decision=remove')).map((x) => x.userId);
    expect(decided).toEqual(['U1', 'U7']);
  });
});
