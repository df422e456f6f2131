// Items moved one by one (item_holds) everywhere the
// reviewers of an item are worked out, by the one visibility rule: 'shared
// with' beside an assigned row (help deciding) and in All Reviews, 'Assigned
// To' in the risk report and the evidence file. A decision already made stays
// with its author ('Reviewed By', 'Decided By').
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, adminClient, startServer, userClients, type TestServer, type UserClient } from '../helpers/server.js';
import { parseCsv } from '../helpers/csv.js';
import { seedRows } from '../helpers/seed.js';

let server: TestServer;
let admin: Client;
type U = UserClient;
let a: U;
let b: U;
let c: U;
let rows: bigint[];
let periodId: string;
const nameOf = (u: U) => `${u.user.firstName} ${u.user.lastName}`;

beforeAll(async () => {
  server = await startServer();
  admin = await adminClient(server);
  [a, b, c] = (await userClients(server, admin, 3)) as [UserClient, UserClient, UserClient];
  rows = await seedRows(server.app.deps.prisma, [
    { userId: 'U1', accessRiskId: 'R1', system: 'SAP ERP', roleProfile: 'Z_AP' },
    { userId: 'U2', accessRiskId: 'R2', system: 'SAP ERP', roleProfile: 'Z_GL' },
  ]);
  // A holds both rows by a criterion; B shares U1's.
  expect((await admin.post('/api/assignment-criteria', { reviewerId: a.user.id, criteriaType: 'system', criteriaValue: 'SAP ERP' })).status).toBe(201);
  expect((await admin.post('/api/assignment-criteria', { reviewerId: b.user.id, criteriaType: 'user_id', criteriaValue: 'U1' })).status).toBe(201);
  periodId = (await admin.post('/api/review-periods', { name: 'Moves period' })).body.id;
  // B removes U1's row; then A hands both rows, one by one, to C (A keeps the criterion).
  expect((await b.client.post('/api/reviews/decision', { riskDefinitionId: Number(rows[0]), decision: 'remove' })).status).toBe(200);
  expect((await a.client.post('/api/reassignments', { riskDefinitionIds: rows.map(Number), toReviewerId: c.user.id, note: 'Yours' })).status).toBe(201);
});
afterAll(async () => server?.close());

describe('items moved one by one', () => {
  it("'shared with' beside an assigned row counts the holders by the visibility rule, not the criteria alone (REST and GraphQL)", async () => {
    const list = (await c.client.get('/api/assigned-risks?limit=100')).body.risks as { id: number; sharedWith: unknown }[];
    expect(list.map((r) => r.id).sort()).toEqual(rows.map(Number).sort());
    // U1: B shares it (criterion) and removed it; A gave it away, so A is not a reviewer of it any more.
    expect(list.find((r) => r.id === Number(rows[0]))!.sharedWith).toEqual({ reviewers: 1, removed: 1, retained: 0 });
    expect(list.find((r) => r.id === Number(rows[1]))!.sharedWith).toEqual({ reviewers: 0, removed: 0, retained: 0 });
    // B sees C (who holds it by the move) beside U1, not A.
    const g = await b.client.gql(`{ assignedRisks(first: 10) { edges { node { userId sharedReviewers } } } }`);
    expect(g.body.errors).toBeUndefined();
    expect(g.body.data.assignedRisks.edges.map((e: any) => e.node)).toEqual([{ userId: 'U1', sharedReviewers: 1 }]);
    // A holds nothing now.
    expect((await a.client.get('/api/assigned-risks')).body.total).toBe(0);
  });

  it("All Reviews' 'Shared With' names the reviewer an item was moved to", async () => {
    const r = await admin.get('/api/reviews/all');
    expect(r.body.reviews).toHaveLength(1);
    expect(r.body.reviews[0]).toMatchObject({ reviewerName: nameOf(b), isSharedRole: true, sharedWith: [{ reviewerName: nameOf(c), decision: '' }] });
  });

  it("the risk report shows who holds each item ('Assigned To', a reviewer only themselves); the decision stays with its author", async () => {
    const res = await fetch(`${server.url}/api/reports/risk-report`, { headers: { cookie: admin.cookieHeader } });
    const lines = parseCsv(await res.text());
    const u1 = lines.find((l) => l['User ID'] === 'U1')!;
    expect(u1['Reviewed By']).toContain(b.email);
    expect(u1['Assigned To']).toContain(b.email);
    expect(u1['Assigned To']).toContain(c.email);
    expect(u1['Assigned To']).not.toContain(a.email);
    const u2 = lines.find((l) => l['User ID'] === 'U2')!;
    expect(u2).toMatchObject({ Decision: 'pending', 'Reviewed By': '' });
    expect(u2['Assigned To']).toBe(`${nameOf(c)} <${c.email}>`);
    // A reviewer's report names no other reviewer: C's lines say C alone.
    const theirs = parseCsv(await (await fetch(`${server.url}/api/reports/risk-report`, { headers: { cookie: c.client.cookieHeader } })).text());
    expect(theirs.map((l) => [l['User ID'], l.Decision, l['Assigned To']])).toEqual([
      ['U1', 'pending', `${nameOf(c)} <${c.email}>`],
      ['U2', 'pending', `${nameOf(c)} <${c.email}>`],
    ]);
  });

  it("the evidence file carries 'Assigned To' beside 'Decided By', frozen at the close", async () => {
    expect((await admin.put(`/api/review-periods/${periodId}/close`)).status).toBe(200);
    // A move after the close changes nothing in the frozen evidence.
    expect((await admin.post('/api/reassignments', { riskDefinitionIds: [Number(rows[0])], fromReviewerId: c.user.id, toReviewerId: a.user.id })).status).toBe(
      201,
    );
    const res = await fetch(`${server.url}/api/reports/evidence?periodId=${periodId}&format=csv`, { headers: { cookie: admin.cookieHeader } });
    const csv = await res.text();
    const head = csv
      .split('\r\n')
      .find((l) => l.startsWith('User ID,'))!
      .split(',');
    const line = csv.split('\r\n').find((l) => l.startsWith('U1,'))!;
    expect(head.slice(head.indexOf('Decided By'), head.indexOf('Decided By') + 3)).toEqual(['Decided By', 'Decided At', 'Assigned To']);
    expect(line).toContain(`${nameOf(b)} <${b.email}>`);
    expect(line).toMatch(new RegExp(`<${c.email.replace('.', '\\.')}>`));
    expect(line).not.toContain(a.email);
  });
});
