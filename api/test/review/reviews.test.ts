// The review workflow over REST: periods, assignments, the risk queue,
// decisions, submission, recall, approval and return, with every rule
// enforced on the server and written to the audit trail.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, adminClient, startServer, userClient, type TestServer } from '../helpers/server.js';
import { seedRows, seedUsers } from '../helpers/seed.js';

let server: TestServer;
let admin: Client;
let a: Awaited<ReturnType<typeof userClient>>;
let b: Awaited<ReturnType<typeof userClient>>;
let rows: bigint[];

beforeAll(async () => {
  server = await startServer();
  admin = await adminClient(server);
  a = await userClient(server, admin);
  b = await userClient(server, admin);
  rows = await seedRows(server.app.deps.prisma, [
    // U1 holds COMP_FIN with two roles: SAP ERP.
    {
      userId: 'U1',
      userName: 'Alice Jones',
      userGroup: 'FIN',
      accessRiskId: 'R01',
      ruleId: '0301',
      system: 'SAP ERP',
      roleProfile: 'Z_AP_CLERK',
      compositeBusinessRole: 'COMP_FIN',
    },
    {
      userId: 'U1',
      userName: 'Alice Jones',
      userGroup: 'FIN',
      accessRiskId: 'R01',
      ruleId: '0102',
      system: 'SAP ERP',
      roleProfile: 'Z_VENDOR_MAINT',
      compositeBusinessRole: 'COMP_FIN',
    },
    {
      userId: 'U1',
      userName: 'Alice Jones',
      userGroup: 'FIN',
      accessRiskId: 'R02',
      ruleId: '0201',
      system: 'SAP ERP',
      roleProfile: 'Z_GL',
      compositeBusinessRole: '',
      riskLevel: 'medium',
    },
    // U2: Workday, another group.
    { userId: 'U2', userName: 'Bob Smith', userGroup: 'HR', accessRiskId: 'R03', system: 'Workday', roleProfile: 'HR_ADMIN', riskLevel: 'low' },
    { userId: 'U3', userName: 'Carol White', userGroup: 'IT', accessRiskId: 'R04', system: 'Active Directory', roleProfile: 'DOMAIN_ADMIN' },
  ]);
});
afterAll(async () => server?.close());

const decide = (c: Client, id: bigint, decision: string, comments?: string) =>
  c.post('/api/reviews/decision', { riskDefinitionId: Number(id), decision, comments });

describe('review periods', () => {
  it('without an active period, every decision, submission and recall is refused with a clear message', async () => {
    expect((await admin.get('/api/review-periods/active')).body).toBeNull();
    const msg = 'No review period is active. Decisions, submissions and recalls are locked until an administrator opens one.';
    const d = await decide(admin, rows[0]!, 'retain');
    expect(d.status).toBe(409);
    expect(d.body.message).toBe(msg);
    expect((await a.client.post('/api/reviews/submit')).body.message).toBe(msg);
    expect((await a.client.post('/api/reviews/recall')).body.message).toBe(msg);
    const g = await a.client.gql(`mutation { submitDecisions { __typename ... on Error { message } } }`);
    expect(g.body.data.submitDecisions).toEqual({ __typename: 'BaseError', message: msg });
  });

  it('creates and activates a period (name required), refuses a second active one, closes and reopens', async () => {
    expect((await admin.post('/api/review-periods', { name: '  ' })).body.message).toBe('Period name is required');
    const p = await admin.post('/api/review-periods', { name: 'Q4 2026 SoD review', description: 'Quarterly' });
    expect(p.status).toBe(201);
    expect(p.body).toMatchObject({ name: 'Q4 2026 SoD review', description: 'Quarterly', status: 'active', endDate: null });
    const second = await admin.post('/api/review-periods', { name: 'Another' });
    expect(second.status).toBe(409);
    expect(second.body.message).toBe('Another review period is already active. Close it first.');
    expect((await a.client.post('/api/review-periods', { name: 'x' })).status).toBe(403);

    expect((await admin.put(`/api/review-periods/${p.body.id}/close`)).body.status).toBe('closed');
    expect((await admin.get('/api/review-periods/active')).body).toBeNull();
    expect((await admin.put(`/api/review-periods/${p.body.id}/open`)).body.status).toBe('active');
    expect((await a.client.get('/api/review-periods/active')).body.id).toBe(p.body.id);
    const list = await admin.get('/api/review-periods');
    expect(list.body.map((x: any) => x.name)).toEqual(['Q4 2026 SoD review']);
  });
});

describe('assignments', () => {
  it('offers values from the loaded data, names an unnamed assignment by the SPEC rule, and deletes', async () => {
    const systems = await admin.get(`/api/assignment-values/system?reviewerId=${a.user.id}`);
    expect(systems.body.map((o: any) => o.value)).toEqual(['Active Directory', 'SAP ERP', 'Workday']);
    const users = await admin.get('/api/assignment-values/user_id');
    expect(users.body).toContainEqual({ value: 'U1', label: 'U1 — Alice Jones' });
    expect((await admin.get('/api/assignment-values/colour')).status).toBe(400);

    const missing = await admin.post('/api/assignment-criteria', { reviewerId: a.user.id, criteriaType: 'system' });
    expect(missing.body.message).toBe('Please fill in all required fields');

    const c = await admin.post('/api/assignment-criteria', { reviewerId: a.user.id, criteriaType: 'system', criteriaValue: 'SAP ERP' });
    expect(c.status).toBe(201);
    expect(c.body).toMatchObject({ name: 'SYSTEM: SAP ERP', criteriaType: 'system', reviewer: { email: a.email } });
    // The value list leaves out what the reviewer already has.
    const again = await admin.get(`/api/assignment-values/system?reviewerId=${a.user.id}`);
    expect(again.body.map((o: any) => o.value)).toEqual(['Active Directory', 'Workday']);

    const tmp = await admin.post('/api/assignment-criteria', { name: 'Temp', reviewerId: a.user.id, criteriaType: 'user_group', criteriaValue: 'HR' });
    expect((await admin.request('DELETE', `/api/assignment-criteria/${tmp.body.id}`)).status).toBe(200);

    await admin.post('/api/assignment-criteria', { reviewerId: b.user.id, criteriaType: 'user_id', criteriaValue: 'U1' });
    const list = await admin.get('/api/assignment-criteria');
    expect(list.body.map((x: any) => x.name).sort()).toEqual(['SYSTEM: SAP ERP', 'USER ID: U1']);
  });

  it('reviewers see only their rows, everywhere, including by guessing ids', async () => {
    const ra = await a.client.get('/api/assigned-risks');
    expect(ra.status).toBe(200);
    expect(ra.body).toMatchObject({ totalAssigned: 3, highRisk: 3, pendingReview: 3, reviewed: 0 });
    expect(ra.body.risks.map((r: any) => r.accessRiskId)).toEqual(['R01', 'R01', 'R02']);
    expect((await a.client.get('/api/risks')).status).toBe(403);
    // Row 4 (Workday) is not A's: deciding on it is 'not found', not 'forbidden'.
    const guess = await decide(a.client, rows[3]!, 'remove');
    expect(guess.status).toBe(404);
    expect(guess.body.message).toBe(`Risk ${rows[3]} was not found`);
    const sys = await a.client.get('/api/risks/systems');
    expect(sys.body).toEqual(['SAP ERP']);
  });

  it('administrators see every row, with search, filters and paging', async () => {
    const all = await admin.get('/api/risks?limit=2&page=1');
    expect(all.body.total).toBe(5);
    expect(all.body.risks).toHaveLength(2);
    expect((await admin.get('/api/risks?search=alice')).body.total).toBe(3);
    expect((await admin.get('/api/risks?search=HR_ADM')).body.total).toBe(1);
    expect((await admin.get('/api/risks?riskLevel=low')).body.total).toBe(1);
    expect((await admin.get('/api/risks?system=Workday')).body.risks[0].userName).toBe('Bob Smith');
    expect((await admin.get('/api/risks?system=All%20Systems&riskLevel=All')).body.total).toBe(5);
    expect((await admin.get('/api/risks?riskLevel=extreme')).status).toBe(400);
  });
});

describe('decisions, submission and approval', () => {
  it('saves single and batch decisions; a batch is all or nothing; the empty batch is refused', async () => {
    expect((await decide(a.client, rows[0]!, 'retain', 'needed for month end')).status).toBe(200);
    const empty = await a.client.post('/api/reviews/decisions', { decisions: [] });
    expect(empty.body.message).toBe('Please select risks to make decisions on');

    const bad = await a.client.post('/api/reviews/decisions', {
      decisions: [
        { riskDefinitionId: Number(rows[1]), decision: 'remove' },
        { riskDefinitionId: Number(rows[3]), decision: 'remove' },
      ],
    });
    expect(bad.status).toBe(404);
    const afterBad = await a.client.get('/api/assigned-risks');
    expect(afterBad.body.risks.find((r: any) => r.id === Number(rows[1])).decision).toBe('');

    const wrongValue = await a.client.post('/api/reviews/decisions', { decisions: [{ riskDefinitionId: Number(rows[1]), decision: 'maybe' }] });
    expect(wrongValue.body.message).toBe('Decision 1: Decision must be retain, remove or retain_mitigated');
    const mitigated = await a.client.post('/api/reviews/decisions', { decisions: [{ riskDefinitionId: Number(rows[1]), decision: 'retain_mitigated' }] });
    expect(mitigated.body.message).toBe('Decision 1: A mitigated decision needs an expiry date');
  });

  it('a decision on a composite role applies to all that user\u2019s rows under it; shared roles keep each reviewer\u2019s own decision', async () => {
    const r = await a.client.post('/api/reviews/decisions', {
      decisions: [{ userId: 'U1', compositeBusinessRole: 'COMP_FIN', decision: 'remove', comments: null }],
    });
    expect(r.body).toEqual({ success: true, saved: 2 });
    // B shares U1's rows (assigned by user id) and decides differently.
    expect(
      (await b.client.post('/api/reviews/decisions', { decisions: [{ userId: 'U1', compositeBusinessRole: 'COMP_FIN', decision: 'retain' }] })).body.saved,
    ).toBe(2);
    const ra = (await a.client.get('/api/assigned-risks')).body;
    const rb = (await b.client.get('/api/assigned-risks')).body;
    expect(ra.risks.filter((x: any) => x.compositeBusinessRole === 'COMP_FIN').map((x: any) => x.decision)).toEqual(['remove', 'remove']);
    expect(rb.risks.filter((x: any) => x.compositeBusinessRole === 'COMP_FIN').map((x: any) => x.decision)).toEqual(['retain', 'retain']);
    expect(ra).toMatchObject({ totalAssigned: 3, reviewed: 2, pendingReview: 1 });
    expect((await admin.get('/api/risks?decision=pending')).body.total).toBe(5);
  });

  it('submit locks the set; recall unlocks it; a returned set is editable and the reviewer is told; approval is final', async () => {
    const status0 = (await a.client.get('/api/reviews/submission-status')).body;
    expect(status0).toMatchObject({ isSubmitted: false, hasDecisions: true, totalDecisions: 2 });

    const sub = await a.client.post('/api/reviews/submit');
    expect(sub.body.count).toBe(2);
    expect((await a.client.get('/api/reviews/submission-status')).body).toMatchObject({ isSubmitted: true, totalDecisions: 2 });
    const locked = await decide(a.client, rows[2]!, 'retain');
    expect(locked.status).toBe(409);
    expect(locked.body.message).toBe('Your decisions are submitted for approval and locked. Recall them to make changes.');
    expect((await a.client.post('/api/reviews/submit')).status).toBe(409);

    expect((await a.client.post('/api/reviews/recall')).body.count).toBe(2);
    expect((await decide(a.client, rows[2]!, 'retain')).status).toBe(200);
    const sub2 = await a.client.post('/api/reviews/submit');
    expect(sub2.body.count).toBe(3);

    // The administrator returns it with a comment.
    const noComment = await admin.put(`/api/submissions/${sub2.body.submissionId}/return`, {});
    expect(noComment.body.message).toBe('Please say why the decisions are returned');
    const ret = await admin.put(`/api/submissions/${sub2.body.submissionId}/return`, { comment: 'Justify Z_GL' });
    expect(ret.body.status).toBe('returned');
    const note = (await a.client.get('/api/notifications')).body.notifications[0];
    expect(note).toMatchObject({ title: 'Your review decisions were returned', type: 'warning' });
    expect(note.message).toContain('Justify Z_GL');
    expect((await a.client.get('/api/reviews/submission-status')).body).toMatchObject({
      isSubmitted: false,
      status: 'returned',
      reviewComment: 'Justify Z_GL',
    });
    expect((await decide(a.client, rows[2]!, 'remove', 'not needed')).status).toBe(200);

    const sub3 = await a.client.post('/api/reviews/submit');
    const pending = await admin.get('/api/submissions?status=submitted');
    expect(pending.body.map((s: any) => s.id)).toEqual([sub3.body.submissionId]);
    expect((await a.client.put(`/api/submissions/${sub3.body.submissionId}/approve`)).status).toBe(403);
    expect((await admin.put(`/api/submissions/${sub3.body.submissionId}/approve`)).body.status).toBe('approved');
    expect((await a.client.post('/api/reviews/recall')).body.message).toBe('Approved decisions cannot be recalled');
    expect((await decide(a.client, rows[2]!, 'retain')).body.message).toBe('Your decisions for this period were approved and are final.');
  });

  it('closing the period locks everything until it is reopened', async () => {
    const active = (await admin.get('/api/review-periods/active')).body;
    await admin.put(`/api/review-periods/${active.id}/close`);
    expect((await decide(b.client, rows[2]!, 'retain')).status).toBe(409);
    expect((await b.client.post('/api/reviews/submit')).status).toBe(409);
    await admin.put(`/api/review-periods/${active.id}/open`);
    expect((await b.client.post('/api/reviews/submit')).status).toBe(200);
  });

  it('writes every step to the audit trail with actor, before and after', async () => {
    const events = await server.app.deps.prisma.auditEvent.findMany({ orderBy: { id: 'asc' } });
    const actions = events.map((e) => e.action);
    for (const x of [
      'period.created',
      'period.closed',
      'period.reopened',
      'assignment.created',
      'assignment.deleted',
      'decision.changed',
      'submission.submitted',
      'submission.recalled',
      'submission.returned',
      'submission.approved',
    ]) {
      expect(actions, x).toContain(x);
    }
    const changes = events.filter((e) => e.action === 'decision.changed' && e.entityId === String(rows[2]) && e.actorId === a.user.id);
    expect(changes.map((e) => [e.before && (e.before as any).decision, (e.after as any).decision])).toEqual([
      [null, 'retain'],
      ['retain', 'remove'],
    ]);
  });
});

describe('dashboard, reviewer status and export', () => {
  it('counts conflicts, high-risk users, pending reviews and reviewers online, per viewer', async () => {
    const s = (await admin.get('/api/dashboard/stats')).body;
    expect(s).toMatchObject({ totalConflicts: 5, highRiskUsers: 2 });
    expect(s.activeReviewers).toBeGreaterThanOrEqual(2);
    const mine = (await b.client.get('/api/dashboard/stats')).body;
    expect(mine.totalConflicts).toBe(3);
    const g = await admin.gql('{ dashboardStats { totalConflicts pendingReviews } }');
    expect(g.body.data.dashboardStats.totalConflicts).toBe(5);
  });

  it('shows each reviewer\u2019s assigned, decided, submitted and approved counts', async () => {
    const r = await admin.get('/api/reviewer-status');
    const pa = r.body.find((x: any) => x.reviewer.id === a.user.id);
    expect(pa).toMatchObject({ assigned: 3, decided: 3, submissionStatus: 'approved', submitted: 3, approved: 3 });
    expect(new Date(pa.lastActivity).getTime()).toBeGreaterThan(Date.now() - 120_000);
    expect((await a.client.get('/api/reviewer-status')).status).toBe(403);
  });

  it('counts each reviewer\u2019s assigned rows as their own queue does, and again when the rows change', async () => {
    const c = await userClient(server, admin); // no criteria yet
    const status = async () => new Map<string, number>((await admin.get('/api/reviewer-status')).body.map((x: any) => [x.reviewer.id, x.assigned]));
    const queueTotal = async (r: typeof a) => (await r.client.get('/api/assigned-risks?limit=25')).body.total as number;
    let s = await status();
    const before = await queueTotal(a);
    expect(s.get(a.user.id)).toBe(before);
    expect(s.get(b.user.id)).toBe(await queueTotal(b));
    expect(s.get(c.user.id)).toBe(0);
    // c gets the same criteria as b: the same count, from the same pass.
    for (const x of (await admin.get(`/api/assignment-criteria?reviewerId=${b.user.id}`)).body.filter((x: any) => x.reviewerId === b.user.id)) {
      await admin.post('/api/assignment-criteria', { reviewerId: c.user.id, criteriaType: x.criteriaType, criteriaValue: x.criteriaValue });
    }
    // A new row a's criteria match: counted once the data changes, not served from the cache.
    const [added] = await seedRows(server.app.deps.prisma, [
      { userId: 'U8', userName: 'Dan Grey', userGroup: 'FIN', accessRiskId: 'R01', system: 'SAP ERP', roleProfile: 'Z_AP_CLERK' },
    ]);
    s = await status();
    expect(await queueTotal(a)).toBe(before + 1);
    expect(s.get(a.user.id)).toBe(before + 1);
    expect(s.get(c.user.id)).toBe(s.get(b.user.id));
    expect(s.get(c.user.id)).toBeGreaterThan(0);
    // Criteria that overlap (the same rows by user and by system) count each row once.
    await admin.post('/api/assignment-criteria', { reviewerId: c.user.id, criteriaType: 'user_id', criteriaValue: 'U1' });
    await admin.post('/api/assignment-criteria', { reviewerId: c.user.id, criteriaType: 'system', criteriaValue: 'SAP ERP' });
    expect((await status()).get(c.user.id)).toBe(await queueTotal(c));
    await server.app.deps.prisma.riskRow.delete({ where: { id: added! } });
    expect((await status()).get(a.user.id)).toBe(before);
  });

  it('exports the filtered rows as CSV with every column and the decision, neutralising formulas', async () => {
    const [u9] = await seedRows(server.app.deps.prisma, [{ userId: 'U9', userName: '=HYPERLINK("http://evil")', accessRiskId: 'R09', system: 'Workday' }]);
    await server.app.deps.prisma.riskRow.update({ where: { id: u9! }, data: { executionCount: 17, lastExecutedOn: new Date('2026-03-05T00:00:00Z') } });
    const res = await fetch(server.url + '/api/risks/export?system=Workday', { headers: { cookie: admin.cookieHeader } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/csv/);
    expect(res.headers.get('content-disposition')).toMatch(/attachment; filename="risk-export-.*\.csv"/);
    const text = (await res.text()).replace(/^\uFEFF/, '');
    const lines = text.trim().split('\r\n');
    expect(lines[0]!.split(',').slice(0, 4)).toEqual(['User ID', 'User Name', 'User Group', 'Access Risk ID']);
    expect(lines[0]).toContain('Decision');
    expect(lines).toHaveLength(3);
    expect(text).toContain(`"'=HYPERLINK(""http://evil"")"`);
    // Usage columns as the export had them: the count, the date as YYYY-MM-DD; undecided rows say pending.
    const header = lines[0]!.split(',');
    const u9Line = lines.find((l) => l.startsWith('U9,'))!.split(',');
    expect(u9Line[header.indexOf('Execution Count')]).toBe('17');
    expect(u9Line[header.indexOf('Last Executed On')]).toBe('2026-03-05');
    expect(u9Line.slice(-8, -1)).toEqual(['pending', '', '', '', '', '', '']);
    // The last column is the recommendation the queue shows beside the row.
    const queued = (await admin.get('/api/risks?system=Workday&limit=100')).body.risks.find((r: { userId: string }) => r.userId === 'U9');
    expect(header.at(-1)).toBe('Recommendation');
    expect(u9Line.at(-1)).toBe(queued.recommendation.value);
    // A reviewer's export holds only their rows.
    const mine = await fetch(server.url + '/api/risks/export', { headers: { cookie: b.client.cookieHeader } });
    const mineLines = (await mine.text()).trim().split('\r\n');
    expect(mineLines).toHaveLength(1 + 3);
    // Their decisions, with when they were made (ISO 8601, UTC), as the database has them.
    const decided = await server.app.deps.prisma.decision.findMany({ where: { reviewerId: b.user.id } });
    expect(decided.length).toBeGreaterThan(0);
    for (const d of decided) {
      expect(
        mineLines.some((l) => l.includes(`,${d.decision},${d.comments ?? ''},${d.updatedAt.toISOString()},${b.email},${d.mitigationControl ?? ''},,`)),
      ).toBe(true);
    }
    // Cells with commas, quotes and line breaks are quoted; an empty cell is empty; lines end in CRLF.
    await seedRows(server.app.deps.prisma, [
      { userId: 'U10', userName: 'Doe, "JJ"\nJr', userGroup: '', accessRiskId: 'R10', roleProfileDescription: '-1 day', system: 'Lab' },
    ]);
    const odd = (await (await fetch(server.url + '/api/risks/export?userId=U10', { headers: { cookie: admin.cookieHeader } })).text()).replace(/^\uFEFF/, '');
    expect(odd.startsWith(lines[0]! + '\r\nU10,"Doe, ""JJ""\nJr",,R10,')).toBe(true);
    expect(odd).toContain(",'-1 day,");
    expect(odd.endsWith(',pending,,,,,,,review\r\n')).toBe(true); // no usage, no earlier decision: 'review'
    expect(odd.split('\r\n')).toHaveLength(3);
    // Filter values travel as data, whatever they hold (on PostgreSQL they are written into the COPY statement).
    for (const evil of [`x'); DROP TABLE users; --`, `O'Brien\\`, '$1', `{"a","b"}`]) {
      const r = await fetch(server.url + `/api/risks/export?userId=${encodeURIComponent(evil)}&search=${encodeURIComponent(evil)}`, {
        headers: { cookie: admin.cookieHeader },
      });
      expect(r.status).toBe(200);
      expect((await r.text()).replace(/^\uFEFF/, '')).toBe(lines[0] + '\r\n');
    }
    expect(await server.app.deps.prisma.user.count()).toBeGreaterThan(0);
    expect((await fetch(server.url + '/api/risks/export?riskLevel=bogus', { headers: { cookie: admin.cookieHeader } })).status).toBe(400);
    // The dashboard's report is the same export over every row.
    const report = await fetch(server.url + '/api/reports/risk-report', { headers: { cookie: admin.cookieHeader } });
    expect(report.headers.get('content-disposition')).toMatch(/attachment/);
    const reportText = await report.text();
    // One line per reviewer decision, a row nobody decided once (see RISK_REPORT_EXTRA).
    const [counted] = await server.app.deps.prisma.$queryRaw<{ lines: number }[]>`
      SELECT count(*)::int AS lines FROM risk_rows r LEFT JOIN decisions v ON v.risk_row_id = r.id`;
    const expected = counted!.lines;
    expect(expected).toBeGreaterThan(7);
    expect(reportText.trim().split('\r\n').length).toBe(1 + expected);
    // The report carries the reviewers' decisions and who made them; Export Results, the admin's own.
    expect(reportText).toContain(b.email);
    expect(reportText).toContain(a.email);
    expect(await (await fetch(server.url + '/api/risks/export', { headers: { cookie: admin.cookieHeader } })).text()).not.toContain(b.email);
    // A reviewer's report: their rows and their own decisions, not another reviewer's on a shared role.
    const theirs = await (await fetch(server.url + '/api/reports/risk-report', { headers: { cookie: b.client.cookieHeader } })).text();
    expect(theirs).toContain(b.email);
    expect(theirs).not.toContain(a.email);
  });
});

describe('GraphQL', () => {
  it('exposes the same workflow: queue for administrators, assigned rows for reviewers, decisions by role, submit and recall', async () => {
    const q = await admin.gql(
      `{ riskQueue(filter: { search: "alice" }, first: 2) { totalCount pageNumber pageCount edges { node { id userName accessRiskId isHighRiskRule } } } }`,
    );
    expect(q.body.data.riskQueue).toMatchObject({ totalCount: 3, pageNumber: 1, pageCount: 2 });
    expect(q.body.data.riskQueue.edges[0].node).toMatchObject({ userName: 'Alice Jones', accessRiskId: 'R01', isHighRiskRule: true });
    expect((await b.client.gql('{ riskQueue { totalCount } }')).body.errors[0].extensions.code).toBe('FORBIDDEN');

    const mine = await b.client.gql(
      '{ assignedSummary { totalAssigned } assignedRisks(first: 10) { totalCount edges { node { id userId myDecision } } } submissionStatus { isSubmitted totalDecisions } }',
    );
    expect(mine.body.data.assignedSummary.totalAssigned).toBe(3);
    expect(mine.body.data.assignedRisks.edges.map((e: any) => e.node).every((r: any) => r.userId === 'U1')).toBe(true);

    // A reviewer cannot read a row that is not assigned, by guessing its global id: the answer is
    // null with no error and no __typename, exactly as for a row that does not exist.
    const foreign = Buffer.from(`RiskRow:${rows[4]}`).toString('base64');
    const missing = Buffer.from('RiskRow:999999999').toString('base64');
    for (const id of [foreign, missing]) {
      const g = await b.client.gql(`query($id: ID!) { node(id: $id) { __typename ... on RiskRow { userName } } }`, { id });
      expect(g.body).toEqual({ data: { node: null } });
      const only = await b.client.gql(`query($ids: [ID!]!) { nodes(ids: $ids) { __typename } }`, { ids: [id] });
      expect(only.body).toEqual({ data: { nodes: [null] } });
    }
    const own = mine.body.data.assignedRisks.edges[0].node.id;
    expect((await b.client.gql(`query($id: ID!) { node(id: $id) { __typename } }`, { id: own })).body).toEqual({ data: { node: { __typename: 'RiskRow' } } });
  });
});

describe('concurrency', () => {
  it('50 reviewers saving at once, on the same shared role, lose nothing and double nothing', async () => {
    const prisma = server.app.deps.prisma;
    const reviewers = await seedUsers(prisma, 50, 'reviewer', 'Conc#Pass1');
    await prisma.assignmentCriteria.createMany({
      data: reviewers.map((r) => ({ name: 'USER ID: U1', reviewerId: r.id, criteriaType: 'user_id' as const, criteriaValue: 'U1' })),
    });
    const clients = await Promise.all(
      reviewers.map(async (r) => {
        const c = new Client(server.url);
        const res = await c.login(r.email, 'Conc#Pass1');
        if (res.status !== 200) throw new Error(JSON.stringify(res.body));
        return c;
      }),
    );
    const results = await Promise.all(
      clients.map((c, i) =>
        Promise.all([
          c.post('/api/reviews/decisions', { decisions: [{ userId: 'U1', compositeBusinessRole: 'COMP_FIN', decision: i % 2 ? 'retain' : 'remove' }] }),
          c.post('/api/reviews/decision', { riskDefinitionId: Number(rows[2]), decision: 'remove' }),
          c.post('/api/reviews/decision', { riskDefinitionId: Number(rows[2]), decision: 'retain' }),
        ]),
      ),
    );
    for (const r of results.flat()) expect(r.status).toBe(200);
    const ids = reviewers.map((r) => r.id);
    const count = await prisma.decision.count({ where: { reviewerId: { in: ids } } });
    expect(count).toBe(50 * 3);
    const byReviewer = await prisma.decision.groupBy({
      by: ['reviewerId'],
      where: { reviewerId: { in: ids }, riskRowId: { in: [rows[0]!, rows[1]!] } },
      _count: true,
    });
    expect(byReviewer.every((g) => g._count === 2)).toBe(true);
  }, 60_000);

  it('a submit racing a save leaves a consistent set: the submission counts exactly the decisions it locked', async () => {
    const prisma = server.app.deps.prisma;
    const [r] = await seedUsers(prisma, 1, 'reviewer', 'Race#Pass1');
    await prisma.assignmentCriteria.create({ data: { name: 'x', reviewerId: r!.id, criteriaType: 'system', criteriaValue: 'SAP ERP' } });
    const c = new Client(server.url);
    await c.login(r!.email, 'Race#Pass1');
    await decide(c, rows[0]!, 'retain');
    const [save, submit] = await Promise.all([
      c.post('/api/reviews/decisions', {
        decisions: [
          { riskDefinitionId: Number(rows[1]), decision: 'remove' },
          { riskDefinitionId: Number(rows[2]), decision: 'remove' },
        ],
      }),
      c.post('/api/reviews/submit'),
    ]);
    expect(submit.status).toBe(200);
    const sub = await prisma.submission.findUniqueOrThrow({ where: { id: submit.body.submissionId } });
    const linked = await prisma.decision.count({ where: { submissionId: sub.id } });
    const total = await prisma.decision.count({ where: { reviewerId: r!.id } });
    expect(linked).toBe(sub.decisionCount);
    // Either the save landed before the submit (3 locked) or was refused after it (1 locked).
    if (save.status === 200) expect(total).toBe(linked);
    else {
      expect(save.status).toBe(409);
      expect(total).toBe(1);
    }
  });
});
