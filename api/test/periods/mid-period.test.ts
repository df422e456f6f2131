// Conflicts that appear or disappear while a review period runs: an upload
// (or an analysis run, which goes live as one) adding conflicts mid-period
// tells each reviewer of the new rows once, with how many, and the queue
// marks those rows 'new since' the upload; a 'replace' counts as new only the
// conflicts the replaced data did not have; a pending conflict the new data
// no longer has is resolved before decision: no longer pending, and listed in
// the evidence frozen at close. No period active: nobody is told.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, adminClient, startServer, userClients, type TestServer, type UserClient } from '../helpers/server.js';
import { startSmtp, type TestSmtp } from '../helpers/standins/smtp.js';
import { loadExport } from '../helpers/upload.js';
import { HEADERS, generateRows } from '../../../scripts/gen-data.js';
import type { EvidenceScope } from '../../src/services/reports/evidence.js';

let smtp: TestSmtp;
let server: TestServer;
let admin: Client;
let a: UserClient;
let b: UserClient;
let c: UserClient;

/** A row of the export: user, risk, system, role (the other columns generated). */
type Conflict = [userId: string, riskId: string, system: string, role: string];
const TEMPLATE = [...generateRows(1, 7)][0]!;
const col = (header: string) => HEADERS.indexOf(header);
function csv(conflicts: Conflict[]): string {
  const rows = conflicts.map(([userId, riskId, system, role]) => {
    const r = [...TEMPLATE];
    r[col('User ID')] = userId;
    r[col('User Name')] = `Name ${userId}`;
    r[col('Access Risk ID')] = riskId;
    r[col('System')] = system;
    r[col('Role/Profile')] = role;
    return r;
  });
  return [HEADERS, ...rows].map((r) => r.map((v) => (/[",\n\r]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v)).join(',')).join('\r\n') + '\r\n';
}

const BASE: Conflict[] = [
  ['U1', 'R01', 'SAP ERP', 'Z_AP'],
  ['U2', 'R02', 'SAP ERP', 'Z_GL'],
  ['U3', 'R03', 'Workday', 'HR_ADMIN'],
];
/** Appended before any period is active. */
const BEFORE: Conflict[] = [['U9', 'R09', 'SAP ERP', 'Z_PO']];
/** Appended during the period: three for A (SAP ERP), one for B (Workday), none for C (Oracle). */
const DURING: Conflict[] = [
  ['U4', 'R04', 'SAP ERP', 'Z_AP'],
  ['U5', 'R05', 'SAP ERP', 'Z_AR'],
  ['U6', 'R06', 'SAP ERP', 'Z_FI'],
  ['U7', 'R07', 'Workday', 'HR_PAY'],
];
/** New in the replacing data: one for A. */
const FRESH: Conflict = ['U8', 'R08', 'SAP ERP', 'Z_MM'];

beforeAll(async () => {
  smtp = await startSmtp();
  server = await startServer({ SMTP_URL: smtp.url, MAIL_FROM: 'GRC Platform <grc@example.com>' });
  admin = await adminClient(server);
  [a, b, c] = (await userClients(server, admin, 3)) as [UserClient, UserClient, UserClient];
  for (const [who, system] of [
    [a, 'SAP ERP'],
    [b, 'Workday'],
    [c, 'Oracle'],
  ] as const) {
    expect((await admin.post('/api/assignment-criteria', { reviewerId: who.user.id, criteriaType: 'system', criteriaValue: system })).status).toBe(201);
  }
  await loadExport(server, admin, csv(BASE), { mode: 'replace', name: 'base.csv' });
});
afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

const NEW = /new conflicts? to review$/;
const newNotices = async (cl: Client) => ((await cl.get('/api/notifications')).body.notifications as any[]).filter((n) => NEW.test(n.title));
const mailsTo = (email: string) => smtp.messages.filter((m) => m.to.includes(email) && NEW.test(m.subject));
const queue = async (cl: Client) => (await cl.get('/api/assigned-risks')).body;
const byUser = (rows: any[]) => Object.fromEntries(rows.map((r) => [r.userId, r]));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** The announcement of an upload's new conflicts is made after it went live: waits for its audit event. */
async function announced(uploadId: string) {
  for (const deadline = Date.now() + 20_000; ; await sleep(100)) {
    const e = await server.app.deps.prisma.auditEvent.findFirst({ where: { action: 'period.new_conflicts_notified', entityId: uploadId } });
    if (e) return e;
    if (Date.now() > deadline) throw new Error('the new conflicts were not announced');
  }
}

describe('conflicts that appear during a review period', () => {
  it('tells nobody of an upload while no period is active, and marks none of its rows new', async () => {
    const upload = await loadExport(server, admin, csv(BEFORE), { mode: 'append', name: 'before.csv' });
    await sleep(1000);
    for (const who of [a, b, c]) expect(await newNotices(who.client)).toEqual([]);
    expect(await server.app.deps.prisma.auditEvent.count({ where: { action: 'period.new_conflicts_notified', entityId: upload } })).toBe(0);
    expect((await queue(a.client)).risks.map((r: any) => r.newSince)).toEqual([null, null, null]);
  });

  it('tells each reviewer of an append once, with their count, and marks the new rows', async () => {
    expect((await admin.post('/api/review-periods', { name: 'Mid-period' })).status).toBe(201);
    const upload = await loadExport(server, admin, csv(DURING), { mode: 'append', name: 'during.csv' });
    const event = await announced(upload);
    const reached = (event.after as { reviewers: { reviewerId: string; newConflicts: number }[] }).reviewers;
    expect(reached.map((r) => [r.reviewerId, r.newConflicts]).sort()).toEqual(
      [
        [a.user.id, 3],
        [b.user.id, 1],
      ].sort(),
    );
    const [forA] = await newNotices(a.client);
    expect(await newNotices(a.client)).toHaveLength(1);
    expect(forA).toMatchObject({ title: '3 new conflicts to review', link: '/assigned-risks' });
    expect(await newNotices(b.client)).toMatchObject([{ title: '1 new conflict to review', link: '/assigned-risks' }]);
    expect(await newNotices(c.client)).toEqual([]);
    await sleep(1500);
    expect(mailsTo(a.email).map((m) => m.subject)).toEqual(['3 new conflicts to review']);
    expect(mailsTo(b.email).map((m) => m.subject)).toEqual(['1 new conflict to review']);
    expect(mailsTo(c.email)).toEqual([]);

    // The queue marks the rows that joined the period, and only those.
    const completedAt = (await server.app.deps.prisma.upload.findUniqueOrThrow({ where: { id: upload } })).completedAt!.toISOString();
    const mine = byUser((await queue(a.client)).risks);
    expect(Object.keys(mine).sort()).toEqual(['U1', 'U2', 'U4', 'U5', 'U6', 'U9']);
    for (const u of ['U4', 'U5', 'U6']) expect(mine[u].newSince).toBe(completedAt);
    for (const u of ['U1', 'U2', 'U9']) expect(mine[u].newSince).toBeNull();
    const all = byUser((await admin.get('/api/risks?limit=100')).body.risks);
    expect(all.U7.newSince).toBe(completedAt);
    expect(all.U3.newSince).toBeNull();

    // GraphQL marks them alike.
    const g = await a.client.gql(`{ assignedRisks(first: 50) { edges { node { userId newSince } } } }`);
    expect(g.body.errors).toBeUndefined();
    const nodes = Object.fromEntries((g.body.data.assignedRisks.edges as any[]).map((e) => [e.node.userId, e.node.newSince]));
    expect(nodes.U4).toBe(completedAt);
    expect(nodes.U1).toBeNull();
  });

  it('counts as new only the conflicts a replace adds, and resolves the pending ones it drops', async () => {
    const before = byUser((await queue(a.client)).risks);
    // A decides U1's row (kept by the new data) and leaves U2's pending (dropped by it).
    expect((await a.client.post('/api/reviews/decision', { riskDefinitionId: before.U1.id, decision: 'retain' })).status).toBe(200);
    const pendingBefore = (await queue(a.client)).pendingReview;

    // The new data: U1 and U3 as they were, the rows appended during the period, and one new conflict; U2 and U9 are gone.
    const upload = await loadExport(server, admin, csv([BASE[0]!, BASE[2]!, ...DURING, FRESH]), { mode: 'replace', name: 'replace.csv' });
    const event = await announced(upload);
    expect(event.after).toMatchObject({ reviewers: [{ reviewerId: a.user.id, newConflicts: 1 }] });
    expect((event.after as any).reviewers).toHaveLength(1);
    expect((await newNotices(a.client)).map((n) => n.title)).toEqual(['1 new conflict to review', '3 new conflicts to review']);
    expect(await newNotices(b.client)).toHaveLength(1);

    const replacedAt = (await server.app.deps.prisma.upload.findUniqueOrThrow({ where: { id: upload } })).completedAt!.toISOString();
    const after = await queue(a.client);
    const mine = byUser(after.risks);
    expect(Object.keys(mine).sort()).toEqual(['U1', 'U4', 'U5', 'U6', 'U8']);
    expect(mine.U8.newSince).toBe(replacedAt);
    // Rows equal to the ones appended during the period keep their arrival; U1 was there before it, and keeps its decision.
    for (const u of ['U4', 'U5', 'U6']) expect(mine[u].newSince).toBe(before[u].newSince);
    expect(mine.U1).toMatchObject({ newSince: null, decision: 'retain' });
    // U2 and U9 are no longer pending work: A's pending count lost them and gained U8.
    expect(after.pendingReview).toBe(pendingBefore - 2 + 1);
    // Reviewer Status alike, once the replaced rows (and their decisions) are purged after the load.
    for (const deadline = Date.now() + 20_000; ; await sleep(200)) {
      const status = ((await admin.get('/api/reviewer-status')).body as any[]).find((r) => r.reviewer.id === a.user.id);
      if (status.assigned - status.decided === after.pendingReview) break;
      if (Date.now() > deadline) throw new Error(`Reviewer Status: ${JSON.stringify(status)}`);
    }
  });

  it('keeps the conflicts resolved before decision in the evidence frozen at close', async () => {
    const period = await server.app.deps.prisma.reviewPeriod.findFirstOrThrow({ where: { status: 'active' } });
    expect((await admin.put(`/api/review-periods/${period.id}/close`)).status).toBe(200);
    const frozen = await server.app.deps.prisma.periodEvidence.findFirstOrThrow({ where: { periodId: period.id }, orderBy: { version: 'desc' } });
    const resolved = (frozen.scope as unknown as EvidenceScope).summary.resolvedBeforeDecision!;
    expect(resolved.count).toBe(2);
    expect(resolved.rows.map((r) => [r.userId, r.accessRiskId, r.system, r.roleProfile]).sort()).toEqual([
      ['U2', 'R02', 'SAP ERP', 'Z_GL'],
      ['U9', 'R09', 'SAP ERP', 'Z_PO'],
    ]);
    for (const r of resolved.rows) expect(Date.parse(r.resolvedAt)).toBeGreaterThan(period.createdAt.getTime());
    // The decided row that stayed is a decision, not a resolved one.
    expect(resolved.rows.some((r) => r.userId === 'U1')).toBe(false);
  });
});
