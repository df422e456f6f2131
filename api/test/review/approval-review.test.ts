// The approver's review of a submission over REST and GraphQL:
// the approver sees a submission's removals, mitigations and the items
// retained against a 'remove' recommendation first; approves or returns it
// with a comment per item or for the whole set; the item comments reach the
// reviewer, the audit trail, the exports and the evidence file (CSV and XLSX).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { Client, adminClient, startServer, userClient, type TestServer } from '../helpers/server.js';
import { parseCsv } from '../helpers/csv.js';
import { seedRows } from '../helpers/seed.js';

let server: TestServer;
let admin: Client;
let a: Awaited<ReturnType<typeof userClient>>;
let rows: bigint[];
let periodId: string;

const latestSubmission = async () => (await admin.get('/api/submissions?status=submitted')).body[0] as { id: string };
/** The lines of a CSV export as the given client downloads it. */
const csvOf = async (cl: Client, path: string) => parseCsv(await (await fetch(server.url + path, { headers: { cookie: cl.cookieHeader } })).text());
const sgid = (id: string) => Buffer.from(`Submission:${id}`).toString('base64');

beforeAll(async () => {
  server = await startServer();
  admin = await adminClient(server);
  a = await userClient(server, admin);
  const prisma = server.app.deps.prisma;
  rows = await seedRows(prisma, [
    { userId: 'U1', accessRiskId: 'R1', roleProfile: 'Z_AP' }, // retained, but unused: against a 'remove' recommendation
    { userId: 'U2', accessRiskId: 'R2', roleProfile: 'Z_GL' }, // removed
    { userId: 'U3', accessRiskId: 'R3', roleProfile: 'Z_HR' }, // mitigated
    { userId: 'U4', accessRiskId: 'R4', roleProfile: 'Z_FI' }, // retained, used
  ]);
  await prisma.riskRow.update({ where: { id: rows[0]! }, data: { executionCount: 0 } });
  await prisma.riskRow.update({ where: { id: rows[3]! }, data: { executionCount: 40, lastExecutedOn: new Date() } });
  expect((await admin.post('/api/assignment-criteria', { reviewerId: a.user.id, criteriaType: 'system', criteriaValue: 'SAP ERP' })).status).toBe(201);
  periodId = (await admin.post('/api/review-periods', { name: 'Approval period' })).body.id;
  const saved = await a.client.post('/api/reviews/decisions', {
    decisions: [
      { riskDefinitionId: Number(rows[0]), decision: 'retain' },
      { riskDefinitionId: Number(rows[1]), decision: 'remove', comments: 'Left the team' },
      {
        riskDefinitionId: Number(rows[2]),
        decision: 'retain_mitigated',
        mitigationControl: 'MC-9',
        mitigationExpiresAt: '2099-06-30',
        comments: 'Monthly check',
      },
      { riskDefinitionId: Number(rows[3]), decision: 'retain' },
    ],
  });
  expect(saved.status).toBe(200);
  expect((await a.client.post('/api/reviews/submit')).status).toBe(200);
});
afterAll(async () => server?.close());

describe('approval review', () => {
  it('lists removals, mitigations, retained-against-remove-recommendation first, then the rest (REST and GraphQL)', async () => {
    const sub = await latestSubmission();
    const r = await admin.get(`/api/submissions/${sub.id}/review`);
    expect(r.status).toBe(200);
    expect(r.body.total).toBe(4);
    expect(r.body.items.map((i: { userId: string; group: string }) => [i.userId, i.group])).toEqual([
      ['U2', 'removal'],
      ['U3', 'mitigation'],
      ['U1', 'retained_against_recommendation'],
      ['U4', 'other'],
    ]);
    expect(r.body.items[2].recommendation).toEqual({ value: 'remove', reason: 'Not used: the export shows 0 executions' });
    expect(r.body.items[1]).toMatchObject({ mitigationControl: 'MC-9', mitigationExpiresAt: '2099-06-30', comments: 'Monthly check' });
    const g = await admin.gql(`query($id: ID!) { submissionReview(id: $id) { total items { userId group decision recommendation { value } } } }`, {
      id: sgid(sub.id),
    });
    expect(g.body.errors).toBeUndefined();
    expect(g.body.data.submissionReview.items.map((i: { group: string }) => i.group)).toEqual([
      'REMOVAL',
      'MITIGATION',
      'RETAINED_AGAINST_RECOMMENDATION',
      'OTHER',
    ]);
    // Reviewers may not read it.
    expect((await a.client.get(`/api/submissions/${sub.id}/review`)).status).toBe(403);
  });

  it('returns with a comment on an item only; the reviewer, the notification, the audit trail and the exports carry it', async () => {
    const sub = await latestSubmission();
    const none = await admin.put(`/api/submissions/${sub.id}/return`, {});
    expect(none.status).toBe(400);
    expect(none.body.message).toBe('Please say why the decisions are returned');
    const stranger = await admin.put(`/api/submissions/${sub.id}/return`, { itemComments: [{ riskDefinitionId: 999999, comment: 'x' }] });
    expect(stranger.status).toBe(400);
    expect(stranger.body.message).toBe('Not an item of this submission: 999999');

    const r = await admin.put(`/api/submissions/${sub.id}/return`, {
      itemComments: [{ riskDefinitionId: Number(rows[0]), comment: 'Unused for a year: why keep it?' }],
    });
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('returned');
    const status = await a.client.get('/api/reviews/submission-status');
    expect(status.body.itemComments).toEqual([
      { riskDefinitionId: Number(rows[0]), userId: 'U1', roleProfile: 'Z_AP', accessRiskId: 'R1', comment: 'Unused for a year: why keep it?' },
    ]);
    const g = await a.client.gql(`query($id: ID!) { node(id: $id) { ... on Submission { status itemComments { userId comment } } } }`, { id: sgid(sub.id) });
    expect(g.body.data.node).toEqual({ status: 'RETURNED', itemComments: [{ userId: 'U1', comment: 'Unused for a year: why keep it?' }] });
    const notes = await a.client.get('/api/notifications');
    expect(JSON.stringify(notes.body)).toContain('see the comments on the items (1 item comment)');
    const audit = await server.app.deps.prisma.auditEvent.findFirst({ where: { action: 'submission.returned', entityId: sub.id } });
    expect((audit!.after as { itemComments: unknown[] }).itemComments).toEqual([
      { riskRowId: Number(rows[0]), userId: 'U1', roleProfile: 'Z_AP', accessRiskId: 'R1', decision: 'retain', comment: 'Unused for a year: why keep it?' },
    ]);
    // The reviewer's Export Results and the risk report carry it on the item's line.
    const mine = await csvOf(a.client, '/api/risks/export');
    expect(mine.find((l) => l['User ID'] === 'U1')!['Approver Comment']).toBe('Unused for a year: why keep it?');
    expect(mine.find((l) => l['User ID'] === 'U2')!['Approver Comment']).toBe('');
    const report = await csvOf(admin, '/api/reports/risk-report');
    expect(report.find((l) => l['User ID'] === 'U1')).toMatchObject({ 'Submission Status': 'returned', 'Approver Comment': 'Unused for a year: why keep it?' });
  });

  it('approves over GraphQL with a comment for the set and per item; the evidence file (CSV and XLSX) and the exports carry the item comment', async () => {
    expect((await a.client.post('/api/reviews/submit')).status).toBe(200);
    const sub = await latestSubmission();
    const m = await admin.gql(
      `mutation($id: ID!, $items: [ItemCommentInput!]) { approveSubmission(id: $id, comment: "Checked", itemComments: $items) { ... on MutationApproveSubmissionSuccess { data { status reviewComment itemComments { userId comment } } } } }`,
      { id: sgid(sub.id), items: [{ riskRowId: String(rows[1]), comment: 'Remove by Friday' }] },
    );
    expect(m.body.errors).toBeUndefined();
    expect(m.body.data.approveSubmission.data).toEqual({
      status: 'APPROVED',
      reviewComment: 'Checked',
      itemComments: [{ userId: 'U2', comment: 'Remove by Friday' }],
    });
    const audit = await server.app.deps.prisma.auditEvent.findFirst({ where: { action: 'submission.approved', entityId: sub.id } });
    expect(audit!.after).toMatchObject({ comment: 'Checked', itemComments: [{ userId: 'U2', comment: 'Remove by Friday' }] });

    expect((await admin.put(`/api/review-periods/${periodId}/close`)).status).toBe(200);
    const res = await fetch(`${server.url}/api/reports/evidence?periodId=${periodId}&format=csv`, { headers: { cookie: admin.cookieHeader } });
    const csv = await res.text();
    expect(csv).toContain('Approver Comment');
    const line = csv.split('\r\n').find((l) => l.startsWith('U2,'))!;
    // The approver's comment, then the stage and whether the decision is final (a one-stage period: 1, yes).
    expect(line.endsWith(',Remove by Friday,1,yes')).toBe(true);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(
      (await (
        await fetch(`${server.url}/api/reports/evidence?periodId=${periodId}&format=xlsx`, { headers: { cookie: admin.cookieHeader } })
      ).arrayBuffer()) as ArrayBuffer,
    );
    const sheet = wb.getWorksheet('Decisions')!;
    const header = (sheet.getRow(1).values as unknown[]).map(String);
    const u2 = sheet.getRows(2, sheet.rowCount - 1)!.find((r) => r.getCell(1).value === 'U2')!;
    expect(u2.getCell(header.indexOf('Approver Comment')).value).toBe('Remove by Friday');
    // The exports: the risk report and the reviewer's Export Results.
    expect((await csvOf(admin, '/api/reports/risk-report')).find((l) => l['User ID'] === 'U2')).toMatchObject({
      'Submission Status': 'approved',
      'Approver Comment': 'Remove by Friday',
    });
    expect((await csvOf(a.client, '/api/risks/export')).find((l) => l['User ID'] === 'U2')!['Approver Comment']).toBe('Remove by Friday');
  });
});
