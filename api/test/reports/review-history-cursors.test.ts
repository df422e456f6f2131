// All Reviews and Recent Reviews as GraphQL connections: keyset
// cursors over the newest-first order, which stay put while decisions are
// made between pages (nothing skipped, nothing repeated), read forwards
// (first/after), backwards (last/before) and on from a page read by number;
// a malformed cursor answers BAD_USER_INPUT.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, adminClient, startServer, userClient, type TestServer } from '../helpers/server.js';
import { seedRows } from '../helpers/seed.js';
import { decideRow } from '../helpers/items.js';

let server: TestServer;
let admin: Client;
let a: Awaited<ReturnType<typeof userClient>>;
let rows: bigint[];
const ROWS = 20;
const FIRST = 9; // decided before the walks; the rest are decided during them

const decide = (id: bigint) => decideRow(a, id, 'retain');

type Conn = {
  totalCount: number;
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
  edges: { cursor: string; node: { id: string; userId: string } }[];
};
async function all(args: string): Promise<Conn> {
  const r = await admin.gql(`{ allReviews(${args}) {
    totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor } edges { cursor node { id userId } } } }`);
  expect(r.body.errors, JSON.stringify(r.body.errors)).toBeUndefined();
  return r.body.data.allReviews;
}
const users = (c: Conn) => c.edges.map((e) => e.node.userId);

beforeAll(async () => {
  server = await startServer();
  admin = await adminClient(server);
  a = await userClient(server, admin);
  rows = await seedRows(
    server.app.deps.prisma,
    Array.from({ length: ROWS }, (_, i) => ({ userId: `U${String(i).padStart(2, '0')}`, accessRiskId: 'R01', system: 'SAP ERP' })),
  );
  expect((await admin.post('/api/assignment-criteria', { reviewerId: a.user.id, criteriaType: 'system', criteriaValue: 'SAP ERP' })).status).toBe(201);
  expect((await admin.post('/api/review-periods', { name: 'Cursor walk' })).status).toBe(201);
  for (const id of rows.slice(0, FIRST)) await decide(id);
});
afterAll(async () => server?.close());

describe('allReviews cursors', () => {
  it('walks on with `after` while decisions are made between pages: nothing skipped, nothing repeated', async () => {
    // Newest first: U08, U07, … U00. Each page is followed by a new decision (it goes to the top).
    const before = users(await all('first: 100'));
    expect(before).toHaveLength(FIRST);
    const seen: string[] = [];
    let next = FIRST;
    let conn = await all('first: 2');
    expect(conn.pageInfo.hasPreviousPage).toBe(false);
    for (;;) {
      seen.push(...users(conn));
      if (!conn.pageInfo.hasNextPage) break;
      expect(conn.pageInfo.hasPreviousPage || seen.length === 2).toBe(true);
      await decide(rows[next++]!);
      conn = await all(`first: 2, after: "${conn.pageInfo.endCursor}"`);
      expect(conn.pageInfo.hasPreviousPage).toBe(true);
    }
    // With offset cursors each new decision pushed the list down by one: a row came twice.
    expect(seen).toEqual(before);
    expect(conn.totalCount).toBe(next);
  });

  it('walks back with `last` / `before`, and reads on with `after` from a page read by number', async () => {
    const everything = users(await all('first: 100'));
    expect(everything.length).toBeGreaterThan(FIRST);
    // The last (oldest) two, then back towards the newest.
    let conn = await all('last: 2');
    expect(users(conn)).toEqual(everything.slice(-2));
    expect(conn.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    const seen: string[] = [];
    for (;;) {
      seen.unshift(...users(conn));
      if (!conn.pageInfo.hasPreviousPage) break;
      conn = await all(`last: 2, before: "${conn.pageInfo.startCursor}"`);
      expect(conn.pageInfo.hasNextPage).toBe(true);
    }
    expect(seen).toEqual(everything);
    // Page 2 by number (the page buttons), then on by cursor: page 3.
    const p2 = await all('first: 3, page: 2');
    expect(p2.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: true });
    expect(users(p2)).toEqual(everything.slice(3, 6));
    const on = await all(`first: 3, after: "${p2.pageInfo.endCursor}"`);
    expect(users(on)).toEqual(everything.slice(6, 9));
    // A page's cursor is the same however the page was read.
    expect(on.edges[0]!.cursor).toBe((await all('first: 3, page: 3')).edges[0]!.cursor);
    // The last page by number knows it is the last.
    const lastPage = await all(`first: 3, page: ${Math.ceil(everything.length / 3)}`);
    expect(lastPage.pageInfo.hasNextPage).toBe(false);
  });

  it('recentReviews pages by the same cursors', async () => {
    const r = await admin.gql(`{ recentReviews(first: 3) { totalCount pageInfo { hasNextPage endCursor } edges { node { userId } } } }`);
    const first = r.body.data.recentReviews;
    expect(first.pageInfo.hasNextPage).toBe(true);
    await decide(rows[ROWS - 1]!);
    const more = await admin.gql(`{ recentReviews(first: 3, after: "${first.pageInfo.endCursor}") { edges { node { userId } } } }`);
    const everything = users(await all('first: 100'));
    // The decision just made is first now; the page after the cursor is still the three after the first page.
    expect(everything[0]).toBe(`U${ROWS - 1}`);
    expect(more.body.data.recentReviews.edges.map((e: any) => e.node.userId)).toEqual(everything.slice(4, 7));
  });

  it('a malformed cursor, or page with a cursor, answers BAD_USER_INPUT naming the argument', async () => {
    for (const [args, name] of <[string, string][]>[
      ['first: 2, after: "nonsense"', "'after'"],
      [`first: 2, after: "${Buffer.from('arrayconnection:3').toString('base64')}"`, "'after'"],
      [`last: 2, before: "${Buffer.from('ReviewCursor:12:not-a-uuid').toString('base64')}"`, "'before'"],
      ['first: 0', "'first'"],
      ['first: 2, last: 2', "'last'"],
    ]) {
      const r = await admin.gql(`{ allReviews(${args}) { totalCount } }`);
      expect(r.body.errors?.[0], args).toMatchObject({ message: expect.stringContaining(name), extensions: { code: 'BAD_USER_INPUT' } });
    }
    const cursor = (await all('first: 1')).pageInfo.endCursor;
    const mixed = await admin.gql(`{ allReviews(first: 2, page: 2, after: "${cursor}") { totalCount } }`);
    expect(mixed.body.errors[0]).toMatchObject({ message: expect.stringContaining("'page'"), extensions: { code: 'BAD_USER_INPUT' } });
  });
});
