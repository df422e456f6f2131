// Coverage and independence: a row no assignment criterion gives to anyone
// goes to the fallback reviewers; a reviewer never sees or decides a row of
// their own access (their access user ids), which goes to the fallback
// reviewers instead and is listed as 'self-review'; the rows nobody can
// review are counted on the dashboard ('Unassigned conflicts'), and a close
// with any of them needs a reason, which the audit and the evidence keep.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, adminClient, startServer, userClient, type TestServer, type UserClient } from '../helpers/server.js';
import { seedRows } from '../helpers/seed.js';

let server: TestServer;
let admin: Client;
let a: UserClient;
let b: UserClient;
let f: UserClient;
let gone: UserClient;
let periodId: string;
let own: number;
let orphan: number;
let u1: number;

/** A GraphQL refusal's message, whether thrown (errors) or typed (an Error result of the field). */
const refusal = (body: any, field: string): string | undefined => body.errors?.[0]?.message ?? body.data?.[field]?.message;
const stats = async (c: Client = admin) => (await c.get('/api/dashboard/stats')).body;
const queue = async (u: UserClient) => ((await u.client.get('/api/assigned-risks?limit=100')).body.risks as { userId: string }[]).map((r) => r.userId).sort();
const graphQueue = async (u: UserClient) => {
  const g = await u.client.gql('{ assignedRisks(first: 50) { edges { node { id userId } } } }');
  expect(g.body.errors).toBeUndefined();
  return (g.body.data.assignedRisks.edges as { node: { id: string; userId: string } }[]).map((e) => e.node);
};

beforeAll(async () => {
  server = await startServer();
  admin = await adminClient(server);
  a = await userClient(server, admin);
  b = await userClient(server, admin);
  f = await userClient(server, admin);
  gone = await userClient(server, admin);
  const ids = await seedRows(server.app.deps.prisma, [
    { userId: 'U1', accessRiskId: 'R1' },
    { userId: 'U2', accessRiskId: 'R2' },
    // No criterion matches R9.
    { userId: 'U3', accessRiskId: 'R9' },
    // A's own access, in the upper case of the source system: R1 would give it to A.
    { userId: 'ASMITH', accessRiskId: 'R1' },
  ]);
  [u1, , orphan, own] = ids.map(Number) as [number, number, number, number];
  expect((await admin.post('/api/assignment-criteria', { reviewerId: a.user.id, criteriaType: 'risk_id', criteriaValue: 'R1' })).status).toBe(201);
  expect((await admin.post('/api/assignment-criteria', { reviewerId: b.user.id, criteriaType: 'risk_id', criteriaValue: 'R2' })).status).toBe(201);
  const edited = await admin.put(`/api/users/${a.user.id}`, { accessUserIds: ['asmith'] });
  expect(edited.status, JSON.stringify(edited.body)).toBe(200);
  expect(edited.body.user.accessUserIds).toEqual(['asmith']);
  expect((await admin.put(`/api/users/${gone.user.id}/deactivate`)).status).toBe(200);
  periodId = (await admin.post('/api/review-periods', { name: 'Coverage period' })).body.id;
});
afterAll(async () => server?.close());

describe('independence', () => {
  it("a user's access user ids default to their e-mail's local part, and administrators edit them (REST and GraphQL)", async () => {
    const listed = (await admin.get('/api/users')).body as { id: string; accessUserIds: string[] }[];
    expect(listed.find((u) => u.id === b.user.id)!.accessUserIds).toEqual([b.email.split('@')[0]]);
    const g = await admin.gql(
      'mutation ($id: ID!) { updateUser(id: $id, input: { accessUserIds: ["bjones", "BJ01"] }) { __typename ... on MutationUpdateUserSuccess { data { accessUserIds } } } }',
      { id: Buffer.from(`User:${b.user.id}`).toString('base64') },
    );
    expect(g.body.errors, JSON.stringify(g.body)).toBeUndefined();
    expect(g.body.data.updateUser.data.accessUserIds).toEqual(['bjones', 'BJ01']);
  });

  it("a reviewer's own row never appears in their queue (REST and GraphQL)", async () => {
    expect(await queue(a)).toEqual(['U1']);
    expect((await graphQueue(a)).map((r) => r.userId)).toEqual(['U1']);
  });

  it("a decision on a reviewer's own row is refused with 403 'self-review': single, batch, by filter, REST and GraphQL", async () => {
    const single = await a.client.post('/api/reviews/decision', { riskDefinitionId: own, decision: 'retain' });
    expect(single.status).toBe(403);
    expect(single.body.message).toMatch(/self-review/);
    const batch = await a.client.post('/api/reviews/decisions', {
      decisions: [
        { riskDefinitionId: u1, decision: 'retain' },
        { riskDefinitionId: own, decision: 'retain' },
      ],
    });
    expect(batch.status).toBe(403);
    expect(batch.body.message).toMatch(/self-review/);
    const byRole = await a.client.post('/api/reviews/decisions', { decisions: [{ userId: 'ASMITH', compositeBusinessRole: '', decision: 'retain' }] });
    expect(byRole.status).toBe(403);
    const byFilter = await a.client.post('/api/reviews/decisions/by-filter', { filter: { userId: 'asmith' }, decision: 'retain' });
    expect(byFilter.status).toBe(403);
    expect(byFilter.body.message).toMatch(/self-review/);
    const rowGid = Buffer.from(`RiskRow:${own}`).toString('base64');
    const gql = await a.client.gql('mutation ($d: [DecisionInput!]!) { saveDecisions(decisions: $d) { __typename ... on Error { message } } }', {
      d: [{ riskRowId: rowGid, decision: 'RETAIN' }],
    });
    expect(refusal(gql.body, 'saveDecisions')).toMatch(/self-review/);
    const gqlFilter = await a.client.gql('mutation { decideByFilter(filter: { userId: "ASMITH" }, decision: RETAIN) { __typename ... on Error { message } } }');
    expect(refusal(gqlFilter.body, 'decideByFilter')).toMatch(/self-review/);
    // Nothing was written; a decision by filter over their own list leaves their own row out.
    expect(await server.app.deps.prisma.decision.count({ where: { riskRowId: BigInt(own) } })).toBe(0);
    expect((await a.client.post('/api/reviews/decisions/by-filter', { filter: { accessRiskId: 'R1' }, decision: 'retain' })).body).toMatchObject({ count: 1 });
  });
});

describe('coverage', () => {
  it('without a fallback reviewer, the rows nobody can review are counted, self-review rows included', async () => {
    expect(await stats()).toMatchObject({ unassignedConflicts: 2, inactiveFallbackReviewers: [] });
    // With or without an active period; a reviewer's dashboard says it too, and GraphQL.
    expect((await stats(a.client)).unassignedConflicts).toBe(2);
    const g = await admin.gql('{ dashboardStats { unassignedConflicts } }');
    expect(g.body.data.dashboardStats.unassignedConflicts).toBe(2);
  });

  it('refuses a fallback reviewer who is not an active reviewer, naming them', async () => {
    const unknown = await admin.put('/api/review-settings', { fallbackReviewerIds: ['00000000-0000-4000-8000-000000000000'] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toMatch(/Fallback reviewer '00000000-0000-4000-8000-000000000000' is not a user/);
    const deactivated = await admin.put('/api/review-settings', { fallbackReviewerIds: [gone.user.id] });
    expect(deactivated.status).toBe(400);
    expect(deactivated.body.message).toContain(gone.email);
    expect(deactivated.body.message).toMatch(/is deactivated/);
    const adminId = (await admin.get('/api/users?role=admin')).body[0].id;
    const notReviewer = await admin.put('/api/review-settings', { fallbackReviewerIds: [adminId] });
    expect(notReviewer.status).toBe(400);
    expect(notReviewer.body.message).toMatch(/is not a reviewer/);
    expect((await admin.get('/api/review-settings')).body).toEqual({ fallbackReviewerIds: [], processOwners: {} });
    // Reviewers may not read or change them.
    expect((await a.client.get('/api/review-settings')).status).toBe(403);
  });

  it('a row matching no criterion, and a row routed away as self-review, reach the fallback reviewer', async () => {
    const put = await admin.put('/api/review-settings', { fallbackReviewerIds: [f.user.id], processOwners: { Finance: [b.user.id] } });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect((await admin.get('/api/review-settings')).body).toEqual({ fallbackReviewerIds: [f.user.id], processOwners: { Finance: [b.user.id] } });
    const audit = await server.app.deps.prisma.auditEvent.findFirst({ where: { action: 'review_settings.updated' }, orderBy: { id: 'desc' } });
    expect(audit?.after).toMatchObject({ fallbackReviewerIds: [f.user.id] });
    expect(await queue(f)).toEqual(['ASMITH', 'U3']);
    expect((await graphQueue(f)).map((r) => r.userId).sort()).toEqual(['ASMITH', 'U3']);
    // The others' queues are as before.
    expect(await queue(a)).toEqual(['U1']);
    expect(await queue(b)).toEqual(['U2']);
    expect((await stats()).unassignedConflicts).toBe(0);
    const list = (await admin.get('/api/unassigned-conflicts')).body;
    expect(list).toMatchObject({ total: 2, nobody: 0 });
    expect(list.rows.map((r: { userId: string; reason: string; route: string }) => [r.userId, r.reason, r.route])).toEqual([
      ['U3', 'unassigned', 'fallback'],
      ['ASMITH', 'self-review', 'fallback'],
    ]);
    // The fallback reviewer decides them.
    expect((await f.client.post('/api/reviews/decision', { riskDefinitionId: own, decision: 'remove' })).status).toBe(200);
    const g = await admin.gql('{ reviewSettings { fallbackReviewerIds fallbackReviewers { email } processOwners { businessProcess ownerIds } } }');
    expect(g.body.data.reviewSettings).toEqual({
      fallbackReviewerIds: [f.user.id],
      fallbackReviewers: [{ email: f.email }],
      processOwners: [{ businessProcess: 'Finance', ownerIds: [b.user.id] }],
    });
  });

  it("a row of the fallback reviewer's own access is one nobody can review", async () => {
    expect((await admin.put(`/api/users/${f.user.id}`, { accessUserIds: ['u3'] })).status).toBe(200);
    expect(await queue(f)).toEqual(['ASMITH']);
    expect((await stats()).unassignedConflicts).toBe(1);
    const list = (await admin.get('/api/unassigned-conflicts')).body;
    expect(list.rows.find((r: { id: number }) => r.id === orphan)).toMatchObject({ route: 'nobody' });
  });

  it('closing with rows nobody could see needs a reason, kept in the audit and the evidence', async () => {
    const refused = await admin.put(`/api/review-periods/${periodId}/close`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/^1 conflict could not be seen by any reviewer/);
    const g = await admin.gql('mutation ($id: ID!) { closeReviewPeriod(id: $id) { __typename ... on Error { message } } }', {
      id: Buffer.from(`ReviewPeriod:${periodId}`).toString('base64'),
    });
    expect(refusal(g.body, 'closeReviewPeriod')).toMatch(/1 conflict could not be seen/);
    const reason = 'U3 left the company; their access is removed outside the review';
    const closed = await admin.put(`/api/review-periods/${periodId}/close`, { reason });
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    const audit = await server.app.deps.prisma.auditEvent.findFirst({ where: { action: 'period.closed', periodId }, orderBy: { id: 'desc' } });
    expect(audit?.after).toMatchObject({ unassignedConflicts: 1, closeReason: reason });
    const res = await fetch(`${server.url}/api/reports/evidence?periodId=${periodId}&format=csv`, { headers: { cookie: admin.cookieHeader } });
    const csv = await res.text();
    expect(csv).toContain('Unassigned conflicts,1');
    expect(csv).toContain(reason);
    expect(csv).toMatch(new RegExp(`Routed: self-review of [^\\r\\n]*${a.email}[^\\r\\n]*1 row of user ASMITH went to the fallback reviewer`));
    // The fallback reviewer's decision on the row of a's own access: 'Assigned To' does not name a.
    const ownLine = csv.split(/\r?\n/).find((l) => l.includes('ASMITH') && l.includes(f.email));
    expect(ownLine).toBeDefined();
    expect(ownLine).not.toContain(a.email);
  });

  it('a deactivated fallback reviewer is reported on the dashboard, and their rows count as nobody’s', async () => {
    expect((await admin.put(`/api/users/${f.user.id}/deactivate`)).status).toBe(200);
    const s = await stats();
    expect(s.unassignedConflicts).toBe(2);
    expect(s.inactiveFallbackReviewers).toEqual([expect.stringContaining(f.email)]);
  });
});
