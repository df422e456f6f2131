// Auditor evidence of a review period (GET /api/reports/evidence, GraphQL
// periodEvidence): the final decisions with who decided and approved, the
// audit trail, the scope (uploads with checksums) and a summary, as XLSX
// (several sheets) and CSV; frozen when the period closes, so a download
// after later activity (a replacing upload, a new period) is the same.
import crypto from 'node:crypto';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, adminClient, startServer, userClient, type TestServer, type UserClient } from '../helpers/server.js';
import { loadExport } from '../helpers/upload.js';
import { decisionRecordsSql, liveDecisionRecords } from '../../src/services/reports/decision-records.js';
import { holdersOf } from '../../src/services/holds.js';

let server: TestServer;
let admin: Client;
let a: UserClient;
let periodId: string;
const FORMULA = '=HYPERLINK("http://evil.example","click")';

const HEADER = 'User ID,User Name,Access Risk ID,Risk Description,Risk Level,Rule ID,System,Role/Profile\r\n';
const FIRST =
  HEADER +
  'U1,Alice Jones,R01,Pay vendors,High,0301,SAP ERP,Z_AP_CLERK\r\nU1,Alice Jones,R02,Post journals,Medium,0102,SAP ERP,Z_GL\r\nU2,Bob Smith,R03,Payroll,Low,0101,Workday,HR_ADMIN\r\n';
const SECOND = HEADER + 'U9,Zed Young,R09,Other,High,0301,SAP ERP,Z_OTHER\r\n';

const upload = (content: string, mode: 'append' | 'replace') => loadExport(server, admin, content, { mode, name: `export-${mode}.csv` });

async function download(format: 'xlsx' | 'csv', id = periodId) {
  const res = await fetch(`${server.url}/api/reports/evidence?periodId=${id}&format=${format}`, { headers: { cookie: admin.cookieHeader } });
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    disposition: res.headers.get('content-disposition'),
    body: Buffer.from(await res.arrayBuffer()),
  };
}

/** Every sheet's values, as text, row by row. */
async function sheets(buf: Buffer) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(buf as unknown as ArrayBuffer);
  const out: Record<string, string[][]> = {};
  const formulas: string[] = [];
  wb.eachSheet((ws) => {
    const rows: string[][] = [];
    ws.eachRow((row) => {
      const cells: string[] = [];
      row.eachCell({ includeEmpty: true }, (c) => {
        if (c.type === ExcelJS.ValueType.Formula) formulas.push(c.address);
        cells.push(c.value == null ? '' : String(c.value));
      });
      rows.push(cells);
    });
    out[ws.name] = rows;
  });
  return { out, formulas };
}

beforeAll(async () => {
  server = await startServer();
  admin = await adminClient(server);
  a = await userClient(server, admin);
  await upload(FIRST, 'replace');
  expect((await admin.post('/api/assignment-criteria', { reviewerId: a.user.id, criteriaType: 'system', criteriaValue: 'SAP ERP' })).status).toBe(201);
  periodId = (await admin.post('/api/review-periods', { name: 'Q4 2026 SoD review' })).body.id;
  const rows = (await a.client.get('/api/assigned-risks')).body.risks as { id: number; accessRiskId: string }[];
  const id = (risk: string) => rows.find((r) => r.accessRiskId === risk)!.id;
  expect(
    (
      await a.client.post('/api/reviews/decisions', {
        decisions: [
          { riskDefinitionId: id('R01'), decision: 'retain', comments: FORMULA },
          { riskDefinitionId: id('R02'), decision: 'remove', comments: 'Not needed' },
        ],
      })
    ).status,
  ).toBe(200);
  expect((await a.client.post('/api/reviews/submit')).status).toBe(200);
  const sub = (await admin.get('/api/submissions')).body[0];
  expect((await admin.put(`/api/submissions/${sub.id}/approve`)).status).toBe(200);
  expect((await admin.put(`/api/review-periods/${periodId}/close`)).status).toBe(200);
});
afterAll(async () => server?.close());

describe('auditor evidence', () => {
  it('is an XLSX with Summary, Decisions, Audit Trail and Scope, no live formula anywhere', async () => {
    const x = await download('xlsx');
    expect(x.status).toBe(200);
    expect(x.type).toContain('spreadsheetml');
    expect(x.disposition).toMatch(/attachment; filename="evidence-Q4-2026-SoD-review-\d{4}-\d{2}-\d{2}\.xlsx"/);
    const { out, formulas } = await sheets(x.body);
    expect(Object.keys(out)).toEqual(['Summary', 'Decisions', 'Audit Trail', 'Scope']);
    expect(formulas).toEqual([]);
    const summary = Object.fromEntries(out.Summary!.slice(1).map(([k, v]) => [k, v]));
    expect(summary).toMatchObject({
      'Review period': 'Q4 2026 SoD review',
      Status: 'closed',
      'Final decisions': '2',
      Retained: '1',
      Removed: '1',
      'Decisions approved': '2',
    });
    const [head, ...decisions] = out.Decisions!;
    const col = (name: string) => head!.indexOf(name);
    expect(decisions.map((d) => [d[col('Access Risk ID')], d[col('Decision')], d[col('Submission')]])).toEqual([
      ['R01', 'retain', 'approved'],
      ['R02', 'remove', 'approved'],
    ]);
    expect(decisions[0]![col('Comments')]).toBe(FORMULA);
    expect(decisions[0]![col('Decided By')]).toContain(a.email);
    expect(decisions[0]![col('Approved By')]).toContain('admin@example.com');
    const actions = out['Audit Trail']!.slice(1).map((r) => r[3]);
    expect(actions).toEqual(expect.arrayContaining(['period.created', 'decision.changed', 'submission.submitted', 'submission.approved', 'period.closed']));
    const scope = out.Scope!;
    expect(scope[1]![scope[0]!.indexOf('File SHA-256')]).toBe(crypto.createHash('sha256').update(FIRST).digest('hex'));
    expect(scope[1]![scope[0]!.indexOf('Rows Loaded')]).toBe('3');
  });

  it('is a CSV of the same parts with formulas neutralised', async () => {
    const c = await download('csv');
    expect(c.status).toBe(200);
    const text = c.body.toString('utf8');
    expect(text.startsWith('\uFEFFSummary\r\n')).toBe(true);
    for (const title of ['\r\nDecisions\r\n', '\r\nAudit Trail\r\n', '\r\nScope\r\n']) expect(text).toContain(title);
    expect(text).toContain(`"'=HYPERLINK(""http://evil.example"",""click"")"`);
    expect(text).not.toMatch(/(^|,)=HYPERLINK/m);
  });

  it('never changes after the close, whatever happens later', async () => {
    const csvBefore = (await download('csv')).body;
    const xlsxBefore = await sheets((await download('xlsx')).body);
    // Later activity: a new period, a replacing upload (the decided rows are gone), a decision in the new period.
    expect((await admin.post('/api/review-periods', { name: 'Q1 2027' })).status).toBe(201);
    await upload(SECOND, 'replace');
    expect((await admin.post('/api/assignment-criteria', { reviewerId: a.user.id, criteriaType: 'user_id', criteriaValue: 'U9' })).status).toBe(201);
    const row = (await a.client.get('/api/assigned-risks')).body.risks[0];
    expect((await a.client.post('/api/reviews/decision', { riskDefinitionId: row.id, decision: 'remove' })).status).toBe(200);
    await admin.put('/api/users/' + a.user.id, { firstName: 'Renamed' });

    expect((await download('csv')).body.equals(csvBefore)).toBe(true);
    expect(await sheets((await download('xlsx')).body)).toEqual(xlsxBefore);
  });

  it('is served over GraphQL, and refused to reviewers, for unknown periods and formats', async () => {
    const list = await admin.gql(`{ reviewPeriods(first: 5) { edges { node { id name } } } }`);
    const gid = list.body.data.reviewPeriods.edges.find((e: any) => e.node.name === 'Q4 2026 SoD review').node.id;
    const g = await admin.gql(
      `query($id: ID!) { periodEvidence(periodId: $id) { periodName frozen decisionCount removed approvedDecisions uploads { originalName recordCount sha256 } decisions { accessRiskId decision approvedBy } xlsxUrl } }`,
      { id: gid },
    );
    expect(g.body.errors).toBeUndefined();
    expect(g.body.data.periodEvidence).toMatchObject({ periodName: 'Q4 2026 SoD review', frozen: true, decisionCount: 2, removed: 1, approvedDecisions: 2 });
    expect(g.body.data.periodEvidence.decisions.map((d: any) => d.accessRiskId)).toEqual(['R01', 'R02']);
    expect(g.body.data.periodEvidence.uploads[0]).toMatchObject({ originalName: 'export-replace.csv', recordCount: 3 });

    const reviewer = await fetch(`${server.url}/api/reports/evidence?periodId=${periodId}`, { headers: { cookie: a.client.cookieHeader } });
    expect(reviewer.status).toBe(403);
    expect((await download('csv', crypto.randomUUID())).status).toBe(404);
    expect((await admin.get(`/api/reports/evidence?periodId=${periodId}&format=pdf`)).status).toBe(400);
    expect((await admin.get(`/api/reports/evidence`)).status).toBe(400);
  });

  it('of a period still open is read page by page in the one order, every decision once', async () => {
    const db = server.app.deps.prisma;
    // The period opened after the close ('Q1 2027'): a's rows of U9 and three more, all decided.
    await upload(HEADER + ['R21', 'R22', 'R23'].map((r) => `U9,Zed Young,${r},Other,High,0301,SAP ERP,Z_${r}`).join('\r\n') + '\r\n', 'append');
    const open = (await db.reviewPeriod.findFirst({ where: { status: 'active' } }))!;
    const mine = (await a.client.get('/api/assigned-risks')).body.risks as { id: number }[];
    const decided = await a.client.post('/api/reviews/decisions', { decisions: mine.map((r) => ({ riskDefinitionId: r.id, decision: 'retain' })) });
    expect(decided.status).toBe(200);
    const holders = await holdersOf(db, null);
    const whole = await db.$queryRaw<{ record: { riskRowId: string; reviewerId: string } }[]>`
      SELECT x.record FROM (${decisionRecordsSql(open.id, holders)}) x ORDER BY x.seq`;
    expect(whole.length).toBe(4);
    // Pages of one record, the order's keys walked one at a time: each page resumes after the last.
    const paged: { riskRowId: unknown; reviewerId: unknown }[] = [];
    for await (const page of liveDecisionRecords(db, open.id, holders, 1, 1))
      paged.push(...page.map((r) => ({ riskRowId: r.riskRowId, reviewerId: r.reviewerId })));
    expect(paged).toEqual(whole.map((w) => ({ riskRowId: w.record.riskRowId, reviewerId: w.record.reviewerId })));
  });
});
