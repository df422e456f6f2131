// A run's results as an administrator reads them: what changed against the
// previous run of the same rule set version (new, resolved, unchanged), the
// conflicts as a workbook that Data Upload reads back to the same rows as the
// CSV, and a rule set version browsed risk by risk and downloaded as a .zip
// that uploads again with the same counts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, startServer, type Client, type TestServer } from '../helpers/server.js';
import { postUpload, settleUpload } from '../helpers/upload.js';
import { PAY_ROLE, POST_ROLE, act, assign, estate, pairRules, perm, rf, risk, user } from './support/fixtures.js';
import { postZip, settle } from './support/edge.js';

let server: TestServer;
let admin: Client;
beforeAll(async () => {
  server = await startServer();
  admin = await adminClient(server);
}, 60_000);
afterAll(async () => server?.close());

const gidOf = (id: string) => Buffer.from(`AccessAnalysis:${id}`).toString('base64');
const both = (u: string) => [assign(u, 'Z_POST'), assign(u, 'Z_PAY')];

async function analyse(ruleSetId: string, system: string, users: string[], holders: string[]) {
  const x = await postZip(
    server,
    admin,
    `/api/systems/${system}/extracts`,
    estate({ USR02: users.map((u) => user(u)), AGR_USERS: holders.flatMap(both), AGR_1251: [...POST_ROLE, ...PAY_ROLE] }),
  );
  expect((await settle(admin, `/api/systems/${system}/extracts/${x.body.id}`)).status).toBe('completed');
  const started = await admin.post('/api/analyses', { ruleSetId, systems: [system], asOf: '2026-06-30' });
  return settle(admin, `/api/analyses/${started.body.id}`);
}

const CHANGES = `query($id: ID!) { node(id: $id) { ... on AccessAnalysis {
  changes { newCount resolvedCount unchangedCount } previousRun { id }
  new: conflicts(change: NEW) { totalCount edges { node { userId rows { role } } } }
  resolved: conflicts(change: RESOLVED) { totalCount edges { node { userId rows { role } } } }
  unchanged: conflicts(change: UNCHANGED) { totalCount edges { node { userId } } }
  resolvedOfBob: conflicts(change: RESOLVED, userId: "BOB") { totalCount } } } }`;
const users = (c: { edges: { node: { userId: string } }[] }) => c.edges.map((e) => e.node.userId);

describe('what changed against the previous run of the same rule set version', () => {
  it('lists a run’s conflicts as new, resolved (from the previous run, with its rows) and unchanged, with their counts', async () => {
    const set = await postZip(server, admin, '/api/rule-sets', pairRules(), { name: 'Changes' });
    const first = await analyse(set.body.id, 'CHG', ['ALICE', 'BOB', 'CARL'], ['ALICE', 'BOB']);
    const r1 = await admin.gql(CHANGES, { id: gidOf(first.id) });
    expect(r1.body.errors).toBeUndefined();
    // A first run: everything is new, nothing to compare against.
    expect(r1.body.data.node).toMatchObject({
      changes: { newCount: 2, resolvedCount: 0, unchangedCount: 0 },
      previousRun: null,
      resolved: { totalCount: 0, edges: [] },
      unchanged: { totalCount: 0 },
    });
    expect(users(r1.body.data.node.new)).toEqual(['ALICE', 'BOB']);

    // ALICE loses her roles, CARL gains them, BOB keeps them.
    const second = await analyse(set.body.id, 'CHG', ['ALICE', 'BOB', 'CARL'], ['BOB', 'CARL']);
    const r2 = (await admin.gql(CHANGES, { id: gidOf(second.id) })).body.data.node;
    expect(r2.changes).toEqual({ newCount: 1, resolvedCount: 1, unchangedCount: 1 });
    expect(r2.previousRun).toEqual({ id: gidOf(first.id) });
    expect(users(r2.new)).toEqual(['CARL']);
    expect(users(r2.unchanged)).toEqual(['BOB']);
    // ALICE's conflict is read from the first run: its rows are there although this run has none of hers.
    expect(users(r2.resolved)).toEqual(['ALICE']);
    expect(r2.resolved.edges[0].node.rows.map((r: { role: string }) => r.role)).toEqual(expect.arrayContaining(['Z_POST', 'Z_PAY']));
    // The other filters narrow each list too.
    expect(r2.resolvedOfBob.totalCount).toBe(0);
    // The counts agree with the run's added / removed.
    expect(second).toMatchObject({ added: 1, removed: 1 });
  });
});

/** Rows of an upload as the review reads them, without what differs per upload. */
async function loadedRows(uploadId: string) {
  const rows = await server.app.deps.prisma.riskRow.findMany({ where: { uploadId }, orderBy: { id: 'asc' } });
  return rows.map(({ id: _id, uploadId: _u, createdAt: _c, updatedAt: _m, ...r }: Record<string, unknown>) => r);
}

async function upload(name: string, content: Buffer | string) {
  const { body } = await postUpload(server, admin, name, content, { uploadMode: 'replace', emailNotification: 'false' });
  const status = await settleUpload(admin, body.uploadId);
  expect(status, JSON.stringify(status)).toMatchObject({ status: 'completed', warnings: [] });
  return body.uploadId as string;
}

describe('a run’s conflicts as a workbook', () => {
  it('downloads conflicts.xlsx in the CSV’s columns, and Data Upload loads it to the same rows as the CSV', async () => {
    const set = await postZip(server, admin, '/api/rule-sets', pairRules(), { name: 'Workbook' });
    const x = await postZip(
      server,
      admin,
      '/api/systems/XLS/extracts',
      estate({
        USR02: [user('ALICE'), user('BOB')],
        AGR_USERS: [...both('ALICE'), ...both('BOB')],
        AGR_1251: [...POST_ROLE, ...PAY_ROLE],
        USER_ADDR: [{ BNAME: 'ALICE', NAME_FIRST: 'Alice', NAME_LAST: 'Adams' }],
        USAGE: [{ BNAME: 'BOB', TCODE: 'FB01', COUNT: '7', LAST_USED: '20260612' }],
      }),
    );
    await settle(admin, `/api/systems/XLS/extracts/${x.body.id}`);
    const started = await admin.post('/api/analyses', { ruleSetId: set.body.id, systems: ['XLS'], asOf: '2026-06-30' });
    const run = await settle(admin, `/api/analyses/${started.body.id}`);
    expect(run).toMatchObject({ status: 'completed', rows: 6 });

    const res = await fetch(`${server.url}/api/analyses/${run.id}/conflicts.xlsx`, { headers: { cookie: admin.cookieHeader } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="conflicts-${run.id}.xlsx"`);
    expect(res.headers.get('x-total-rows')).toBe('6');
    const xlsx = Buffer.from(await res.arrayBuffer());
    expect(xlsx.subarray(0, 2).toString()).toBe('PK');
    const csv = (await admin.get(`/api/analyses/${run.id}/conflicts.csv`)).body as string;

    const fromXlsx = await loadedRows(await upload('conflicts.xlsx', xlsx));
    const fromCsv = await loadedRows(await upload('conflicts.csv', csv));
    expect(fromXlsx).toHaveLength(6);
    expect(fromXlsx).toEqual(fromCsv);
    expect(fromXlsx.find((r) => r.userId === 'ALICE')).toMatchObject({ userName: 'Alice Adams', accessRiskId: 'R1', system: 'XLS' });
    expect(fromXlsx.find((r) => r.userId === 'BOB' && r.action === 'FB01')).toMatchObject({ executionCount: 7 });

    // A run that does not exist has no file.
    expect((await admin.get('/api/analyses/00000000-0000-4000-8000-000000000000/conflicts.xlsx')).status).toBe(404);
  });
});

const BROWSE = `query($id: ID!, $after: String) { node(id: $id) { ... on AccessRuleSet { risks
  riskList(first: 1, after: $after) { totalCount pageInfo { hasNextPage endCursor } edges { node { riskId level type enabled
    functions { functionId scope actions { system action enabled permissions { object field valueFrom valueTo enabled } } } } } } } } }`;

describe('a rule set version browsed and downloaded', () => {
  it('lists risks a page at a time with their functions, actions and permissions, disabled rows marked', async () => {
    const files = pairRules({
      risks: [
        risk('R1'),
        { 'Access Risk ID': 'R0', 'Risk Description': 'Pay', 'Risk Level': 'Low', 'Risk Type': 'A', 'Business Process': 'FI', Status: 'Disabled' },
      ],
      risk_functions: [rf('R1', 'F1'), rf('R1', 'F2'), rf('R0', 'F2')],
      function_actions: [act('F1', 'FB01'), act('F2', 'F-53'), act('F2', 'F-58', 'PRD', 'Disabled')],
      function_permissions: [perm('F1', 'FB01', 'F_BKPF_BUK', 'BUKRS', '1000', '1999'), perm('F1', 'FB01', 'F_BKPF_BUK', 'ACTVT', '01', '', 'Disabled')],
    });
    const set = await postZip(server, admin, '/api/rule-sets', files, { name: 'Browse' });
    expect(set.status, JSON.stringify(set.body)).toBe(201);
    const id = Buffer.from(`AccessRuleSet:${set.body.id}`).toString('base64');
    const p1 = await admin.gql(BROWSE, { id });
    expect(p1.body.errors).toBeUndefined();
    const list1 = p1.body.data.node.riskList;
    expect(list1.totalCount).toBe(2);
    expect(list1.edges[0].node).toEqual({
      riskId: 'R0',
      level: 'Low',
      type: 'A',
      enabled: false,
      functions: [
        {
          functionId: 'F2',
          scope: 'Single',
          actions: [
            { system: '', action: 'F-53', enabled: true, permissions: [] },
            { system: 'PRD', action: 'F-58', enabled: false, permissions: [] },
          ],
        },
      ],
    });
    const p2 = (await admin.gql(BROWSE, { id, after: list1.pageInfo.endCursor })).body.data.node.riskList;
    expect(p2.pageInfo.hasNextPage).toBe(false);
    expect(p2.edges[0].node).toMatchObject({ riskId: 'R1', enabled: true });
    expect(p2.edges[0].node.functions.map((f: { functionId: string }) => f.functionId)).toEqual(['F1', 'F2']);
    expect(p2.edges[0].node.functions[0].actions[0].permissions).toEqual([
      { object: 'F_BKPF_BUK', field: 'BUKRS', valueFrom: '1000', valueTo: '1999', enabled: true },
      { object: 'F_BKPF_BUK', field: 'ACTVT', valueFrom: '01', valueTo: '', enabled: false },
    ]);
    const bad = await admin.gql(BROWSE, { id, after: 'not-a-cursor' });
    expect(bad.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });

  it('downloads a version as a .zip in the upload’s layout, which uploads again as the next version with the same counts', async () => {
    const files = pairRules({
      function_actions: [act('F1', 'FB01'), act('F2', 'F-53'), act('F2', 'F-58', 'PRD', 'Disabled')],
      function_permissions: [perm('F1', 'FB01', 'F_BKPF_BUK', 'BUKRS', '1000', '1999'), perm('F1', 'FB01', 'F_BKPF_BUK', 'ACTVT', '01', '', 'Disabled')],
      business_processes: [{ 'Business Process': 'FI', Description: 'Finance, "general" ledger' }],
    });
    const set = await postZip(server, admin, '/api/rule-sets', files, { name: 'Round trip' });
    expect(set.body).toMatchObject({ version: 1, risks: 1, functions: 2, actions: 2, permissions: 1 });
    const res = await fetch(`${server.url}/api/rule-sets/${set.body.id}/file`, { headers: { cookie: admin.cookieHeader } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="Round-trip-v1.zip"');
    const zip = Buffer.from(await res.arrayBuffer());

    const form = new FormData();
    form.append('name', 'Round trip');
    form.append('file', new Blob([new Uint8Array(zip)]), 'Round-trip-v1.zip');
    const again = await fetch(`${server.url}/api/rule-sets`, { method: 'POST', body: form, headers: { cookie: admin.cookieHeader } });
    const v2 = (await again.json()) as Record<string, unknown>;
    expect(again.status, JSON.stringify(v2)).toBe(201);
    expect(v2).toMatchObject({ name: 'Round trip', version: 2, active: false, risks: 1, functions: 2, actions: 2, permissions: 1 });
    // Row for row the same, disabled rows and descriptions included.
    const prisma = server.app.deps.prisma;
    const rowsOf = async (ruleSetId: string) => ({
      actions: (await prisma.accessFunctionAction.findMany({ where: { ruleSetId }, orderBy: { line: 'asc' } })).map(({ ruleSetId: _r, ...a }) => a),
      permissions: (await prisma.accessFunctionPermission.findMany({ where: { ruleSetId }, orderBy: { line: 'asc' } })).map(({ ruleSetId: _r, ...p }) => p),
      processes: (await prisma.accessBusinessProcess.findMany({ where: { ruleSetId } })).map(({ ruleSetId: _r, ...p }) => p),
    });
    expect(await rowsOf(v2.id as string)).toEqual(await rowsOf(set.body.id));
    expect((await admin.get('/api/rule-sets/00000000-0000-4000-8000-000000000000/file')).status).toBe(404);
  });
});
