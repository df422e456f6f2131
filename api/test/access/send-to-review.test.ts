// A run's conflicts go to the review as an upload would: appended, they are
// rows reviewers are assigned and decide; a later run sent with replace takes
// their place, and a decision on a conflict both runs found is carried over
// exactly as for a replaced file. The upload history names the run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, startServer, userClients, type Client, type TestServer, type UserClient } from '../helpers/server.js';
import { decide } from '../helpers/items.js';
import { PAY_ROLE, POST_ROLE, assign, estate, pairRules, user } from './support/fixtures.js';
import { postZip, settle } from './support/edge.js';

let server: TestServer;
let admin: Client;
let reviewer: UserClient;
beforeAll(async () => {
  server = await startServer();
  admin = await adminClient(server);
  [reviewer] = (await userClients(server, admin, 1)) as [UserClient];
}, 60_000);
afterAll(async () => server?.close());

async function analyse(ruleSetId: string, holders: string[]) {
  const x = await postZip(
    server,
    admin,
    '/api/systems/PRD-ECC/extracts',
    estate({
      USR02: ['ALICE', 'BOB', 'CARL'].map((u) => user(u)),
      AGR_USERS: [...holders.flatMap((u) => [assign(u, 'Z_POST'), assign(u, 'Z_PAY')]), assign('BOB', 'Z_POST')],
      AGR_1251: [...POST_ROLE, ...PAY_ROLE],
    }),
  );
  expect((await settle(admin, `/api/systems/PRD-ECC/extracts/${x.body.id}`)).status).toBe('completed');
  const run = await admin.post('/api/analyses', { ruleSetId, asOf: '2026-06-30' });
  return settle(admin, `/api/analyses/${run.body.id}`);
}

/** The live rows' users, and the decisions on them (user, role, decision). */
async function review() {
  const rows = await server.app.deps.prisma.$queryRawUnsafe<{ user_id: string; role_profile: string; decision: string | null }[]>(
    `SELECT r.user_id, r.role_profile, d.decision::text AS decision FROM risk_rows r LEFT JOIN decisions d ON d.risk_row_id = r.id
      WHERE r.upload_id IN (SELECT id FROM uploads WHERE live) ORDER BY r.user_id, r.role_profile, r.id`,
  );
  return rows;
}

describe("a run's conflicts sent to the review", () => {
  it('load as an upload named after the run; replaced by a later run, decisions on the conflicts both found are carried over', async () => {
    const set = await postZip(server, admin, '/api/rule-sets', pairRules(), { name: 'Global SoD' });
    expect(set.status).toBe(201);
    expect((await admin.post('/api/review-periods', { name: 'Q2 access review' })).status).toBe(201);
    expect(
      (await admin.post('/api/assignment-criteria', { name: 'SAP users', reviewerId: reviewer.user.id, criteriaType: 'system', criteriaValue: 'PRD-ECC' }))
        .status,
    ).toBe(201);

    const first = await analyse(set.body.id, ['ALICE']);
    expect(first).toMatchObject({ status: 'completed', conflicts: 1, rows: 3 });
    const sent = await admin.post(`/api/analyses/${first.id}/review`, { mode: 'append' });
    expect(sent.status).toBe(202);
    expect(await settle(admin, `/api/upload-status/${sent.body.uploadId}`)).toMatchObject({ status: 'completed', recordCount: 3 });
    const history = (await admin.get('/api/uploads')).body as { id: string; originalName?: string; fileName?: string }[];
    const listed = history.find((u) => u.id === sent.body.uploadId) as Record<string, unknown>;
    expect(JSON.stringify(listed)).toMatch(new RegExp(`Access analysis Global SoD v1 on 2026-06-30 \\(run ${first.id.slice(0, 8)}\\)\\.csv`));

    // The reviewer sees the conflict's rows and decides one.
    const assigned = await reviewer.client.get('/api/assigned-risks?limit=50');
    expect(assigned.status).toBe(200);
    expect(JSON.stringify(assigned.body)).toContain('ALICE');
    await decide(server, reviewer, 'ALICE', 'Z_POST', 'remove');

    // A new extract: CARL holds both functions too. The second run replaces the first in the review.
    const second = await analyse(set.body.id, ['ALICE', 'CARL']);
    expect(second).toMatchObject({ status: 'completed', conflicts: 2, rows: 6, added: 1, removed: 0 });
    const replaced = await admin.post(`/api/analyses/${second.id}/review`, { mode: 'replace' });
    expect(replaced.status).toBe(202);
    expect(await settle(admin, `/api/upload-status/${replaced.body.uploadId}`)).toMatchObject({ status: 'completed', recordCount: 6 });
    const rows = await review();
    expect(rows).toHaveLength(6);
    expect(rows.filter((r) => r.decision !== null)).toEqual([{ user_id: 'ALICE', role_profile: 'Z_POST', decision: 'remove' }]);
    expect(new Set(rows.map((r) => r.user_id))).toEqual(new Set(['ALICE', 'CARL']));
  });

  it('refuses a mode it does not know, naming it, and a run that does not exist', async () => {
    const runs = await admin.gql('{ accessAnalyses(first: 1) { edges { node { id } } } }');
    const any = Buffer.from(runs.body.data.accessAnalyses.edges[0].node.id, 'base64').toString().split(':')[1];
    const bad = await admin.post(`/api/analyses/${any}/review`, { mode: 'merge' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'BAD_USER_INPUT', field: 'mode' });
    expect((await admin.post('/api/analyses/00000000-0000-4000-8000-000000000000/review', { mode: 'append' })).status).toBe(404);
    // GraphQL sends the same way.
    const g = await admin.gql(
      'mutation($id: ID!) { sendAccessAnalysisToReview(id: $id, mode: APPEND) { __typename ... on MutationSendAccessAnalysisToReviewSuccess { data { status originalName } } } }',
      {
        id: runs.body.data.accessAnalyses.edges[0].node.id,
      },
    );
    expect(g.body.errors).toBeUndefined();
    expect(g.body.data.sendAccessAnalysisToReview.data.originalName).toMatch(/^Access analysis Global SoD v1 on 2026-06-30/);
  });
});
