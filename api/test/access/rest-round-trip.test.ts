// An administrator's tool takes the engine from a rule set to conflicts.csv
// through REST alone: upload the rule set, load a system's extract, start an
// analysis, follow it, download its rows in the risk report's columns (which
// Data Upload reads back), and after a new extract see what the next run
// added and removed. GraphQL reads the same runs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, startServer, type Client, type TestServer } from '../helpers/server.js';
import { loadExport } from '../helpers/upload.js';
import { until, wsClient } from '../helpers/ws.js';
import { PAY_ROLE, POST_ROLE, assign, pairRules, user } from './support/fixtures.js';
import { postZip, readCsv, settle } from './support/edge.js';
import { estate } from './support/fixtures.js';

let server: TestServer;
let admin: Client;
beforeAll(async () => {
  server = await startServer();
  admin = await adminClient(server);
}, 60_000);
afterAll(async () => server?.close());

const names = { USER_ADDR: [{ BNAME: 'ALICE', NAME_FIRST: 'Alice', NAME_LAST: 'Adams' }], AGR_TEXTS: [{ AGR_NAME: 'Z_POST', TEXT: 'Post journal entries' }] };
const usage = { USAGE: [{ BNAME: 'ALICE', TCODE: 'FB01', COUNT: '7', LAST_USED: '20260612' }] };

describe('the access engine through REST', () => {
  it('goes from a rule set upload through an extract and an analysis to conflicts.csv, and counts what a second run added and removed', async () => {
    const set = await postZip(server, admin, '/api/rule-sets', pairRules(), { name: 'Global SoD' });
    expect(set.status).toBe(201);
    expect(set.body).toMatchObject({ name: 'Global SoD', version: 1, active: true, risks: 1, functions: 2, actions: 2, permissions: 2 });
    expect((await admin.get('/api/rule-sets')).body.map((s: { id: string }) => s.id)).toContain(set.body.id);

    // ALICE holds both functions of R1; BOB only the posting one.
    const first = await postZip(
      server,
      admin,
      '/api/systems/PRD-ECC/extracts',
      estate({
        USR02: [user('ALICE'), user('BOB')],
        AGR_USERS: [assign('ALICE', 'Z_POST'), assign('ALICE', 'Z_PAY'), assign('BOB', 'Z_POST')],
        AGR_1251: [...POST_ROLE, ...PAY_ROLE],
        ...names,
        ...usage,
      }),
    );
    expect(first).toMatchObject({ status: 202, body: { status: 'processing' } });
    const loaded = await settle(admin, `/api/systems/PRD-ECC/extracts/${first.body.id}`);
    expect(loaded).toMatchObject({ id: first.body.id, status: 'completed', errorMessage: null, users: 2, roles: 2, assignments: 3, authorizations: 3 });

    const started = await admin.post('/api/analyses', { ruleSetId: set.body.id, asOf: '2026-06-30' });
    expect(started.status).toBe(202);
    const run = await settle(admin, `/api/analyses/${started.body.id}`);
    expect(run).toMatchObject({
      status: 'completed',
      systems: ['PRD-ECC'],
      asOf: '2026-06-30',
      conflicts: 1,
      rows: 3,
      users: 1,
      exercised: 0,
      added: 1,
      removed: 0,
      errorMessage: null,
    });
    expect(run.finishedAt).not.toBeNull();

    const csv = await admin.get(`/api/analyses/${run.id}/conflicts.csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect(csv.headers.get('x-total-rows')).toBe('3');
    const { header, rows } = readCsv(csv.body as string);
    expect(header.slice(0, 8)).toEqual(['User ID', 'User Name', 'User Group', 'Access Risk ID', 'Risk Description', 'Risk Level', 'Risk Type', 'Rule ID']);
    expect(header).toEqual(
      expect.arrayContaining([
        'Function',
        'System',
        'Action',
        'Role/Profile',
        'Composite/Business Role',
        'Resource',
        'Resource Extn',
        'Value From',
        'Value To',
        'Execution Count',
        'Last Executed On',
      ]),
    );
    expect(rows).toHaveLength(3);
    expect(rows.find((r) => r['Resource Extn'] === 'BUKRS')).toMatchObject({
      'User ID': 'ALICE',
      'User Name': 'Alice Adams',
      'User Group': 'FIN',
      'Access Risk ID': 'R1',
      'Risk Description': 'Risk R1',
      'Risk Level': 'High',
      'Risk Type': 'Segregation of Duties',
      'Rule ID': 'R10001',
      'Business Process': 'FI',
      Function: 'F1',
      'Function Description': 'Function F1',
      System: 'PRD-ECC',
      Action: 'FB01',
      'Action Description': 'Run FB01',
      Resource: 'F_BKPF_BUK',
      'Value From': '1000',
      'Role/Profile': 'Z_POST',
      'Role/Profile Description': 'Post journal entries',
      'Composite/Business Role': '',
      'Execution Count': '7',
      'Last Executed On': '2026-06-12',
    });

    // The file loads back through Data Upload as it is.
    const uploadId = await loadExport(server, admin, csv.body as string, { name: 'conflicts.csv' });
    expect((await admin.get(`/api/upload-status/${uploadId}`)).body).toMatchObject({ status: 'completed', recordCount: 3, warnings: [] });

    // A new extract: ALICE no longer pays, BOB now does. The second run of the same version counts against the first.
    const second = await postZip(
      server,
      admin,
      '/api/systems/PRD-ECC/extracts',
      estate({
        USR02: [user('ALICE'), user('BOB')],
        AGR_USERS: [assign('ALICE', 'Z_POST'), assign('BOB', 'Z_POST'), assign('BOB', 'Z_PAY')],
        AGR_1251: [...POST_ROLE, ...PAY_ROLE],
      }),
    );
    expect((await settle(admin, `/api/systems/PRD-ECC/extracts/${second.body.id}`)).status).toBe('completed');
    const again = await admin.post('/api/analyses', { ruleSetId: set.body.id, systems: ['PRD-ECC'], asOf: '2026-06-30' });
    expect(await settle(admin, `/api/analyses/${again.body.id}`)).toMatchObject({ status: 'completed', conflicts: 1, added: 1, removed: 1 });
    const rerun = readCsv((await admin.get(`/api/analyses/${again.body.id}/conflicts.csv`)).body as string);
    expect([...new Set(rerun.rows.map((r) => r['User ID']))]).toEqual(['BOB']);

    // GraphQL reads the same runs: counts, and the conflicts filtered.
    const g = await admin.gql(
      `query($by: ID) { accessAnalyses(ruleSetId: $by, first: 5) { totalCount edges { node { status conflictCount addedCount removedCount
         latent: conflicts(exercised: false) { totalCount edges { node { userId riskId systems rows { role action } } } }
         other: conflicts(system: "S4") { totalCount } } } } }`,
      { by: (await admin.gql('{ accessRuleSets(name: "Global SoD") { id } }')).body.data.accessRuleSets[0].id },
    );
    expect(g.body.errors).toBeUndefined();
    const [newest, oldest] = g.body.data.accessAnalyses.edges.map((e: { node: unknown }) => e.node);
    expect(g.body.data.accessAnalyses.totalCount).toBe(2);
    expect(newest).toMatchObject({ status: 'COMPLETED', conflictCount: 1, addedCount: 1, removedCount: 1, other: { totalCount: 0 } });
    expect(newest.latent.edges.map((e: { node: unknown }) => e.node)).toEqual([
      { userId: 'BOB', riskId: 'R1', systems: ['PRD-ECC'], rows: expect.arrayContaining([{ role: 'Z_PAY', action: 'F-53' }]) },
    ]);
    expect(oldest.latent.edges[0].node.userId).toBe('ALICE');
  });

  it('tells a subscriber where an extract and a run stand, then each change, ending with completed', async () => {
    const ws = wsClient(server.url, admin.cookieHeader);
    const follow = (gid: string) => {
      const events: any[] = [];
      const state = { ended: false };
      ws.subscribe(
        { query: `subscription { accessProgress(id: "${gid}") { id status progress errorMessage } }` },
        { next: (v) => events.push(v.data?.accessProgress ?? v.errors), error: (e) => events.push(e), complete: () => (state.ended = true) },
      );
      return { events, state };
    };
    const x = await postZip(
      server,
      admin,
      '/api/systems/QAS/extracts',
      estate({ USR02: [user('ALICE')], AGR_USERS: [assign('ALICE', 'Z_PAY')], AGR_1251: [...PAY_ROLE] }),
    );
    const extractGid = Buffer.from(`AccessExtract:${x.body.id}`).toString('base64');
    const extract = follow(extractGid);
    await until(() => extract.state.ended, 60_000);
    expect(extract.events.at(-1)).toEqual({ id: extractGid, status: 'COMPLETED', progress: 100, errorMessage: null });
    const seen = extract.events.map((e) => e.progress);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));

    const ruleSetId = (await admin.get('/api/rule-sets')).body[0].id;
    const run = await admin.post('/api/analyses', { ruleSetId, systems: ['QAS'], asOf: '2026-06-30' });
    const runGid = Buffer.from(`AccessAnalysis:${run.body.id}`).toString('base64');
    const analysis = follow(runGid);
    await until(() => analysis.state.ended, 60_000);
    expect(analysis.events.at(-1)).toEqual({ id: runGid, status: 'COMPLETED', progress: 100, errorMessage: null });
    // Whoever subscribes after the end is told where it stands at once.
    const late = follow(runGid);
    await until(() => late.state.ended, 10_000);
    expect(late.events).toEqual([{ id: runGid, status: 'COMPLETED', progress: 100, errorMessage: null }]);
    await ws.dispose();
  });

  it("pages a run's conflicts by user then risk in GraphQL, with filters by user, risk and exercised", async () => {
    const set = await postZip(server, admin, '/api/rule-sets', pairRules(), { name: 'Paging' });
    const users = ['CARL', 'ALICE', 'BOB'];
    const x = await postZip(
      server,
      admin,
      '/api/systems/PAG/extracts',
      estate({
        USR02: users.map((u) => user(u)),
        AGR_USERS: users.flatMap((u) => [assign(u, 'Z_POST'), assign(u, 'Z_PAY')]),
        AGR_1251: [...POST_ROLE, ...PAY_ROLE],
        // BOB ran an action of both functions: his conflict is exercised.
        USAGE: [
          { BNAME: 'BOB', TCODE: 'FB01', COUNT: '2', LAST_USED: '20260601' },
          { BNAME: 'BOB', TCODE: 'F-53', COUNT: '1', LAST_USED: '20260601' },
        ],
      }),
    );
    await settle(admin, `/api/systems/PAG/extracts/${x.body.id}`);
    const run = await admin.post('/api/analyses', { ruleSetId: set.body.id, systems: ['PAG'], asOf: '2026-06-30' });
    expect(await settle(admin, `/api/analyses/${run.body.id}`)).toMatchObject({ conflicts: 3, exercised: 1 });
    const gid = Buffer.from(`AccessAnalysis:${run.body.id}`).toString('base64');
    const page = async (args: string) => {
      const r = await admin.gql(
        `{ node(id: "${gid}") { ... on AccessAnalysis { conflicts(${args}) { totalCount pageInfo { hasNextPage hasPreviousPage endCursor startCursor } edges { node { userId exercised } } } } } }`,
      );
      expect(r.body.errors).toBeUndefined();
      const c = r.body.data.node.conflicts;
      return { ...c, users: c.edges.map((e: { node: { userId: string } }) => e.node.userId) };
    };
    const first = await page('first: 2');
    expect(first).toMatchObject({ totalCount: 3, users: ['ALICE', 'BOB'], pageInfo: { hasNextPage: true } });
    const next = await page(`first: 2, after: "${first.pageInfo.endCursor}"`);
    expect(next).toMatchObject({ users: ['CARL'], pageInfo: { hasNextPage: false } });
    expect((await page(`last: 1, before: "${next.pageInfo.startCursor}"`)).users).toEqual(['BOB']);
    expect(await page('exercised: true')).toMatchObject({ totalCount: 1, users: ['BOB'] });
    expect(await page('exercised: false')).toMatchObject({ totalCount: 2, users: ['ALICE', 'CARL'] });
    expect(await page('userId: "CARL", riskId: "R1"')).toMatchObject({ totalCount: 1, users: ['CARL'] });
    expect(await page('riskId: "R9"')).toMatchObject({ totalCount: 0, users: [] });
    const bad = await admin.gql(`{ node(id: "${gid}") { ... on AccessAnalysis { conflicts(after: "not-a-cursor") { totalCount } } } }`);
    expect(bad.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });
});
