// One viewer per request: a page of rows costs the same number of database
// queries whatever its length (per-row lookups are batched), and every read
// of a row, by list or by id, goes through the one visibility rule, liveness
// included: rows of an upload still loading (or failed) exist for nobody.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, adminClient, dashboardJobsDone, startServer, userClient, type TestServer } from '../helpers/server.js';
import { seedRows } from '../helpers/seed.js';
import { riskRowData } from '../../src/db/seed-rows.js';
import { NODE_ID_FORMATS } from '../../src/schema/global-ids.js';
import { schema } from '../../src/schema/index.js';
import { GraphQLObjectType } from 'graphql';

let server: TestServer;
let admin: Client;
let reviewer: Awaited<ReturnType<typeof userClient>>;
let rows: bigint[];
let loading: bigint[];
let queries = 0;

const gid = (type: string, id: string | bigint) => Buffer.from(`${type}:${id}`).toString('base64');

beforeAll(async () => {
  server = await startServer({}, { onQuery: () => void queries++ });
  admin = await adminClient(server);
  reviewer = await userClient(server, admin);
  const prisma = server.app.deps.prisma;
  rows = await seedRows(
    prisma,
    Array.from({ length: 60 }, (_, i) => ({
      userId: `Q${String(i).padStart(2, '0')}`,
      userGroup: 'QG',
      accessRiskId: `QR${i % 7}`,
      compositeBusinessRole: `QC${i % 3}`,
    })),
  );
  expect((await admin.post('/api/assignment-criteria', { reviewerId: reviewer.user.id, criteriaType: 'user_group', criteriaValue: 'QG' })).status).toBe(201);
  expect((await admin.post('/api/review-periods', { name: 'Viewer test period' })).status).toBe(201);
  // Some decided rows, by the reviewer and by the administrator, so that the lookups find something.
  for (const c of [reviewer.client, admin]) {
    const r = await c.post('/api/reviews/decisions', {
      decisions: rows.filter((_, i) => i % 2 === 0).map((id) => ({ riskDefinitionId: Number(id), decision: 'retain' })),
    });
    expect(r.status).toBe(200);
  }
  // An upload still loading: its rows are in the table, assigned by the criteria, and live for nobody.
  const up = await prisma.upload.create({ data: { originalName: 'loading.csv', fileName: 'loading.csv', status: 'processing', heartbeatAt: new Date() } });
  const created = await prisma.riskRow.createManyAndReturn({
    data: [1, 2, 3].map((i) => ({ ...riskRowData({ userId: `LOAD${i}`, accessRiskId: 'QRL', userGroup: 'QG' }), uploadId: up.id })),
    select: { id: true },
  });
  loading = created.map((c) => c.id);
  // The assignment's dashboard figures job runs in the background: its statements are not the requests'.
  await dashboardJobsDone(server);
});
afterAll(async () => server?.close());

/** The fewest queries the operation took over three runs (other work of the server may add some to a run). */
async function queriesOf(c: Client, query: string, variables?: Record<string, unknown>): Promise<number> {
  let fewest = Infinity;
  for (let i = 0; i < 3; i++) {
    const before = queries;
    const r = await c.gql(query, variables);
    expect(r.body.errors).toBeUndefined();
    fewest = Math.min(fewest, queries - before);
  }
  return fewest;
}

describe('queries per request', () => {
  it('a page of the queue or of assigned risks with myDecision costs the same for 5 rows as for 50', async () => {
    const queue = (n: number) => `{ riskQueue(first: ${n}) { totalCount edges { node { id userId myDecision isHighRiskRule } } } }`;
    const assigned = (n: number) => `{ assignedRisks(first: ${n}) { totalCount edges { node { id userId myDecision } } } assignedSummary { totalAssigned } }`;
    const q5 = await queriesOf(admin, queue(5));
    expect(q5).toBeGreaterThan(0);
    expect(await queriesOf(admin, queue(50))).toBe(q5);
    const a5 = await queriesOf(reviewer.client, assigned(5));
    expect(await queriesOf(reviewer.client, assigned(50))).toBe(a5);
  });

  it('rows read by id with myDecision cost the same for 5 ids as for 50 (one lookup for all of them)', async () => {
    const q = `query($ids: [ID!]!) { nodes(ids: $ids) { id ... on RiskRow { userId myDecision } } }`;
    const ids = (n: number) => ({ ids: rows.slice(0, n).map((id) => gid('RiskRow', id)) });
    for (const c of [admin, reviewer.client]) {
      const few = await queriesOf(c, q, ids(5));
      expect(await queriesOf(c, q, ids(50))).toBe(few);
      const r = await c.gql(q, ids(4));
      expect(r.body.data.nodes.map((n: { myDecision: string | null }) => n.myDecision)).toEqual(['RETAIN', null, 'RETAIN', null]);
    }
  });

  it('the composite-role view, every level down to the Authorization Details, costs the same for 5 users as for 50', async () => {
    const q = (n: number) => `{ compositeUsers(first: ${n}) { edges { node { userId totalRisks allDecided
      riskGroups(first: 2) { edges { node { accessRiskId totalRisks
        roles(first: 2) { edges { node { name decision conflictCount authorizationDetailCount authorizationDetails(first: 1) { authObject riskRowId } } } } } } } } } } }`;
    for (const c of [admin, reviewer.client]) {
      const few = await queriesOf(c, q(5));
      expect(await queriesOf(c, q(50))).toBe(few);
      const r = await c.gql(q(50));
      const users = r.body.data.compositeUsers.edges;
      expect(users).toHaveLength(50);
      // Each level still carries its own data (every Qnn user has one row, one group, one role).
      expect(users[7].node).toMatchObject({ userId: 'Q07', totalRisks: 1 });
      const group = users[7].node.riskGroups.edges[0].node;
      expect(group).toMatchObject({ accessRiskId: 'QR0', totalRisks: 1 });
      expect(group.roles.edges[0].node).toMatchObject({ name: 'QC1', conflictCount: 1, authorizationDetailCount: 1 });
      expect(group.roles.edges[0].node.authorizationDetails).toHaveLength(1);
    }
  });
});

describe('only live rows exist', () => {
  const node = `query($id: ID!) { node(id: $id) { __typename id ... on RiskRow { userId } } }`;
  const nodes = `query($ids: [ID!]!) { nodes(ids: $ids) { __typename id ... on RiskRow { userId } } }`;

  it('a row of an upload still loading is null by node and nodes, for an administrator and for a reviewer', async () => {
    for (const c of [admin, reviewer.client]) {
      for (const id of loading) {
        const r = await c.gql(node, { id: gid('RiskRow', id) });
        expect(r.body.data.node).toBeNull();
      }
      const many = await c.gql(nodes, { ids: [gid('RiskRow', rows[0]!), ...loading.map((id) => gid('RiskRow', id))] });
      expect(many.body.data.nodes[0]).toMatchObject({ __typename: 'RiskRow', userId: 'Q00' });
      expect(many.body.data.nodes.slice(1)).toEqual([null, null, null]);
    }
  });

  it('is absent from every list', async () => {
    const q = await admin.gql(`{ riskQueue(first: 500, filter: { userGroup: "QG" }) { totalCount edges { node { userId } } } }`);
    expect(q.body.data.riskQueue.totalCount).toBe(60);
    expect(q.body.data.riskQueue.edges.map((e: any) => e.node).some((r: { userId: string }) => r.userId.startsWith('LOAD'))).toBe(false);
    const a = await reviewer.client.gql(`{ assignedRisks(first: 500) { totalCount edges { node { userId } } } assignedSummary { totalAssigned } }`);
    expect(a.body.data.assignedRisks.totalCount).toBe(60);
    expect(a.body.data.assignedSummary.totalAssigned).toBe(60);
    expect(a.body.data.assignedRisks.edges.map((e: any) => e.node).some((r: { userId: string }) => r.userId.startsWith('LOAD'))).toBe(false);
    const rest = await admin.get('/api/risks?limit=500&userGroup=QG');
    expect(rest.body.risks.some((r: { userId: string }) => r.userId.startsWith('LOAD'))).toBe(false);
    const cu = await admin.gql(`{ compositeUser(userId: "LOAD1") { userId } }`);
    expect(cu.body.data.compositeUser).toBeNull();
  });

  it('an id the caller may not see answers exactly as an id that does not exist', async () => {
    const missing = gid('RiskRow', 999_999_999n);
    for (const c of [admin, reviewer.client]) {
      const absent = (await c.gql(node, { id: missing })).body;
      expect(absent.data.node).toBeNull();
      expect((await c.gql(node, { id: gid('RiskRow', loading[0]!) })).body).toEqual(absent);
      const absentMany = (await c.gql(nodes, { ids: [missing] })).body;
      expect((await c.gql(nodes, { ids: [gid('RiskRow', loading[0]!)] })).body).toEqual(absentMany);
    }
  });

  it("a reviewer's unassigned row answers exactly as an id that does not exist", async () => {
    const [other] = await seedRows(server.app.deps.prisma, [{ userId: 'ELSEWHERE', userGroup: 'OTHER', accessRiskId: 'QRX' }]);
    expect((await admin.gql(node, { id: gid('RiskRow', other!) })).body.data.node).toMatchObject({ __typename: 'RiskRow' });
    const hidden = (await reviewer.client.gql(node, { id: gid('RiskRow', other!) })).body;
    expect(hidden.data.node).toBeNull();
    expect(hidden).toEqual((await reviewer.client.gql(node, { id: gid('RiskRow', 999_999_998n) })).body);
  });
});

describe('global ids', () => {
  it('a malformed id is BAD_USER_INPUT, never an internal error', async () => {
    const q = `query($id: ID!) { node(id: $id) { id } }`;
    const bad = [
      'not base64 at all!',
      Buffer.from('RiskRow').toString('base64'), // no id part
      Buffer.from('RiskRow:').toString('base64'),
      gid('RiskRow', 'abc'), // not a number
      gid('RiskRow', '1; DROP TABLE risk_rows'),
      gid('NoSuchType', '1'), // not a Node type
      gid('DashboardStats', '1'),
      gid('User', '42'), // not a uuid
      gid('CompositeRole', '["only one"]'),
    ];
    for (const id of bad) {
      const r = await admin.gql(q, { id });
      expect(r.body.errors?.[0]?.extensions?.code, id).toBe('BAD_USER_INPUT');
      expect(r.body.data?.node ?? null).toBeNull();
    }
    const many = await admin.gql(`query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, { ids: [gid('RiskRow', rows[0]!), gid('RiskRow', 'x')] });
    expect(many.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });

  it('an id of another type where a field expects one type is BAD_USER_INPUT', async () => {
    const r = await admin.gql(`mutation($id: ID!) { approveSubmission(id: $id) { __typename } }`, { id: gid('RiskRow', rows[0]!) });
    expect(r.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    const d = await admin.gql(`mutation($d: [DecisionInput!]!) { saveDecisions(decisions: $d) { __typename } }`, {
      d: [{ riskRowId: gid('User', '00000000-0000-0000-0000-000000000000'), decision: 'RETAIN' }],
    });
    expect(d.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });

  it('knows the id form of every Node type of the schema', () => {
    const nodeTypes = Object.values(schema.getTypeMap())
      .filter((t): t is GraphQLObjectType => t instanceof GraphQLObjectType && t.getInterfaces().some((i) => i.name === 'Node'))
      .map((t) => t.name)
      .sort();
    expect(Object.keys(NODE_ID_FORMATS).sort()).toEqual(nodeTypes);
  });
});
