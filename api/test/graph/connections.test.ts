// Lists as the Relay spec has them. The risk queue and
// assigned risks are connections whose cursors stay the same whichever way a
// page is read (Next, Previous, by number, from the end); every connection
// counts its whole list; the lists people sort take orderBy; an id of a row
// the caller may not see answers null, a malformed id or cursor BAD_USER_INPUT.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, adminClient, startServer, userClient, type TestServer } from '../helpers/server.js';
import { seedRows, seedUsers } from '../helpers/seed.js';

let server: TestServer;
let admin: Client;
let reviewer: Awaited<ReturnType<typeof userClient>>;
let rows: bigint[];
const N = 23; // 5 pages of 5, the last one short

beforeAll(async () => {
  server = await startServer();
  admin = await adminClient(server);
  reviewer = await userClient(server, admin);
  rows = await seedRows(
    server.app.deps.prisma,
    Array.from({ length: N + 4 }, (_, i) => ({ userId: `C${String(i).padStart(3, '0')}`, userGroup: i < N ? 'CONN' : 'OTHER', accessRiskId: `CR${i % 3}` })),
  );
  expect((await admin.post('/api/assignment-criteria', { reviewerId: reviewer.user.id, criteriaType: 'user_group', criteriaValue: 'CONN' })).status).toBe(201);
  await seedUsers(server.app.deps.prisma, 5, 'reviewer', 'Seeded#Pass1');
});
afterAll(async () => server?.close());

type Page = {
  totalCount: number;
  pageNumber: number;
  pageCount: number;
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
  edges: { cursor: string; node: { userId: string } }[];
};
const PAGE = `totalCount pageNumber pageCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor } edges { cursor node { userId } }`;

async function read(c: Client, field: 'riskQueue' | 'assignedRisks', args: Record<string, unknown>): Promise<Page> {
  const r = await c.gql(
    `query($first: Int, $last: Int, $after: String, $before: String, $page: Int) {
      list: ${field}(filter: { userGroup: "CONN" }, first: $first, last: $last, after: $after, before: $before, page: $page) { ${PAGE} } }`,
    args,
  );
  expect(r.body.errors, JSON.stringify(r.body.errors)).toBeUndefined();
  return r.body.data.list;
}
const cursors = (p: Page) => p.edges.map((e) => e.cursor);

describe.each([
  ['riskQueue', () => admin],
  ['assignedRisks', () => reviewer.client],
] as const)('%s as a connection', (field, client) => {
  it('counts every row, walks them with Next, and gives each row one cursor whichever way its page is read', async () => {
    const c = client();
    const walked: Page[] = [await read(c, field, { first: 5 })];
    while (walked.at(-1)!.pageInfo.hasNextPage) walked.push(await read(c, field, { first: 5, after: walked.at(-1)!.pageInfo.endCursor }));
    const all = walked.flatMap(cursors);
    expect(walked[0]!.totalCount).toBe(N);
    expect(all).toHaveLength(N);
    expect(new Set(all).size).toBe(N);
    expect(walked.flatMap((p) => p.edges.map((e) => e.node.userId))).toEqual(Array.from({ length: N }, (_, i) => `C${String(i).padStart(3, '0')}`));
    expect(walked.map((p) => [p.pageNumber, p.pageCount, p.pageInfo.hasPreviousPage])).toEqual([1, 2, 3, 4, 5].map((n) => [n, 5, n > 1]));
    // The same page by number, by Previous from the page after it, and the end by `last`.
    expect(cursors(await read(c, field, { first: 5, page: 3 }))).toEqual(all.slice(10, 15));
    const prev = await read(c, field, { last: 5, before: walked[3]!.pageInfo.startCursor });
    expect(cursors(prev)).toEqual(all.slice(10, 15));
    expect(prev.pageNumber).toBe(3);
    const end = await read(c, field, { last: 4 });
    expect(cursors(end)).toEqual(all.slice(N - 4));
    expect(end.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
  });
});

describe('every connection', () => {
  it('has a totalCount equal to the number of its items', async () => {
    for (let i = 0; i < 3; i++) {
      expect((await admin.post('/api/notifications', { title: `Conn ${i}`, message: 'm', targetType: 'all' })).status).toBe(201);
    }
    const q = `{ users(first: 500) { totalCount edges { node { id } } } allNotifications(first: 500) { totalCount edges { node { id } } }
      assignmentCriteria(first: 500) { totalCount edges { node { id } } } compositeUsers(first: 500) { totalCount edges { node { userId } } }
      uploads(first: 500) { totalCount edges { node { id } } } reviewPeriods(first: 500) { totalCount edges { node { id } } } }`;
    const data = (await admin.gql(q)).body.data;
    for (const [name, list] of Object.entries(data) as [string, { totalCount: number; edges: unknown[] }][]) {
      expect(list.totalCount, name).toBe(list.edges.length);
    }
    expect(data.allNotifications.totalCount).toBe(3);
    expect(data.compositeUsers.totalCount).toBe(N + 4);
    // A reviewer's composite users are those of their rows only.
    expect((await reviewer.client.gql('{ compositeUsers(first: 1) { totalCount } }')).body.data.compositeUsers.totalCount).toBe(N);
  });

  it('sorts by orderBy, and cursors page through the sorted list', async () => {
    const q = `query($dir: OrderDirection, $after: String) { users(search: "Seeded", first: 2, after: $after, orderBy: { field: NAME, direction: $dir }) {
      totalCount pageInfo { hasNextPage endCursor } edges { node { lastName } } } }`;
    const walk = async (dir: string) => {
      const names: string[] = [];
      let after: string | null = null;
      for (;;) {
        const page: any = (await admin.gql(q, { dir, after })).body.data.users;
        expect(page.totalCount).toBe(5);
        names.push(...page.edges.map((e: { node: { lastName: string } }) => e.node.lastName));
        if (!page.pageInfo.hasNextPage) return names;
        after = page.pageInfo.endCursor;
      }
    };
    const asc = await walk('ASC');
    expect(asc).toHaveLength(5);
    expect(asc).toEqual([...asc].sort());
    expect(await walk('DESC')).toEqual([...asc].reverse());
    const byTitle = (await admin.gql('{ allNotifications(first: 3, orderBy: { field: TITLE, direction: DESC }) { edges { node { title } } } }')).body.data;
    expect(byTitle.allNotifications.edges.map((e: { node: { title: string } }) => e.node.title)).toEqual(['Conn 2', 'Conn 1', 'Conn 0']);
  });
});

describe('ids and cursors a caller may not use', () => {
  it("a reviewer's node(id:) of a row not assigned to them is null with no error, as for a row that does not exist", async () => {
    const other = Buffer.from(`RiskRow:${rows[N]}`).toString('base64');
    const none = Buffer.from('RiskRow:999999999').toString('base64');
    for (const id of [other, none]) {
      expect((await reviewer.client.gql(`query($id: ID!) { node(id: $id) { __typename id } }`, { id })).body).toEqual({ data: { node: null } });
    }
    expect((await admin.gql(`query($id: ID!) { node(id: $id) { __typename } }`, { id: other })).body).toEqual({ data: { node: { __typename: 'RiskRow' } } });
  });

  it('a decision is a Node its reviewer and administrators read back by id, null for another reviewer', async () => {
    expect((await admin.post('/api/review-periods', { name: 'Connections period' })).status).toBe(201);
    expect((await reviewer.client.post('/api/reviews/decision', { riskDefinitionId: Number(rows[0]), decision: 'remove' })).status).toBe(200);
    const listed = (await reviewer.client.gql('{ allReviews(first: 5) { totalCount edges { node { id decision } } } }')).body.data.allReviews;
    expect(listed.totalCount).toBe(1);
    const id = listed.edges[0].node.id;
    const q = `query($id: ID!) { node(id: $id) { __typename ... on ReviewDecision { decision userId } } }`;
    for (const c of [reviewer.client, admin])
      expect((await c.gql(q, { id })).body.data.node).toEqual({ __typename: 'ReviewDecision', decision: 'REMOVE', userId: 'C000' });
    const other = await userClient(server, admin);
    expect((await other.client.gql(q, { id })).body).toEqual({ data: { node: null } });
  });

  it('a malformed id or cursor answers BAD_USER_INPUT naming it, never an internal error', async () => {
    const bad = await admin.gql(`{ node(id: "not-an-id") { id } }`);
    expect(bad.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    const cursor = await admin.gql(`{ riskQueue(after: "nope") { totalCount } }`);
    expect(cursor.body.errors[0]).toMatchObject({ message: expect.stringContaining("'after'"), extensions: { code: 'BAD_USER_INPUT' } });
    expect((await admin.gql(`{ riskQueue(first: -1) { totalCount } }`)).body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });
});
