// The dashboard trend's series: everyone's decided series
// and each reviewer's own are read from counts kept per day (services/kept/trend-days.ts),
// moved by the decisions' own statements. After decisions on different days, a decision
// changed, an upload, and a period closed with a default and reopened (its
// decisions deleted), the trend over REST and GraphQL equals the series worked
// out here straight from the raw tables, both while the kept days are being
// refreshed (counted live) and once they are up to date.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, adminClient, startServer, userClient, type TestServer } from '../helpers/server.js';
import { decide as decideItem, line, load, rowId } from '../helpers/items.js';

let server: TestServer;
let admin: Client;
type U = Awaited<ReturnType<typeof userClient>>;
let a: U;
let b: U;
let c: U;
let periodId: string;
const statements: string[] = [];

type Point = { date: string; loaded: number; retained: number; removed: number; pending: number };

/** The live-row condition (alias r) of what reviewer $1 sees: a row one of their criteria matches unless moved away from them, or one moved to them. */
const SEES = `((EXISTS (SELECT 1 FROM assignment_criteria ac WHERE ac.reviewer_id = $1::uuid AND (
            (ac.criteria_type = 'system' AND ac.criteria_value = r.system) OR (ac.criteria_type = 'user_id' AND ac.criteria_value = r.user_id)
         OR (ac.criteria_type = 'user_group' AND ac.criteria_value = r.user_group) OR (ac.criteria_type = 'role_profile' AND ac.criteria_value = r.role_profile)
         OR (ac.criteria_type = 'risk_id' AND ac.criteria_value = r.access_risk_id)))
        AND NOT EXISTS (SELECT 1 FROM item_holds h WHERE h.risk_row_id = r.id AND h.reviewer_id = $1::uuid AND NOT h.holds))
       OR EXISTS (SELECT 1 FROM item_holds h WHERE h.risk_row_id = r.id AND h.reviewer_id = $1::uuid AND h.holds))`;

/** A reviewer's All Reviews totals by definition: their decisions in every period on the live rows they see, all, retained (or mitigated) and removed. */
async function reviewsDefinition(reviewerId: string) {
  const [r] = await server.app.deps.prisma.$queryRawUnsafe<{ all: number; retain: number; remove: number }[]>(
    `SELECT count(*)::int AS "all", (count(*) FILTER (WHERE d.decision <> 'remove'))::int AS retain, (count(*) FILTER (WHERE d.decision = 'remove'))::int AS remove
       FROM decisions d JOIN risk_rows r ON r.id = d.risk_row_id
      WHERE d.reviewer_id = $1::uuid AND (r.upload_id IS NULL OR r.upload_id IN (SELECT id FROM uploads WHERE live)) AND ${SEES}`,
    reviewerId,
  );
  return r!;
}

/**
 * The series by definition (SPEC §2 chart, dashboard.ts's contract), from the
 * raw tables: per bucket of the range, the live rows the viewer sees loaded
 * by its start's bucket, and of those rows' latest decision in the active
 * (else closed last) period (a reviewer: their own decision), those retained /
 * removed by then; pending the rest. A reviewer sees a row one of their
 * criteria matches unless it was moved away from them, or one moved to them
 * (item_holds).
 */
async function definition(unit: 'day' | 'week', count: number, reviewerId: string | null = null): Promise<Point[]> {
  const sees = reviewerId ? SEES : 'TRUE';
  const own = reviewerId ? 'AND d.reviewer_id = $1::uuid' : '';
  const rows = await server.app.deps.prisma.$queryRawUnsafe<{ b: Date; loaded: number; retained: number; removed: number }[]>(
    `
    WITH live AS (SELECT r.* FROM risk_rows r WHERE (r.upload_id IS NULL OR r.upload_id IN (SELECT id FROM uploads WHERE live)) AND ${sees}),
    p AS (SELECT id FROM review_periods ORDER BY (status = 'active') DESC, closed_at DESC NULLS LAST, created_at DESC, id DESC LIMIT 1),
    latest AS (SELECT DISTINCT ON (d.risk_row_id) d.decision::text AS decision, d.updated_at FROM decisions d JOIN live l ON l.id = d.risk_row_id
                WHERE d.period_id = (SELECT id FROM p) ${own} ORDER BY d.risk_row_id, d.updated_at DESC, d.id DESC),
    buckets AS (SELECT generate_series(date_trunc('${unit}', now() AT TIME ZONE 'UTC') - interval '${count - 1} ${unit}', date_trunc('${unit}', now() AT TIME ZONE 'UTC'), interval '1 ${unit}') AS b)
    SELECT k.b,
      (SELECT count(*) FROM live l WHERE date_trunc('${unit}', l.created_at AT TIME ZONE 'UTC') <= k.b)::int AS loaded,
      (SELECT count(*) FROM latest x WHERE x.decision <> 'remove' AND date_trunc('${unit}', x.updated_at AT TIME ZONE 'UTC') <= k.b)::int AS retained,
      (SELECT count(*) FROM latest x WHERE x.decision = 'remove' AND date_trunc('${unit}', x.updated_at AT TIME ZONE 'UTC') <= k.b)::int AS removed
    FROM buckets k ORDER BY k.b`,
    ...(reviewerId ? [reviewerId] : []),
  );
  return rows.map((r) => ({
    date: new Date(r.b).toISOString(),
    loaded: r.loaded,
    retained: r.retained,
    removed: r.removed,
    pending: Math.max(0, r.loaded - r.retained - r.removed),
  }));
}

const normalise = (points: Point[]) => points.map((p) => ({ ...p, date: new Date(p.date).toISOString() }));

/**
 * The trend over REST and GraphQL, both ranges by day and by week, equals the
 * definition: the administrator's (everyone's) and each reviewer's own.
 */
async function expectTrendEqualsDefinition() {
  for (const [who, client, id] of [
    ['admin', admin, null],
    ['a', a.client, a.user.id],
    ['b', b.client, b.user.id],
    ['c', c.client, c.user.id],
  ] as const) {
    for (const [range, gql, unit, count] of [
      ['30d', 'LAST_30_DAYS', 'day', 30],
      ['6m', 'LAST_6_MONTHS', 'week', 26],
    ] as const) {
      const want = await definition(unit, count, id);
      const rest = await client.get(`/api/dashboard/trend?range=${range}`);
      expect(rest.status).toBe(200);
      expect(normalise(rest.body.points), `${who} ${range}`).toEqual(want);
      const g = await client.gql(`{ dashboardTrend(range: ${gql}) { date loaded retained removed pending } }`);
      expect(normalise(g.body.data.dashboardTrend), `${who} ${gql}`).toEqual(want);
    }
    // Today's pending is the dashboard's 'Pending Reviews' (one definition, active period or not) and a
    // reviewer's 'Pending Review' on My Assigned Risks: read from the same kept days when they are exact.
    const today = (await definition('day', 1, id))[0]!.pending;
    expect((await client.get('/api/dashboard/stats')).body.pendingReviews, `${who} stats`).toBe(today);
    if (!id) continue;
    expect((await client.get('/api/assigned-risks?limit=1')).body.pendingReview, `${who} assigned`).toBe(today);
    // A reviewer's All Reviews total, and with each Decision filter.
    const reviews = await reviewsDefinition(id);
    for (const [query, want] of [
      ['', reviews.all],
      ['&decision=retain', reviews.retain],
      ['&decision=remove', reviews.remove],
    ] as const) {
      expect((await client.get(`/api/reviews/all?limit=50${query}`)).body.total, `${who} All Reviews${query}`).toBe(want);
    }
  }
}

/** The statements that count a reviewer's decisions themselves: risks.ts decidedRowCount's, review-history.ts countReviews's. */
const countsDecisions = () =>
  statements.filter((q) => /count\(DISTINCT d\.risk_row_id\)/.test(q) || /SELECT count\(\*\) AS n FROM decisions d CROSS JOIN LATERAL/.test(q)).length;
/** How many times a reviewer's 'pending' (dashboard and My Assigned Risks) and All Reviews total counted their decisions themselves. */
async function countedLive(u: U): Promise<number> {
  statements.length = 0;
  expect((await u.client.get('/api/dashboard/stats')).status).toBe(200);
  expect((await u.client.get('/api/assigned-risks?limit=1')).status).toBe(200);
  expect((await u.client.get('/api/reviews/all?limit=50')).status).toBe(200);
  return countsDecisions();
}

/** A reviewer's kept days: up to date with the data and what they see, exact, and when refreshed. */
const reviewerStamp = async (u: U) => {
  const [r] = await server.app.deps.prisma.$queryRawUnsafe<{ fresh: boolean; exact: boolean; at: Date }[]>(
    `SELECT t.data_version = v.version AND t.criteria_version = v.criteria_version AS fresh, t.exact, t.refreshed_at AS at
       FROM reviewer_trend_periods t CROSS JOIN risk_data_version v WHERE v.id = 1 AND t.period_id = $1::uuid AND t.reviewer_id = $2::uuid`,
    periodId,
    u.user.id,
  );
  return r;
};
/** Waits for every reviewer's kept days to be up to date (their trend read starts the refresh) and returns their stamps. */
async function reviewersKeptUpToDate(): Promise<Map<string, { exact: boolean; at: number }>> {
  const out = new Map<string, { exact: boolean; at: number }>();
  for (const u of [a, b, c]) {
    for (const deadline = Date.now() + 30_000; ; await new Promise((r) => setTimeout(r, 100))) {
      const r = await reviewerStamp(u);
      if (r?.fresh) {
        out.set(u.user.id, { exact: r.exact, at: r.at.getTime() });
        break;
      }
      if (Date.now() > deadline) throw new Error('the reviewer trend days were not refreshed');
    }
  }
  return out;
}
/** Every reviewer's kept days are up to date right now (nobody has read since the change): their stamps become the expected ones. */
async function expectReviewersUpToDateWithoutARead() {
  for (const u of [a, b, c]) expect((await reviewerStamp(u))?.fresh, u.user.email).toBe(true);
  reviewerStamps = await reviewersKeptUpToDate();
}
let reviewerStamps: Map<string, { exact: boolean; at: number }>;
const stampsNow = async () => new Map(await Promise.all([a, b, c].map(async (u) => [u.user.id, (await reviewerStamp(u))?.at.getTime()] as const)));
const atOf = (m: Map<string, { exact: boolean; at: number }>) => new Map([...m].map(([k, v]) => [k, v.at]));

const fresh = async () => {
  const [r] = await server.app.deps.prisma.$queryRawUnsafe<{ fresh: boolean; at: Date }[]>(
    `SELECT t.data_version = v.version AS fresh, t.refreshed_at AS at FROM trend_periods t CROSS JOIN risk_data_version v WHERE v.id = 1 AND t.period_id = $1::uuid`,
    periodId,
  );
  return r;
};
/** Waits for the kept days to be up to date (a read starts their refresh in the background) and returns their stamp. */
async function keptUpToDate(): Promise<number> {
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) {
    const r = await fresh();
    if (r?.fresh) return r.at.getTime();
  }
  throw new Error('the trend days were not refreshed');
}

const decide = (u: U, user: string, role: string, decision = 'retain') => decideItem(server, u, user, role, decision);
/** Moves a reviewer's decision on an item back by some days (an UPDATE of the decision: the kept days follow it). */
const backdate = (u: U, user: string, role: string, days: number) =>
  server.app.deps.prisma.$executeRawUnsafe(
    `UPDATE decisions SET updated_at = updated_at - make_interval(days => $1) WHERE reviewer_id = $2::uuid AND risk_row_id IN (SELECT id FROM risk_rows WHERE user_id = $3 AND role_profile = $4)`,
    days,
    u.user.id,
    user,
    role,
  );

beforeAll(async () => {
  server = await startServer({}, { onQuery: (sql) => void statements.push(sql) });
  admin = await adminClient(server);
  a = await userClient(server, admin);
  b = await userClient(server, admin);
  c = await userClient(server, admin);
});
afterAll(async () => server?.close());

describe('dashboard trend from counts kept per day', () => {
  let stamp: number;

  it('after decisions on different days: the same series counted live and from the kept days', async () => {
    await load(
      server,
      admin,
      line('U1', 'R01', 'SAP ERP', 'Z_AP') + line('U1', 'R02', 'Workday', 'HR') + line('U2', 'R03', 'SAP ERP', 'Z_AP') + line('U3', 'R04', 'AD', 'DOM'),
      'replace',
    );
    // Rows loaded on earlier days too, so 'loaded' climbs within the range.
    await server.app.deps.prisma.$executeRawUnsafe(`UPDATE risk_rows SET created_at = created_at - interval '40 days' WHERE user_id = 'U3'`);
    await server.app.deps.prisma.$executeRawUnsafe(`UPDATE risk_rows SET created_at = created_at - interval '12 days' WHERE user_id = 'U2'`);
    // (Rows are never changed in place: the figures cached per data version when the upload went live are told by hand.)
    await server.app.deps.prisma.$executeRawUnsafe(`UPDATE risk_data_version SET version = version + 1 WHERE id = 1`);
    expect((await admin.post('/api/assignment-criteria', { reviewerId: a.user.id, criteriaType: 'system', criteriaValue: 'SAP ERP' })).status).toBe(201);
    expect((await admin.post('/api/assignment-criteria', { reviewerId: b.user.id, criteriaType: 'user_id', criteriaValue: 'U1' })).status).toBe(201);
    expect((await admin.post('/api/assignment-criteria', { reviewerId: c.user.id, criteriaType: 'system', criteriaValue: 'AD' })).status).toBe(201);
    const p = await admin.post('/api/review-periods', { name: 'Trend days', defaultDecisionAtClose: 'retain' });
    expect(p.status).toBe(201);
    periodId = p.body.id;
    await decide(a, 'U1', 'Z_AP');
    await decide(a, 'U2', 'Z_AP', 'remove');
    await decide(c, 'U3', 'DOM');
    await backdate(a, 'U2', 'Z_AP', 9);
    await backdate(c, 'U3', 'DOM', 20);
    await expectTrendEqualsDefinition();
    stamp = await keptUpToDate();
    reviewerStamps = await reviewersKeptUpToDate();
    // Every reviewer's days are kept, exact (they decided only rows they see).
    expect([...reviewerStamps.values()].every((x) => x.exact)).toBe(true);
    await expectTrendEqualsDefinition();
    // Their 'pending' and All Reviews total are read from the kept days: nothing counts their decisions.
    for (const u of [a, b, c]) expect(await countedLive(u), u.user.email).toBe(0);
    // Somebody decided on three different days: the chart shows it.
    const days = (await admin.get('/api/dashboard/trend?range=30d')).body.points as Point[];
    expect(new Set(days.map((d) => d.retained + d.removed)).size).toBeGreaterThanOrEqual(3);
  });

  it('after a second reviewer decides the same row and a decision changes: the kept days move without a refresh', async () => {
    // b removes U1's Z_AP today: the row's latest decision is b's now (a's retain no longer counts).
    await decide(b, 'U1', 'Z_AP', 'remove');
    await expectTrendEqualsDefinition();
    await backdate(b, 'U1', 'Z_AP', 5);
    await expectTrendEqualsDefinition();
    // a changes theirs: newer than b's, so a's counts again, today.
    await decide(a, 'U1', 'Z_AP', 'remove');
    await decide(a, 'U2', 'Z_AP', 'retain');
    await expectTrendEqualsDefinition();
    expect((await fresh())?.at.getTime()).toBe(stamp);
    // The reviewers' own days moved with their decisions too, without a refresh.
    expect(await stampsNow()).toEqual(atOf(reviewerStamps));
  });

  it("after an upload (the live rows change: the upload is done with everyone's days and each reviewer's own refreshed)", async () => {
    await load(server, admin, line('U1', 'R01', 'SAP ERP', 'Z_AP') + line('U4', 'R05', 'Workday', 'HR') + line('U5', 'R06', 'SAP ERP', 'Z_GL'), 'append');
    const after = await fresh();
    expect(after?.fresh).toBe(true);
    expect(after!.at.getTime()).toBeGreaterThan(stamp);
    stamp = after!.at.getTime();
    // Every reviewer's days were brought up to date by the upload itself, before any read.
    await expectReviewersUpToDateWithoutARead();
    await expectTrendEqualsDefinition();
    expect((await fresh())?.at.getTime()).toBe(stamp);
    expect(await stampsNow()).toEqual(atOf(reviewerStamps));
    await decide(b, 'U1', 'HR', 'remove');
    await expectTrendEqualsDefinition();
    expect(await stampsNow()).toEqual(atOf(reviewerStamps));
  });

  it('after the period closes with a default (decisions written) and reopens (taken back)', async () => {
    const today = async () => ((await admin.get('/api/dashboard/trend?range=30d')).body.points as Point[])[29]!;
    const pendingBefore = (await today()).pending;
    expect(pendingBefore).toBeGreaterThan(0);
    expect((await admin.put(`/api/review-periods/${periodId}/close`)).status).toBe(200);
    await expectTrendEqualsDefinition();
    // The default decided the rows left that somebody is assigned (U4's nobody is).
    expect((await today()).pending).toBe(1);
    expect(pendingBefore).toBeGreaterThan(1);
    expect((await admin.put(`/api/review-periods/${periodId}/open`)).status).toBe(200);
    await expectTrendEqualsDefinition();
    expect((await today()).pending).toBe(pendingBefore);
    expect((await fresh())?.at.getTime()).toBe(stamp);
    expect(await stampsNow()).toEqual(atOf(reviewerStamps));
  });

  it('after a criteria change (what a reviewer sees changes: their days worked out again in the change, the others kept)', async () => {
    const before = await stampsNow();
    // b sees SAP ERP's rows too now: a's decisions are not b's, but b's on U1's Workday row stays; c loses nothing.
    const added = await admin.post('/api/assignment-criteria', { reviewerId: b.user.id, criteriaType: 'system', criteriaValue: 'SAP ERP' });
    expect(added.status).toBe(201);
    await expectReviewersUpToDateWithoutARead();
    // Only b's days were worked out again; a's and c's were stamped as they were.
    expect(reviewerStamps.get(b.user.id)!.at).toBeGreaterThan(before.get(b.user.id)!);
    expect(reviewerStamps.get(a.user.id)!.at).toBe(before.get(a.user.id));
    expect(reviewerStamps.get(c.user.id)!.at).toBe(before.get(c.user.id));
    await expectTrendEqualsDefinition();
    // b loses U1 (their decision on U1's Workday row is on a row they no longer see: b counted live).
    const u1 = (await admin.get('/api/assignment-criteria')).body as { id: string; reviewerId: string; criteriaValue: string }[];
    const crit = u1.find((x) => x.reviewerId === b.user.id && x.criteriaValue === 'U1')!;
    expect((await admin.request('DELETE', `/api/assignment-criteria/${crit.id}`)).status).toBe(200);
    await expectReviewersUpToDateWithoutARead();
    expect(reviewerStamps.get(b.user.id)!.exact).toBe(false);
    await expectTrendEqualsDefinition();
    // b's are counted from their decisions (the kept days cannot tell a row b no longer sees); a's are kept.
    expect(await countedLive(b)).toBe(3);
    expect(await countedLive(a)).toBe(0);
    expect(await stampsNow()).toEqual(atOf(reviewerStamps));
  });

  it('after a reviewer hands a decided item to another (what they see changes: worked out again in the move)', async () => {
    const row = await rowId(server, 'U2', 'Z_AP');
    expect((await a.client.post('/api/reassignments', { riskDefinitionIds: [row], toReviewerId: c.user.id, note: 'Yours' })).status).toBe(201);
    await expectReviewersUpToDateWithoutARead();
    // a's decision on it no longer counts for a; c sees the row now.
    await expectTrendEqualsDefinition();
    // a still has a decision on a live row they no longer see: a's series is counted live, the others' kept.
    expect(reviewerStamps.get(a.user.id)!.exact).toBe(false);
    expect(reviewerStamps.get(c.user.id)!.exact).toBe(true);
    await expectTrendEqualsDefinition();
    await decide(c, 'U2', 'Z_AP', 'remove');
    await decide(a, 'U1', 'Z_AP', 'retain');
    await expectTrendEqualsDefinition();
    expect(await stampsNow()).toEqual(atOf(reviewerStamps));
  });

  it('over two periods: a reviewer’s All Reviews total sums the periods whose days are kept and counts the others', async () => {
    const first = periodId;
    expect((await admin.put(`/api/review-periods/${periodId}/close`)).status).toBe(200);
    const next = await admin.post('/api/review-periods', { name: 'Trend days, next' });
    expect(next.status).toBe(201);
    periodId = next.body.id;
    await decide(c, 'U2', 'Z_AP', 'retain');
    await decide(a, 'U5', 'Z_GL', 'remove');
    await expectTrendEqualsDefinition();
    await reviewersKeptUpToDate();
    await expectTrendEqualsDefinition();
    // a's days of the first period are not exact (the item handed over): that period is counted, the new one summed.
    expect(await countedLive(a)).toBe(1);
    expect(statements.some((q) => /d\.period_id = ANY/.test(q) && /CROSS JOIN LATERAL/.test(q))).toBe(true);
    expect(await countedLive(c)).toBe(0);
    // A change of what c sees works c's days out again in the active period only: the closed one's go
    // stale (counted, and refreshed in the background, by the next read), b's stay kept in both.
    const freshIn = async (u: U, p: string) =>
      (
        await server.app.deps.prisma.$queryRawUnsafe<{ fresh: boolean }[]>(
          `SELECT t.data_version = v.version AND t.criteria_version = v.criteria_version AS fresh
             FROM reviewer_trend_periods t CROSS JOIN risk_data_version v WHERE v.id = 1 AND t.period_id = $1::uuid AND t.reviewer_id = $2::uuid`,
          p,
          u.user.id,
        )
      )[0]?.fresh;
    expect([await freshIn(c, first), await freshIn(b, first)]).toEqual([true, true]);
    expect((await admin.post('/api/assignment-criteria', { reviewerId: c.user.id, criteriaType: 'role_profile', criteriaValue: 'Z_AP' })).status).toBe(201);
    expect([await freshIn(c, periodId), await freshIn(c, first), await freshIn(b, first)]).toEqual([true, false, true]);
    await expectTrendEqualsDefinition();
  });
});
