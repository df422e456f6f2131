// The evidence's 'Assigned To' names the fallback reviewer on the rows that
// reached them as the fallback, saying why: '(fallback)' for a row no
// criterion gives to anyone, '(fallback: self-review)' for a row routed away
// from the reviewer whose own access it is; a row a criterion gives them is
// theirs without a mark. The risk report's 'Assigned To' reads the same rule.
// The deadline counts the fallback reviewer's undecided rows as pending.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, adminClient, startServer, userClient, type TestServer, type UserClient } from '../helpers/server.js';
import { seedRows } from '../helpers/seed.js';
import { parseCsv } from '../helpers/csv.js';
import { pendingWork } from '../../src/services/review/reminders.js';

let server: TestServer;
let admin: Client;
let a: UserClient;
let f: UserClient;
let periodId: string;
let assignedRow: number;
let orphan: number;
let own: number;
let fLabel: string;
let aLabel: string;

beforeAll(async () => {
  server = await startServer();
  admin = await adminClient(server);
  a = await userClient(server, admin);
  f = await userClient(server, admin);
  [assignedRow, orphan, own] = (
    await seedRows(server.app.deps.prisma, [
      { userId: 'U1', accessRiskId: 'R1' },
      // No criterion matches R9.
      { userId: 'U3', accessRiskId: 'R9' },
      // A's own access: R1 would give it to A.
      { userId: 'ASMITH', accessRiskId: 'R1' },
      // Another row no criterion matches, left undecided.
      { userId: 'U5', accessRiskId: 'R8' },
    ])
  ).map(Number) as [number, number, number];
  expect((await admin.post('/api/assignment-criteria', { reviewerId: a.user.id, criteriaType: 'risk_id', criteriaValue: 'R1' })).status).toBe(201);
  expect((await admin.put(`/api/users/${a.user.id}`, { accessUserIds: ['asmith'] })).status).toBe(200);
  expect((await admin.put('/api/review-settings', { fallbackReviewerIds: [f.user.id] })).status).toBe(200);
  periodId = (await admin.post('/api/review-periods', { name: 'Fallback evidence' })).body.id;
  const users = (await admin.get('/api/users')).body as { id: string; firstName: string; lastName: string; email: string }[];
  const label = (id: string) => {
    const u = users.find((x) => x.id === id)!;
    return `${u.firstName} ${u.lastName} <${u.email}>`;
  };
  [fLabel, aLabel] = [label(f.user.id), label(a.user.id)];
  expect((await a.client.post('/api/reviews/decision', { riskDefinitionId: assignedRow, decision: 'retain' })).status).toBe(200);
  for (const id of [orphan, own]) expect((await f.client.post('/api/reviews/decision', { riskDefinitionId: id, decision: 'remove' })).status).toBe(200);
});
afterAll(async () => server?.close());

/** The Decisions part of the evidence CSV as records. */
async function evidenceDecisions(): Promise<Record<string, string>[]> {
  const res = await fetch(`${server.url}/api/reports/evidence?periodId=${periodId}&format=csv`, { headers: { cookie: admin.cookieHeader } });
  expect(res.status).toBe(200);
  const text = (await res.text()).replace(/^\uFEFF/, '');
  const part = text.split(/\r\n\r\n/).find((p) => p.startsWith('Decisions'))!;
  return parseCsv(part.slice(part.indexOf('\r\n') + 2));
}

describe('the deadline counts the fallback reviewer', () => {
  it("whose rows without their decision are pending, as every reviewer's are (reminders and the escalation read it)", async () => {
    const work = await pendingWork(server.app.deps.prisma, periodId);
    expect(work.map((w) => [w.reviewer.id, w.pending])).toEqual(expect.arrayContaining([[f.user.id, 1]]));
  });
});

describe("the evidence's 'Assigned To' for rows that reached the fallback reviewer", () => {
  const assignedTo = (records: Record<string, string>[]) => Object.fromEntries(records.map((r) => [r['User ID'], r['Assigned To']]));

  it('names the fallback reviewer and why, while the period is open and in what its close freezes', async () => {
    const expected = { U1: aLabel, U3: `${fLabel} (fallback)`, ASMITH: `${fLabel} (fallback: self-review)` };
    expect(assignedTo(await evidenceDecisions())).toEqual(expected);
    expect((await admin.put(`/api/review-periods/${periodId}/close`)).status).toBe(200);
    expect(assignedTo(await evidenceDecisions())).toEqual(expected);
  });
});
