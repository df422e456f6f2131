// The risk report's review metadata (one line per reviewer decision, with
// reviewer, time, comments, submission, approval and period) and the
// remediation list (approved removals, status open / done /
// failed set by administrators, CSV export, and the next upload verifying a
// done removal or reopening it with a notification).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, adminClient, startServer, userClients, type TestServer, type UserClient } from '../helpers/server.js';
import { parseCsv } from '../helpers/csv.js';
import { loadExport } from '../helpers/upload.js';

let server: TestServer;
let admin: Client;
let a: UserClient;
let b: UserClient;

const HEADER = 'User ID,User Name,Access Risk ID,Risk Description,Risk Level,Rule ID,System,Role/Profile\r\n';
const FIRST =
  HEADER +
  'U1,Alice Jones,R01,Pay vendors,High,0301,SAP ERP,Z_AP_CLERK\r\n' +
  'U1,Alice Jones,R02,Post journals,Medium,0102,SAP ERP,=Z_GL\r\n' +
  'U2,Bob Smith,R03,Payroll,Low,0101,Workday,HR_ADMIN\r\n';
// The next export: Alice still has Z_AP_CLERK (its removal was not carried out), no longer =Z_GL.
const NEXT = HEADER + 'U1,Alice Jones,R01,Pay vendors,High,0301,SAP ERP,Z_AP_CLERK\r\nU2,Bob Smith,R03,Payroll,Low,0101,Workday,HR_ADMIN\r\n';

const upload = (content: string, mode: 'replace' | 'append' = 'replace') => loadExport(server, admin, content, { mode });

beforeAll(async () => {
  server = await startServer();
  admin = await adminClient(server);
  [a, b] = (await userClients(server, admin, 2)) as [UserClient, UserClient];
  await upload(FIRST);
  expect((await admin.post('/api/assignment-criteria', { reviewerId: a.user.id, criteriaType: 'system', criteriaValue: 'SAP ERP' })).status).toBe(201);
  expect((await admin.post('/api/assignment-criteria', { reviewerId: b.user.id, criteriaType: 'user_id', criteriaValue: 'U1' })).status).toBe(201);
  expect((await admin.post('/api/review-periods', { name: 'Q4 review' })).status).toBe(201);
  const rows = (await a.client.get('/api/assigned-risks')).body.risks as { id: number; accessRiskId: string }[];
  const id = (risk: string) => rows.find((r) => r.accessRiskId === risk)!.id;
  // The reviewers disagree on R01; both remove R02.
  expect(
    (
      await a.client.post('/api/reviews/decisions', {
        decisions: [
          { riskDefinitionId: id('R01'), decision: 'retain', comments: 'Needed for AP' },
          { riskDefinitionId: id('R02'), decision: 'remove', comments: 'Not needed' },
        ],
      })
    ).status,
  ).toBe(200);
  expect(
    (
      await b.client.post('/api/reviews/decisions', {
        decisions: [
          { riskDefinitionId: id('R01'), decision: 'remove' },
          { riskDefinitionId: id('R02'), decision: 'remove' },
        ],
      })
    ).status,
  ).toBe(200);
  expect((await a.client.post('/api/reviews/submit')).status).toBe(200);
  expect((await b.client.post('/api/reviews/submit')).status).toBe(200);
  const subA = ((await admin.get('/api/submissions')).body as any[]).find((s) => s.reviewerId === a.user.id || s.reviewer?.id === a.user.id);
  expect((await admin.put(`/api/submissions/${subA.id}/approve`)).status).toBe(200);
});
afterAll(async () => server?.close());

describe('risk report', () => {
  it('keeps the export columns and adds one line per reviewer decision with its metadata', async () => {
    const res = await fetch(server.url + '/api/reports/risk-report', { headers: { cookie: admin.cookieHeader } });
    const lines = parseCsv(await res.text());
    const head = Object.keys(lines[0]!);
    expect(head.slice(0, 3)).toEqual(['User ID', 'User Name', 'User Group']);
    expect(head.slice(-13)).toEqual([
      'Decision',
      'Decision Comments',
      'Decided At',
      'Reviewed By',
      'Submission Status',
      'Submitted At',
      'Approved By',
      'Approved At',
      'Review Period',
      'Mitigating Control',
      'Mitigation Expires',
      'Approver Comment',
      'Assigned To',
    ]);
    const of = (risk: string) => lines.filter((l) => l['Access Risk ID'] === risk);
    // R01: the disagreement is two lines, each with its own reviewer and state.
    expect(
      of('R01')
        .map((l) => [l.Decision, l['Reviewed By']!.includes(a.email) ? 'a' : 'b', l['Submission Status']])
        .sort(),
    ).toEqual([
      ['remove', 'b', 'submitted'],
      ['retain', 'a', 'approved'],
    ]);
    const r01a = of('R01').find((l) => l['Reviewed By']!.includes(a.email))!;
    expect(r01a).toMatchObject({ 'Decision Comments': 'Needed for AP', 'Review Period': 'Q4 review' });
    expect(r01a['Approved By']).toContain('admin@example.com');
    expect(r01a['Decided At']).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(of('R01').find((l) => l['Reviewed By']!.includes(b.email))!['Approved By']).toBe('');
    // A row nobody decided: one line, pending, no metadata. A role starting with '=' is neutralised.
    expect(of('R03')).toEqual([expect.objectContaining({ Decision: 'pending', 'Reviewed By': '', 'Submission Status': '', 'Review Period': '' })]);
    expect(of('R02').every((l) => l['Role/Profile'] === "'=Z_GL")).toBe(true);
    // A reviewer's report holds only their own decisions.
    const theirs = parseCsv(await (await fetch(server.url + '/api/reports/risk-report', { headers: { cookie: b.client.cookieHeader } })).text());
    expect(theirs.map((l) => l['Access Risk ID']).sort()).toEqual(['R01', 'R02']);
  });
});

describe('remediation list', () => {
  it('lists approved removals only, one item per access, with who decided and approved', async () => {
    let list = (await admin.get('/api/remediation')).body;
    // Only a's set is approved: R02's role (=Z_GL). b's removal of R01 awaits approval.
    expect(list.items.map((i: any) => i.roleProfile)).toEqual(['=Z_GL']);
    expect(list.items[0]).toMatchObject({
      userId: 'U1',
      userName: 'Alice Jones',
      system: 'SAP ERP',
      riskIds: 'R02',
      riskLevel: 'medium',
      status: 'open',
      periodName: 'Q4 review',
    });
    expect(list.items[0].decidedBy).toContain(a.email);
    expect(list.items[0].approvedBy).toContain('admin@example.com');
    const subB = ((await admin.get('/api/submissions')).body as any[]).find((s) => s.status === 'submitted');
    expect((await admin.put(`/api/submissions/${subB.id}/approve`)).status).toBe(200);
    list = (await admin.get('/api/remediation')).body;
    expect(list.items.map((i: any) => i.roleProfile).sort()).toEqual(['=Z_GL', 'Z_AP_CLERK']);
    expect(list.total).toBe(2);
  });

  it('takes a status from administrators only, refuses bad input, and exports CSV with X-Total-Rows', async () => {
    const items = (await admin.get('/api/remediation')).body.items as any[];
    const gl = items.find((i) => i.roleProfile === '=Z_GL');
    const ap = items.find((i) => i.roleProfile === 'Z_AP_CLERK');
    expect((await a.client.put(`/api/remediation/${gl.id}`, { status: 'done' })).status).toBe(403);
    expect((await admin.put(`/api/remediation/${gl.id}`, { status: 'verified' })).status).toBe(400);
    expect((await admin.put('/api/remediation/00000000-0000-0000-0000-000000000000', { status: 'done' })).status).toBe(404);
    expect((await admin.get('/api/remediation?status=closed')).status).toBe(400);
    const failed = await admin.put(`/api/remediation/${ap.id}`, { status: 'failed', note: 'System locked' });
    expect(failed.body).toMatchObject({ status: 'failed', statusNote: 'System locked' });
    expect(failed.body.statusSetBy).toContain('admin@example.com');
    expect((await admin.put(`/api/remediation/${ap.id}`, { status: 'done' })).body.status).toBe('done');
    expect((await admin.put(`/api/remediation/${gl.id}`, { status: 'done' })).body.status).toBe('done');
    expect((await admin.get('/api/remediation?status=done')).body.total).toBe(2);

    const csv = await fetch(server.url + '/api/remediation?format=csv', { headers: { cookie: admin.cookieHeader } });
    expect(csv.headers.get('content-disposition')).toMatch(/attachment; filename="remediation-.*\.csv"/);
    // The rows announced before the first byte, as the other exports do.
    expect(csv.headers.get('x-total-rows')).toBe('2');
    const rows = parseCsv(await csv.text());
    expect(rows.length).toBe(2);
    expect(rows.map((r) => [r['Role/Profile'], r.Status]).sort()).toEqual([
      ["'=Z_GL", 'done'],
      ['Z_AP_CLERK', 'done'],
    ]);
    const audit = await server.app.deps.prisma.auditEvent.findMany({ where: { action: 'remediation.status' } });
    expect(audit.length).toBe(3);
  });

  it('the next upload verifies a done removal whose access is gone and reopens one still there, with a notification', async () => {
    await upload(NEXT);
    const items = (await admin.get('/api/remediation')).body.items as any[];
    expect(items.find((i) => i.roleProfile === '=Z_GL')).toMatchObject({ status: 'verified', reopenedCount: 0 });
    expect(items.find((i) => i.roleProfile === '=Z_GL').verifiedAt).toBeTruthy();
    expect(items.find((i) => i.roleProfile === 'Z_AP_CLERK')).toMatchObject({ status: 'open', reopenedCount: 1, verifiedAt: null });
    const notes = (await admin.get('/api/notifications')).body.notifications as any[];
    const told = notes.find((n) => n.title === 'Removed access is still there');
    expect(told.message).toContain('U1 / Z_AP_CLERK in SAP ERP');
    expect(told.targetType).toBe('specific');
    // The reviewers are not told (the notification is for whoever marked it done).
    expect(((await a.client.get('/api/notifications')).body.notifications as any[]).some((n) => n.title === 'Removed access is still there')).toBe(false);
  });

  it('is read and set over GraphQL with the same rules: a filtered connection with its total, a status and who set it', async () => {
    const LIST = `query($filter: RemediationFilter, $first: Int, $after: String) {
      remediationItems(filter: $filter, first: $first, after: $after) {
        totalCount pageInfo { hasNextPage endCursor }
        edges { node { id userId roleProfile riskIds status statusSetBy reopenedCount decidedBy approvedBy period { name } } }
      } }`;
    const all = await admin.gql(LIST, { first: 1 });
    expect(all.body.errors).toBeUndefined();
    expect(all.body.data.remediationItems).toMatchObject({ totalCount: 2, pageInfo: { hasNextPage: true } });
    const next = await admin.gql(LIST, { first: 1, after: all.body.data.remediationItems.pageInfo.endCursor });
    const both = [...all.body.data.remediationItems.edges, ...next.body.data.remediationItems.edges].map((e: any) => e.node);
    expect(both.map((n: any) => n.roleProfile).sort()).toEqual(['=Z_GL', 'Z_AP_CLERK']);
    expect(both[0].period.name).toBe('Q4 review');

    // Sorted as people work through it (by role, either way), page by page through the same cursors.
    const SORTED = `query($after: String, $dir: OrderDirection) { remediationItems(first: 1, after: $after, orderBy: { field: ROLE_PROFILE, direction: $dir }) {
      pageInfo { hasNextPage endCursor } edges { node { roleProfile } } } }`;
    for (const [dir, expected] of [
      ['ASC', ['=Z_GL', 'Z_AP_CLERK']],
      ['DESC', ['Z_AP_CLERK', '=Z_GL']],
    ] as const) {
      const seen: string[] = [];
      let after: string | null = null;
      do {
        const r: any = (await admin.gql(SORTED, { after, dir })).body;
        expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
        seen.push(...r.data.remediationItems.edges.map((e: any) => e.node.roleProfile));
        after = r.data.remediationItems.pageInfo.hasNextPage ? r.data.remediationItems.pageInfo.endCursor : null;
      } while (after);
      expect(seen, dir).toEqual(expected);
    }

    // The reopened one, by status (what the REST list says too).
    const open = (await admin.gql(LIST, { filter: { status: 'OPEN' } })).body.data.remediationItems;
    expect(open.totalCount).toBe(1);
    const ap = open.edges[0].node;
    expect(ap).toMatchObject({ roleProfile: 'Z_AP_CLERK', status: 'OPEN', reopenedCount: 1, statusSetBy: 'system (upload check)' });

    const SET = `mutation($id: ID!, $status: SettableRemediationStatus!, $note: String) {
      setRemediationStatus(id: $id, status: $status, note: $note) {
        __typename ... on MutationSetRemediationStatusSuccess { data { id status statusNote statusSetBy } } ... on Error { message } } }`;
    const done = await admin.gql(SET, { id: ap.id, status: 'DONE', note: 'Revoked again' });
    expect(done.body.data.setRemediationStatus.data).toMatchObject({ id: ap.id, status: 'DONE', statusNote: 'Revoked again' });
    expect(done.body.data.setRemediationStatus.data.statusSetBy).toContain('admin@example.com');
    expect((await admin.get('/api/remediation?status=done')).body.items.map((i: any) => i.roleProfile)).toEqual(['Z_AP_CLERK']);
    expect((await admin.gql(LIST, { filter: { status: 'OPEN' } })).body.data.remediationItems.totalCount).toBe(0);
    // 'verified' is not a status a person sets; a note too long is refused, naming it.
    expect((await admin.gql(SET, { id: ap.id, status: 'VERIFIED' })).body.errors[0].message).toMatch(/VERIFIED/);
    const long = await admin.gql(SET, { id: ap.id, status: 'FAILED', note: 'x'.repeat(2001) });
    expect(long.body.data.setRemediationStatus).toMatchObject({ __typename: 'ValidationError', message: expect.stringContaining('note is too long') });

    // Reviewers may neither read nor set it.
    expect((await a.client.gql(LIST, {})).body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect((await a.client.gql(SET, { id: ap.id, status: 'OPEN' })).body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect((await admin.get('/api/remediation?status=done')).body.total).toBe(1);
  });

  it('an append that skips a row already there as a duplicate reopens its done item instead of verifying it', async () => {
    // Z_AP_CLERK is 'done' again (previous test) and still in the live data: the appended file
    // repeats that row (skipped as a duplicate, so not among the upload's own rows) and adds another.
    const dupes = HEADER + 'U1,Alice Jones,R01,Pay vendors,High,0301,SAP ERP,Z_AP_CLERK\r\nU3,Carl Wu,R04,Cash,Low,0104,SAP ERP,Z_CASH\r\n';
    const id = await upload(dupes, 'append');
    expect((await admin.get(`/api/upload-status/${id}`)).body.duplicatesSkipped).toBe(1);
    const items = (await admin.get('/api/remediation')).body.items as any[];
    expect(items.find((i) => i.roleProfile === 'Z_AP_CLERK')).toMatchObject({ status: 'open', reopenedCount: 2, verifiedAt: null });
  });
});
