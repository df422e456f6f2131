// What the access engine's edge refuses, and how: every route and GraphQL
// field to anyone but an administrator (403), bad input with a 400 naming the
// field, what does not exist with 404, and a second run of a rule set while
// one is going with 409.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, startServer, userClient, type Client, type TestServer } from '../helpers/server.js';
import { PAY_ROLE, POST_ROLE, assign, estate, pairRules, user } from './support/fixtures.js';
import { postZip, settle } from './support/edge.js';

let server: TestServer;
let admin: Client;
let reviewer: Client;
let ruleSetId: string;
const NO_SUCH = '00000000-0000-4000-8000-000000000000';

beforeAll(async () => {
  server = await startServer();
  admin = await adminClient(server);
  reviewer = (await userClient(server, admin)).client;
  ruleSetId = (await postZip(server, admin, '/api/rule-sets', pairRules(), { name: 'Refusals' })).body.id;
  const x = await postZip(
    server,
    admin,
    '/api/systems/PRD/extracts',
    estate({ USR02: [user('ALICE')], AGR_USERS: [assign('ALICE', 'Z_POST'), assign('ALICE', 'Z_PAY')], AGR_1251: [...POST_ROLE, ...PAY_ROLE] }),
  );
  expect((await settle(admin, `/api/systems/PRD/extracts/${x.body.id}`)).status).toBe('completed');
}, 60_000);
afterAll(async () => server?.close());

describe('the access engine refuses', () => {
  it('every route and GraphQL field to a reviewer, with 403', async () => {
    const run = await admin.post('/api/analyses', { ruleSetId, asOf: '2026-06-30' });
    await settle(admin, `/api/analyses/${run.body.id}`);
    const calls: [string, () => Promise<{ status: number }>][] = [
      ['POST /api/rule-sets', () => postZip(server, reviewer, '/api/rule-sets', pairRules())],
      ['GET /api/rule-sets', () => reviewer.get('/api/rule-sets')],
      ['PUT /api/rule-sets/{id}/activate', () => reviewer.put(`/api/rule-sets/${ruleSetId}/activate`)],
      ['POST /api/systems/{system}/extracts', () => postZip(server, reviewer, '/api/systems/PRD/extracts', estate({ USR02: [user('X')] }))],
      ['GET /api/systems/{system}/extracts/{id}', () => reviewer.get(`/api/systems/PRD/extracts/${NO_SUCH}`)],
      ['POST /api/analyses', () => reviewer.post('/api/analyses', { ruleSetId })],
      ['GET /api/analyses/{id}', () => reviewer.get(`/api/analyses/${run.body.id}`)],
      ['GET /api/analyses/{id}/conflicts.csv', () => reviewer.get(`/api/analyses/${run.body.id}/conflicts.csv`)],
    ];
    for (const [route, call] of calls) expect((await call()).status, route).toBe(403);
    const setGid = (await admin.gql('{ accessRuleSets { id } }')).body.data.accessRuleSets[0].id;
    for (const op of [
      '{ accessRuleSets { id } }',
      '{ accessExtracts { totalCount } }',
      '{ accessAnalyses { totalCount } }',
      `mutation { activateAccessRuleSet(id: "${setGid}") { __typename } }`,
      `mutation { startAccessAnalysis(ruleSetId: "${setGid}") { __typename } }`,
    ]) {
      const r = await reviewer.gql(op);
      expect(r.body.errors?.[0]?.extensions?.code, op).toBe('FORBIDDEN');
    }
    // node(id:) of a run answers null to a reviewer, as to anyone who may not see it.
    const runGid = (await admin.gql('{ accessAnalyses(first: 1) { edges { node { id } } } }')).body.data.accessAnalyses.edges[0].node.id;
    expect((await reviewer.gql(`{ node(id: "${runGid}") { id } }`)).body.data.node).toBeNull();
    expect((await admin.gql(`{ node(id: "${runGid}") { id } }`)).body.data.node).toEqual({ id: runGid });
  });

  it.each([
    ['a bad system name', () => postZip(server, admin, '/api/systems/bad%20name/extracts', estate({ USR02: [user('X')] })), 'system'],
    ['an analysis date that is not one', () => admin.post('/api/analyses', { ruleSetId, asOf: '2026-02-30' }), 'asOf'],
    ['an analysis date in another form', () => admin.post('/api/analyses', { ruleSetId, asOf: '30.06.2026' }), 'asOf'],
    ['a rule set id that names no rule set', () => admin.post('/api/analyses', { ruleSetId: NO_SUCH }), 'ruleSetId'],
    ['a missing rule set id', () => admin.post('/api/analyses', {}), 'ruleSetId'],
    ['a system without an extract', () => admin.post('/api/analyses', { ruleSetId, systems: ['S4'] }), 'systems'],
    ['a rule set with a file missing', () => postZip(server, admin, '/api/rule-sets', (({ risk_functions: _left_out, ...rest }) => rest)(pairRules())), 'file'],
    [
      'a rule set upload without a file',
      () => admin.request('POST', '/api/rule-sets', undefined, { 'content-type': 'multipart/form-data; boundary=x' }),
      'file',
    ],
    [
      'an extract that is not a zip',
      async () => {
        const form = new FormData();
        form.append('file', new Blob(['USR02 is not here']), 'prd.zip');
        const res = await fetch(`${server.url}/api/systems/PRD/extracts`, { method: 'POST', body: form, headers: { cookie: admin.cookieHeader } });
        return { status: res.status, body: await res.json() };
      },
      'file',
    ],
  ])('%s with 400 naming the field', async (_what, call, field) => {
    const r = await call();
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'BAD_USER_INPUT', field });
    expect(r.body.message).toContain(field);
  });

  it('an extract that is not a zip is refused in the words of SAP tables, not of a workbook', async () => {
    const form = new FormData();
    form.append('file', new Blob(['USR02 is not here']), 'prd.zip');
    const res = await fetch(`${server.url}/api/systems/PRD/extracts`, { method: 'POST', body: form, headers: { cookie: admin.cookieHeader } });
    const body = (await res.json()) as { message: string };
    expect(body.message).toMatch(/must be a \.zip archive of CSV files: this file is not a zip archive\.$/);
    expect(body.message).not.toMatch(/Excel|workbook|xlsx/i);
  });

  it('GraphQL bad input as a ValidationError naming the field', async () => {
    const setGid = (await admin.gql('{ accessRuleSets(name: "Refusals") { id } }')).body.data.accessRuleSets[0].id;
    const r = await admin.gql(
      `mutation { startAccessAnalysis(ruleSetId: "${setGid}", asOf: "2026-13-01") { __typename ... on ValidationError { field message } } }`,
    );
    expect(r.body.data.startAccessAnalysis).toMatchObject({ __typename: 'ValidationError', field: 'asOf' });
  });

  it('what does not exist with 404', async () => {
    expect((await admin.get(`/api/analyses/${NO_SUCH}`)).status).toBe(404);
    expect((await admin.get(`/api/analyses/${NO_SUCH}/conflicts.csv`)).status).toBe(404);
    expect((await admin.get(`/api/analyses/not-an-id`)).status).toBe(404);
    expect((await admin.put(`/api/rule-sets/${NO_SUCH}/activate`)).status).toBe(404);
    expect((await admin.get(`/api/systems/PRD/extracts/${NO_SUCH}`)).status).toBe(404);
    // An extract is found under its own system only.
    const x = await postZip(server, admin, '/api/systems/QAS/extracts', estate({ USR02: [user('X')] }));
    expect((await admin.get(`/api/systems/PRD/extracts/${x.body.id}`)).status).toBe(404);
  });

  it('a second run of a rule set while one is going with 409, and its file until it has completed', async () => {
    // A run that a worker has not finished yet (no job carries it, so it stays processing).
    const going = await server.app.deps.prisma.accessAnalysisRun.create({ data: { ruleSetId, asOf: new Date('2026-06-30T00:00:00Z'), systems: ['PRD'] } });
    const r = await admin.post('/api/analyses', { ruleSetId, asOf: '2026-06-30' });
    expect(r.status).toBe(409);
    expect(r.body.message).toContain('already running');
    expect((await admin.get(`/api/analyses/${going.id}/conflicts.csv`)).status).toBe(409);
    const sent = await admin.post(`/api/analyses/${going.id}/review`, { mode: 'append' });
    expect(sent.status).toBe(409);
    expect(sent.body.message).toContain('still running');
    const g = await admin.gql(
      `mutation { startAccessAnalysis(ruleSetId: "${(await admin.gql('{ accessRuleSets(name: "Refusals") { id } }')).body.data.accessRuleSets[0].id}") { __typename ... on BaseError { code } } }`,
    );
    expect(g.body.data.startAccessAnalysis).toMatchObject({ code: 'CONFLICT' });
  });
});
