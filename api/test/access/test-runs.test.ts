// Testing a rule change before it counts: a version that is not the active
// one of its name runs against the current data as a test run. It shows the
// conflicts it would add and remove against the latest completed run of the
// active version, cannot be sent to the review, and is never the run a later
// real run counts its added / removed against.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeGlobalID } from '@pothos/plugin-relay';
import { adminClient, startServer, type Client, type TestServer } from '../helpers/server.js';
import { PAY_ROLE, POST_ROLE, assign, estate, fn, pairRules, rf, risk, rules, act, perm, user } from './support/fixtures.js';
import { postZip, settle } from './support/edge.js';

let server: TestServer;
let admin: Client;
beforeAll(async () => {
  server = await startServer();
  admin = await adminClient(server);
}, 60_000);
afterAll(async () => server?.close());

/** The draft: R1 (the pair) disabled, R2 = posting alone as a critical action. */
const draft = rules({
  risks: [risk('R1', 'S', 'Disabled'), risk('R2', 'A')],
  functions: [fn('F1'), fn('F2')],
  risk_functions: [rf('R1', 'F1'), rf('R1', 'F2'), rf('R2', 'F1')],
  function_actions: [act('F1', 'FB01'), act('F2', 'F-53')],
  function_permissions: [perm('F1', 'FB01', 'F_BKPF_BUK', 'BUKRS', '1000'), perm('F1', 'FB01', 'F_BKPF_BUK', 'ACTVT', '01')],
});

const run = async (ruleSetId: string) => {
  const started = await admin.post('/api/analyses', { ruleSetId, asOf: '2026-06-30' });
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  return settle(admin, `/api/analyses/${started.body.id}`);
};

describe('a test run of a version that is not active', () => {
  it('shows what it would add and remove against the active version’s latest run, is refused by the review, and counts for nothing later', async () => {
    const v1 = await postZip(server, admin, '/api/rule-sets', pairRules(), { name: 'Global SoD' });
    const v2 = await postZip(server, admin, '/api/rule-sets', draft, { name: 'Global SoD' });
    expect(v2.body).toMatchObject({ version: 2, active: false });
    // ALICE holds both functions of R1; BOB only the posting one.
    const x = await postZip(
      server,
      admin,
      '/api/systems/PRD-ECC/extracts',
      estate({
        USR02: [user('ALICE'), user('BOB')],
        AGR_USERS: [assign('ALICE', 'Z_POST'), assign('ALICE', 'Z_PAY'), assign('BOB', 'Z_POST')],
        AGR_1251: [...POST_ROLE, ...PAY_ROLE],
      }),
    );
    expect((await settle(admin, `/api/systems/PRD-ECC/extracts/${x.body.id}`)).status).toBe('completed');

    const real = await run(v1.body.id);
    expect(real).toMatchObject({ status: 'completed', test: false, compareTo: null, conflicts: 1, added: 1, removed: 0 });

    const test = await run(v2.body.id);
    expect(test).toMatchObject({ status: 'completed', test: true, compareTo: real.id, conflicts: 2, added: 2, removed: 1 });
    const changes = await admin.get(`/api/analyses/${test.id}/changes`);
    expect(changes.status).toBe(200);
    expect(changes.body).toEqual({
      compareTo: real.id,
      wouldAdd: [
        { userId: 'ALICE', riskId: 'R2', riskDescription: 'Risk R2' },
        { userId: 'BOB', riskId: 'R2', riskDescription: 'Risk R2' },
      ],
      wouldRemove: [{ userId: 'ALICE', riskId: 'R1', riskDescription: 'Risk R1' }],
    });
    // A real run has no test changes to show.
    expect((await admin.get(`/api/analyses/${real.id}/changes`)).status).toBe(409);

    // The review never sees it, through REST or GraphQL.
    const sent = await admin.post(`/api/analyses/${test.id}/review`, { mode: 'append' });
    expect(sent.status).toBe(409);
    expect(sent.body.message).toMatch(/test run .* cannot be sent to the review/);
    const g = await admin.gql('mutation($id: ID!) { sendAccessAnalysisToReview(id: $id, mode: APPEND) { __typename ... on Error { message } } }', {
      id: encodeGlobalID('AccessAnalysis', test.id),
    });
    expect(JSON.stringify(g.body)).toMatch(/cannot be sent to the review/);
    expect(await server.app.deps.prisma.upload.count()).toBe(0);

    // GraphQL shows the same comparison.
    const node = await admin.gql(
      'query($id: ID!) { node(id: $id) { ... on AccessAnalysis { test addedCount removedCount compareTo { id } wouldAdd { userId riskId } wouldRemove { userId riskId riskDescription } } } }',
      { id: encodeGlobalID('AccessAnalysis', test.id) },
    );
    expect(node.body.errors).toBeUndefined();
    expect(node.body.data.node).toEqual({
      test: true,
      addedCount: 2,
      removedCount: 1,
      compareTo: { id: encodeGlobalID('AccessAnalysis', real.id) },
      wouldAdd: [
        { userId: 'ALICE', riskId: 'R2' },
        { userId: 'BOB', riskId: 'R2' },
      ],
      wouldRemove: [{ userId: 'ALICE', riskId: 'R1', riskDescription: 'Risk R1' }],
    });
    // Its change lists are those of the comparison with compareTo.
    const testLists = await admin.gql(
      'query($id: ID!) { node(id: $id) { ... on AccessAnalysis { previousRun { id } changes { newCount resolvedCount unchangedCount } } } }',
      {
        id: encodeGlobalID('AccessAnalysis', test.id),
      },
    );
    expect(testLists.body.data.node).toEqual({
      previousRun: { id: encodeGlobalID('AccessAnalysis', real.id) },
      changes: { newCount: 2, resolvedCount: 1, unchangedCount: 0 },
    });

    // The active version's next run counts against its own last run, as before.
    expect(await run(v1.body.id)).toMatchObject({ test: false, conflicts: 1, added: 0, removed: 0 });
    // Activated, the draft's first real run is a first run: the test run is no previous run of it.
    expect((await admin.put(`/api/rule-sets/${v2.body.id}/activate`)).status).toBe(200);
    const activated = await run(v2.body.id);
    expect(activated).toMatchObject({ test: false, compareTo: null, conflicts: 2, added: 2, removed: 0 });
    // Its change lists agree with its counts: nothing to compare with, every conflict new.
    const lists = await admin.gql(
      'query($id: ID!) { node(id: $id) { ... on AccessAnalysis { previousRun { id } changes { newCount resolvedCount unchangedCount } } } }',
      {
        id: encodeGlobalID('AccessAnalysis', activated.id),
      },
    );
    expect(lists.body.data.node).toEqual({ previousRun: null, changes: { newCount: 2, resolvedCount: 0, unchangedCount: 0 } });
    // Now v1 is the draft: its test run compares with v2's real run.
    expect(await run(v1.body.id)).toMatchObject({ test: true, conflicts: 1, added: 1, removed: 2 });
  });
});
