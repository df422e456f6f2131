// 'Shared' kept per period (services/kept/shared-items.ts): after
// every kind of change that moves it (upload, append, purge, assignment added
// or removed, items reassigned, decisions, period close and reopen), the kept
// items and their reviewers equal the README's definition worked out here
// directly from the raw tables, and All Reviews' Shared Roles filter agrees.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, adminClient, startServer, userClients, type TestServer, type UserClient } from '../helpers/server.js';
import { decide as decideItem, line, load, rowId as itemRowId } from '../helpers/items.js';

let server: TestServer;
let admin: Client;
type U = UserClient;
let a: U;
let b: U;
let c: U;
let periodId: string;

/** The definition (README 'Shared reviews'), written here independently of the service's statement. */
const DEFINITION = `
  WITH live AS (SELECT r.* FROM risk_rows r WHERE r.upload_id IS NULL OR r.upload_id IN (SELECT id FROM uploads WHERE live)),
  assigned AS (
    SELECT l.user_id, l.role_profile, ac.reviewer_id FROM live l JOIN assignment_criteria ac
      ON ac.criteria_value = CASE ac.criteria_type::text WHEN 'user_id' THEN l.user_id WHEN 'system' THEN l.system
           WHEN 'user_group' THEN l.user_group WHEN 'risk_id' THEN l.access_risk_id WHEN 'role_profile' THEN l.role_profile END
     WHERE (l.id, ac.reviewer_id) NOT IN (SELECT risk_row_id, reviewer_id FROM item_holds WHERE NOT holds)
    UNION SELECT l.user_id, l.role_profile, h.reviewer_id FROM live l JOIN item_holds h ON h.risk_row_id = l.id AND h.holds)
  SELECT p.id::text AS period_id, x.user_id, x.role_profile, array_agg(DISTINCT x.reviewer_id::text ORDER BY x.reviewer_id::text) AS reviewers
    FROM review_periods p CROSS JOIN LATERAL (
      SELECT * FROM assigned
      UNION SELECT l.user_id, l.role_profile, d.reviewer_id FROM decisions d JOIN live l ON l.id = d.risk_row_id WHERE d.period_id = p.id) x
   WHERE EXISTS (SELECT 1 FROM decisions d WHERE d.period_id = p.id)
   GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`;

type Item = { period_id: string; user_id: string; role_profile: string; reviewers: string[] };

/** Reads All Reviews (which brings the kept items up to date) and compares them, and its filter, with the definition. */
async function expectKeptEqualsDefinition() {
  const db = server.app.deps.prisma;
  const shared = (await admin.get('/api/reviews/all?shared=shared&limit=500')).body;
  const unique = (await admin.get('/api/reviews/all?shared=unique&limit=500')).body;
  const expected = await db.$queryRawUnsafe<Item[]>(DEFINITION);
  const kept = await db.$queryRawUnsafe<Item[]>(`
    SELECT s.period_id::text AS period_id, s.user_id, s.role_profile, ARRAY(SELECT x::text FROM unnest(s.reviewers) x ORDER BY 1) AS reviewers
      FROM shared_items s WHERE EXISTS (SELECT 1 FROM decisions d WHERE d.period_id = s.period_id) ORDER BY 1, 2, 3`);
  expect(kept).toEqual(expected);
  // The flag kept beside the reviewers says the same.
  expect(await db.$queryRawUnsafe(`SELECT user_id FROM shared_items WHERE shared <> (coalesce(cardinality(reviewers), 0) > 1)`)).toEqual([]);
  // The filter: a decision is shared when its item has more than one reviewer by the definition.
  const isShared = new Set(expected.filter((i) => i.reviewers.length > 1).map((i) => `${i.period_id}|${i.user_id}|${i.role_profile}`));
  const decisions = await db.$queryRawUnsafe<{ id: string; k: string; decision: string }[]>(`
    SELECT d.id::text AS id, d.period_id::text || '|' || r.user_id || '|' || r.role_profile AS k, d.decision::text AS decision
      FROM decisions d JOIN risk_rows r ON r.id = d.risk_row_id WHERE r.upload_id IS NULL OR r.upload_id IN (SELECT id FROM uploads WHERE live)`);
  const want = decisions
    .filter((d) => isShared.has(d.k))
    .map((d) => d.id)
    .sort();
  expect(shared.reviews.map((r: any) => r.id).sort()).toEqual(want);
  expect(shared.total).toBe(want.length);
  expect(unique.total).toBe(decisions.length - want.length);
  // The totals kept per item: every decision on a live row, and by kind.
  expect((await admin.get('/api/reviews/all')).body.total).toBe(decisions.length);
  const removes = decisions.filter((d) => d.decision === 'remove');
  expect((await admin.get('/api/reviews/all?decision=remove')).body.total).toBe(removes.length);
  expect((await admin.get('/api/reviews/all?decision=retain&shared=shared')).body.total).toBe(
    decisions.filter((d) => d.decision !== 'remove' && isShared.has(d.k)).length,
  );
  // Decided rows kept per item: the distinct live rows decided in each period, and the dashboard's pending count.
  const decidedRows = `SELECT d.period_id::text AS period_id, count(DISTINCT d.risk_row_id)::int AS n FROM decisions d JOIN risk_rows r ON r.id = d.risk_row_id
     WHERE r.upload_id IS NULL OR r.upload_id IN (SELECT id FROM uploads WHERE live) GROUP BY 1 ORDER BY 1`;
  const keptDecided = `SELECT period_id::text AS period_id, sum(decided_rows)::int AS n FROM shared_items s
     WHERE EXISTS (SELECT 1 FROM decisions d WHERE d.period_id = s.period_id) GROUP BY 1 HAVING sum(decided_rows) > 0 ORDER BY 1`;
  expect(await db.$queryRawUnsafe(keptDecided)).toEqual(await db.$queryRawUnsafe(decidedRows));
  // Pending: the live rows not decided in the period whose decisions are shown (the active one, else the one closed last).
  const [pending] = await db.$queryRawUnsafe<{ n: number }[]>(`
    WITH shown AS (SELECT id FROM review_periods ORDER BY (status = 'active') DESC, closed_at DESC NULLS LAST, created_at DESC LIMIT 1)
    SELECT count(*)::int AS n FROM risk_rows r WHERE (r.upload_id IS NULL OR r.upload_id IN (SELECT id FROM uploads WHERE live))
       AND NOT EXISTS (SELECT 1 FROM decisions d WHERE d.period_id = (SELECT id FROM shown) AND d.risk_row_id = r.id)`);
  expect((await admin.get('/api/dashboard/stats')).body.pendingReviews).toBe(pending!.n);
  return expected;
}

const rowId = (user: string, role: string) => itemRowId(server, user, role);
const decide = (u: U, user: string, role: string, decision = 'retain') => decideItem(server, u, user, role, decision);
const stamp = async () => (await server.app.deps.prisma.sharedItemPeriod.findUnique({ where: { periodId } }))?.refreshedAt.getTime();
/** Whether the period's kept items are stamped with the current data and criteria versions (no reader needs to refresh them). */
const fresh = async () =>
  (
    await server.app.deps.prisma.$queryRawUnsafe<{ fresh: boolean }[]>(
      `SELECT s.data_version = v.version AND s.criteria_version = v.criteria_version AS fresh
         FROM shared_item_periods s CROSS JOIN risk_data_version v WHERE v.id = 1 AND s.period_id = $1::uuid`,
      periodId,
    )
  )[0]?.fresh ?? false;

beforeAll(async () => {
  server = await startServer();
  admin = await adminClient(server);
  [a, b, c] = (await userClients(server, admin, 3)) as [UserClient, UserClient, UserClient];
});
afterAll(async () => server?.close());

describe('shared items kept per period', () => {
  let bCriterion: string;

  it('after an upload, criteria added and decisions (which extend the kept items without a refresh)', async () => {
    await load(
      server,
      admin,
      line('U1', 'R01', 'SAP ERP', 'Z_AP') + line('U1', 'R02', 'Workday', 'HR') + line('U2', 'R03', 'SAP ERP', 'Z_AP') + line('U3', 'R04', 'AD', 'DOM'),
      'replace',
    );
    expect((await admin.post('/api/assignment-criteria', { reviewerId: a.user.id, criteriaType: 'system', criteriaValue: 'SAP ERP' })).status).toBe(201);
    const bc = await admin.post('/api/assignment-criteria', { reviewerId: b.user.id, criteriaType: 'user_id', criteriaValue: 'U1' });
    expect(bc.status).toBe(201);
    bCriterion = bc.body.id;
    expect((await admin.post('/api/assignment-criteria', { reviewerId: c.user.id, criteriaType: 'system', criteriaValue: 'AD' })).status).toBe(201);
    const p = await admin.post('/api/review-periods', { name: 'Shared items', defaultDecisionAtClose: 'retain' });
    expect(p.status).toBe(201);
    periodId = p.body.id;
    await decide(a, 'U1', 'Z_AP');
    let items = await expectKeptEqualsDefinition();
    expect(items.find((i) => i.user_id === 'U1' && i.role_profile === 'Z_AP')!.reviewers).toEqual([a.user.id, b.user.id].sort());
    const before = await stamp();
    await decide(b, 'U1', 'Z_AP', 'remove');
    await decide(c, 'U3', 'DOM');
    items = await expectKeptEqualsDefinition();
    expect(await stamp()).toBe(before);
    expect(items.find((i) => i.user_id === 'U3')!.reviewers).toEqual([c.user.id]);
  });

  it('after single items are moved to another reviewer, and that reviewer decides', async () => {
    const before = await stamp();
    const moved = await admin.post('/api/reassignments', { riskDefinitionIds: [await rowId('U3', 'DOM')], fromReviewerId: c.user.id, toReviewerId: a.user.id });
    expect(moved.status, JSON.stringify(moved.body)).toBe(201);
    // Kept up to date by the move itself, not by a refresh of the whole period.
    expect(await fresh()).toBe(true);
    expect(await stamp()).toBe(before);
    let items = await expectKeptEqualsDefinition();
    // c decided it before the move, so c stays one of its reviewers: now shared.
    expect(items.find((i) => i.user_id === 'U3')!.reviewers).toEqual([a.user.id, c.user.id].sort());
    await decide(a, 'U3', 'DOM', 'remove');
    items = await expectKeptEqualsDefinition();
    // A decision changed (retain to remove) moves the kept counts.
    await decide(a, 'U1', 'Z_AP', 'remove');
    await expectKeptEqualsDefinition();
    expect((await admin.get('/api/reviews/all?search=DOM')).body.reviews.every((r: any) => r.isSharedRole)).toBe(true);
  });

  it('after an append (with a duplicate row) and a criterion removed', async () => {
    const before = await stamp();
    await load(server, admin, line('U1', 'R01', 'SAP ERP', 'Z_AP') + line('U4', 'R05', 'Workday', 'HR'), 'append');
    // The upload is done with the period's items already worked out again (the dashboard's first read is not a live count).
    const [s] = await server.app.deps.prisma.$queryRawUnsafe<{ fresh: boolean }[]>(
      `SELECT s.data_version = v.version AS fresh FROM shared_item_periods s CROSS JOIN risk_data_version v WHERE v.id = 1 AND s.period_id = $1::uuid`,
      periodId,
    );
    expect(s?.fresh).toBe(true);
    expect(await stamp()).toBeGreaterThan(before!);
    await decide(b, 'U1', 'HR');
    await expectKeptEqualsDefinition();
    expect((await admin.request('DELETE', `/api/assignment-criteria/${bCriterion}`)).status).toBeLessThan(300);
    const items = await expectKeptEqualsDefinition();
    // b still decided U1's Z_AP in the period: still a reviewer of it; of U2's Z_AP no longer (never was).
    expect(items.find((i) => i.user_id === 'U1' && i.role_profile === 'Z_AP')!.reviewers).toContain(b.user.id);
  });

  it('a criterion added, then removed, keeps the items up to date in its own transaction, without a refresh', async () => {
    await expectKeptEqualsDefinition();
    const before = await stamp();
    const added = await admin.post('/api/assignment-criteria', { reviewerId: c.user.id, criteriaType: 'system', criteriaValue: 'Workday' });
    expect(added.status).toBe(201);
    expect(await fresh()).toBe(true);
    let items = await expectKeptEqualsDefinition();
    expect(await stamp()).toBe(before);
    // A new item (nobody had it) and an item now shared with the reviewer who decided it.
    expect(items.find((i) => i.user_id === 'U4' && i.role_profile === 'HR')!.reviewers).toEqual([c.user.id]);
    expect(items.find((i) => i.user_id === 'U1' && i.role_profile === 'HR')!.reviewers).toEqual([b.user.id, c.user.id].sort());
    expect((await admin.request('DELETE', `/api/assignment-criteria/${added.body.id}`)).status).toBeLessThan(300);
    expect(await fresh()).toBe(true);
    items = await expectKeptEqualsDefinition();
    expect(await stamp()).toBe(before);
    // The item nobody holds or decided any more goes; the decided one keeps its decider only.
    expect(items.find((i) => i.user_id === 'U4')).toBeUndefined();
    expect(items.find((i) => i.user_id === 'U1' && i.role_profile === 'HR')!.reviewers).toEqual([b.user.id]);
  });

  it('after the period closes with a default (decisions written) and reopens (taken back)', async () => {
    expect((await admin.put(`/api/review-periods/${periodId}/close`)).status).toBe(200);
    await expectKeptEqualsDefinition();
    expect((await admin.put(`/api/review-periods/${periodId}/open`)).status).toBe(200);
    await expectKeptEqualsDefinition();
  });

  it('after a purge', async () => {
    const r = await admin.request('DELETE', '/api/admin/purge-risk-data');
    expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
    expect(await expectKeptEqualsDefinition()).toEqual([]);
    expect(await server.app.deps.prisma.sharedItem.count()).toBe(0);
  });
});
