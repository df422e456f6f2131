// The review history: Reports' 'Recent Risk Reviews' and All Reviews (SPEC §2,
// §7 GET /api/dashboard/recent-reviews, GET /api/reviews/all), with 'Shared'
// and 'Shared With' as the README defines them, over REST and GraphQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, adminClient, startServer, userClient, type TestServer } from '../helpers/server.js';
import { seedRows } from '../helpers/seed.js';
import { collect, listening, until, wsClient } from '../helpers/ws.js';
import { decideRow } from '../helpers/items.js';

let server: TestServer;
let admin: Client;
type U = Awaited<ReturnType<typeof userClient>>;
let a: U;
let b: U;
let c: U;
let rows: bigint[];
const nameOf = (u: U) => `${u.user.firstName} ${u.user.lastName}`;

const decide = (u: U, id: bigint, decision: string) => decideRow(u, id, decision);

beforeAll(async () => {
  server = await startServer();
  admin = await adminClient(server);
  a = await userClient(server, admin);
  b = await userClient(server, admin);
  c = await userClient(server, admin);
  rows = await seedRows(server.app.deps.prisma, [
    { userId: 'U1', userName: 'Alice Jones', accessRiskId: 'R01', system: 'SAP ERP', roleProfile: 'Z_AP_CLERK' },
    { userId: 'U1', userName: 'Alice Jones', accessRiskId: 'R02', system: 'SAP ERP', roleProfile: 'Z_GL', riskLevel: 'medium' },
    { userId: 'U2', userName: 'Bob Smith', accessRiskId: 'R03', system: 'Workday', roleProfile: 'HR_ADMIN', riskLevel: 'low' },
    { userId: 'U3', userName: 'Carol White', accessRiskId: 'R04', system: 'Active Directory', roleProfile: 'DOMAIN_ADMIN' },
  ]);
  const assign = async (u: U, criteriaType: string, criteriaValue: string) =>
    expect((await admin.post('/api/assignment-criteria', { reviewerId: u.user.id, criteriaType, criteriaValue })).status).toBe(201);
  await assign(a, 'system', 'SAP ERP');
  await assign(b, 'user_id', 'U1');
  await assign(c, 'system', 'Workday');
  expect((await admin.post('/api/review-periods', { name: 'Q4 history' })).status).toBe(201);
  await decide(a, rows[0]!, 'retain');
  await decide(a, rows[1]!, 'remove');
  await decide(b, rows[0]!, 'remove');
  await decide(c, rows[2]!, 'retain');
});
afterAll(async () => server?.close());

describe('GET /api/reviews/all', () => {
  it('lists every decision for an administrator, newest first, with Shared and Shared With from the assignments', async () => {
    const r = await admin.get('/api/reviews/all');
    expect(r.status).toBe(200);
    expect(r.body.total).toBe(4);
    expect(r.body.reviews.map((x: any) => [x.reviewerName, x.roleProfile, x.decision])).toEqual([
      [nameOf(c), 'HR_ADMIN', 'retain'],
      [nameOf(b), 'Z_AP_CLERK', 'remove'],
      [nameOf(a), 'Z_GL', 'remove'],
      [nameOf(a), 'Z_AP_CLERK', 'retain'],
    ]);
    const [hr, bClerk, aGl, aClerk] = r.body.reviews;
    expect(aClerk).toMatchObject({ userId: 'U1', userName: 'Alice Jones', riskLevel: 'high', isSharedRole: true });
    expect(aClerk.sharedWith).toEqual([{ reviewerName: nameOf(b), decision: 'remove' }]);
    expect(bClerk.sharedWith).toEqual([{ reviewerName: nameOf(a), decision: 'retain' }]);
    // b is assigned U1 (all of its roles) but has not decided Z_GL: pending.
    expect(aGl).toMatchObject({ isSharedRole: true, sharedWith: [{ reviewerName: nameOf(b), decision: '' }] });
    // Nobody else reviews Bob's HR_ADMIN.
    expect(hr).toMatchObject({ isSharedRole: false, sharedWith: [] });
    expect(typeof hr.createdAt).toBe('string');
  });

  it('filters by shared, decision and search (user, role or reviewer), and pages with the total of all matches', async () => {
    const q = async (qs: string) => (await admin.get(`/api/reviews/all?${qs}`)).body;
    expect((await q('shared=shared')).total).toBe(3);
    expect((await q('shared=unique')).reviews.map((x: any) => x.roleProfile)).toEqual(['HR_ADMIN']);
    expect((await q('decision=remove')).reviews.map((x: any) => x.reviewerName).sort()).toEqual([nameOf(a), nameOf(b)].sort());
    expect((await q('decision=retain&shared=shared')).total).toBe(1);
    expect((await q('search=hr_adm')).total).toBe(1);
    expect((await q('search=alice')).total).toBe(3);
    expect((await q(`search=${encodeURIComponent(nameOf(a))}`)).total).toBe(2);
    expect((await q('search=100%25')).total).toBe(0);
    const p2 = await q('limit=50&page=1&shared=shared');
    expect(p2.reviews).toHaveLength(3);
    const paged = await q('page=2&limit=1');
    expect(paged).toMatchObject({ total: 4, page: 2, limit: 1 });
    expect(paged.reviews).toHaveLength(1);
    expect(paged.reviews[0].roleProfile).toBe('Z_AP_CLERK');
    const past = await q('page=9&limit=50');
    expect(past).toMatchObject({ total: 4, reviews: [] });
  });

  it('shows a reviewer only their own decisions', async () => {
    const r = await a.client.get('/api/reviews/all');
    expect(r.body.total).toBe(2);
    expect(new Set(r.body.reviews.map((x: any) => x.reviewerName))).toEqual(new Set([nameOf(a)]));
  });

  it('refuses bad filters and paging with a 400 naming the field', async () => {
    for (const [qs, field] of [
      ['decision=maybe', 'decision'],
      ['shared=yes', 'shared'],
      ['limit=501', 'limit'],
      ['page=0', 'page'],
      ['limit=abc', 'limit'],
      [`search=${'x'.repeat(201)}`, 'search'],
    ]) {
      const r = await admin.get(`/api/reviews/all?${qs}`);
      expect(r.status, qs).toBe(400);
      expect(r.body.message).toContain(field);
    }
  });
});

describe('GET /api/dashboard/recent-reviews', () => {
  it('gives administrators everyone’s newest decisions and reviewers their own, in the SPEC §3 shape', async () => {
    const all = (await admin.get('/api/dashboard/recent-reviews')).body;
    expect(all).toHaveLength(4);
    expect(Object.keys(all[0])).toEqual(
      expect.arrayContaining(['id', 'userName', 'userId', 'riskLevel', 'roleProfile', 'decision', 'reviewerName', 'createdAt']),
    );
    expect(all[0]).toMatchObject({
      userName: 'Bob Smith',
      userId: 'U2',
      riskLevel: 'low',
      roleProfile: 'HR_ADMIN',
      decision: 'retain',
      reviewerName: nameOf(c),
    });
    const own = (await b.client.get('/api/dashboard/recent-reviews')).body;
    expect(own.map((x: any) => [x.roleProfile, x.decision])).toEqual([['Z_AP_CLERK', 'remove']]);
  });
});

describe('GraphQL', () => {
  it('recentReviews and the allReviews connection (page numbers, totalCount, Shared With)', async () => {
    const r = await admin.gql(`{
      recentReviews { totalCount edges { node { userName decision reviewerName } } }
      allReviews(first: 2, page: 2, shared: SHARED) {
        totalCount
        pageInfo { hasNextPage hasPreviousPage }
        edges { node { roleProfile isSharedRole reviewerName sharedWith { reviewerName decision } } }
      }
    }`);
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.recentReviews.edges).toHaveLength(4);
    expect(r.body.data.recentReviews.totalCount).toBe(4);
    const conn = r.body.data.allReviews;
    expect(conn.totalCount).toBe(3);
    expect(conn.pageInfo).toEqual({ hasNextPage: false, hasPreviousPage: true });
    expect(conn.edges.map((e: any) => e.node)).toEqual([
      { roleProfile: 'Z_AP_CLERK', isSharedRole: true, reviewerName: nameOf(a), sharedWith: [{ reviewerName: nameOf(b), decision: 'REMOVE' }] },
    ]);
    const pending = await admin.gql(`{ allReviews(first: 10, search: "Z_GL") { edges { node { sharedWith { decision } } } } }`);
    expect(pending.body.data.allReviews.edges[0].node.sharedWith).toEqual([{ decision: null }]);
  });
});

describe('dashboard figures', () => {
  it('draws the trend from real series: loaded, retained, removed and pending, cumulative per day', async () => {
    const r = await admin.get('/api/dashboard/trend?range=30d');
    expect(r.status).toBe(200);
    expect(r.body.points).toHaveLength(30);
    const today = r.body.points[29];
    // Row 0: a retained, then b removed (the latest counts); row 1 removed; row 2 retained; row 3 pending.
    expect(today).toMatchObject({ loaded: 4, retained: 1, removed: 2, pending: 1 });
    expect(new Date(today.date).toISOString().slice(0, 10)).toBe(new Date().toISOString().slice(0, 10));
    expect(r.body.points[0]).toMatchObject({ loaded: 0, retained: 0, removed: 0, pending: 0 });
    // A reviewer's own rows and decisions: a sees the SAP ERP rows (U1's two) and decided both.
    const own = await a.client.get('/api/dashboard/trend?range=6m');
    expect(own.body.points).toHaveLength(26);
    expect(own.body.points[25]).toMatchObject({ loaded: 2, retained: 1, removed: 1, pending: 0 });
    const g = await admin.gql(`{ dashboardTrend(range: LAST_90_DAYS) { loaded pending } }`);
    expect(g.body.data.dashboardTrend).toHaveLength(90);
    expect((await admin.get('/api/dashboard/trend?range=1y')).status).toBe(400);
  });

  it('splits conflicts by accepted AI category, the rest Uncategorised', async () => {
    const prisma = server.app.deps.prisma;
    // Read (and cached) before: accepting a category must show at once although no row's data changed.
    expect((await admin.get('/api/dashboard/categories')).body).toEqual([{ category: 'Uncategorised', count: 4 }]);
    await prisma.riskRow.update({ where: { id: rows[0]! }, data: { aiSuggestedCategory: 'Financial', aiCategoryAccepted: true } });
    await prisma.riskRow.update({ where: { id: rows[1]! }, data: { aiSuggestedCategory: 'Financial', aiCategoryAccepted: true } });
    await prisma.riskRow.update({ where: { id: rows[2]! }, data: { aiSuggestedCategory: 'Data Privacy', aiCategoryAccepted: false } });
    expect((await admin.get('/api/dashboard/categories')).body).toEqual([
      { category: 'Financial', count: 2 },
      { category: 'Uncategorised', count: 2 },
    ]);
    const g = await c.client.gql(`{ riskCategories { category count } }`);
    expect(g.body.data.riskCategories).toEqual([{ category: 'Uncategorised', count: 1 }]);
  });
});

describe('live dashboard', () => {
  it('tells open dashboards when a reviewer decides, so they refetch their figures', async () => {
    const ws = wsClient(server.url, admin.cookieHeader);
    const sub = collect(ws, 'subscription { dashboardChanged { reason } }');
    try {
      await listening(server, 'dashboard:changed', 1);
      await decide(c, rows[2]!, 'remove');
      await until(() => sub.items.length > 0);
      expect(sub.items[0].data.dashboardChanged).toEqual({ reason: 'DECISIONS' });
      const trend = await admin.get('/api/dashboard/trend?range=30d');
      expect(trend.body.points[29]).toMatchObject({ retained: 0, removed: 3, pending: 1 });
    } finally {
      sub.dispose();
      await ws.dispose();
    }
  });
});
