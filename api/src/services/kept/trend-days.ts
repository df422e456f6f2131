// The dashboard trend's decided series for everyone (an administrator's view),
// kept per day instead of counted from every decision of the period per
// request. trend_days holds, per period and UTC day, how
// many live rows have their latest decision of the period (newest updated_at,
// then id) made that day, retained or removed. A decision (insert, update,
// delete) moves its row between days in the same statement (a trigger, see the
// migration 20261124160000_trend_days); rows going live or out of it (an
// upload, append or purge) make the period stale against risk_data_version,
// and the next reader refreshes it by one set-based statement in the
// background, counting live meanwhile (latestDecisionsByBucket).
import { Prisma, type PrismaClient, type User } from '../../generated/prisma/client.js';
import type { DbClient } from '../../core/types.js';
import { LIVE_ROWS } from '../live-rows.js';
import { sightsOf } from '../holds.js';
import { lockTrendPeriod } from '../review/decision-locks.js';
import { rewriteReviewerDays } from './reviewer-days.js';
import type { KeptAggregate } from './aggregate.js';

export type DecidedBucket = { b: Date; retained: bigint; removed: bigint };

/**
 * The latest decision of each row of the period that matches `rows` (alias r)
 * and `decisions` (alias d), the rule of the trend in one place: the newest
 * change counts, ties by id (the trigger orders the same way).
 */
const latestDecisions = (periodId: string, rows: Prisma.Sql, decisions: Prisma.Sql = Prisma.empty) => Prisma.sql`
  SELECT DISTINCT ON (d.risk_row_id) d.decision::text AS decision, d.updated_at
    FROM decisions d JOIN risk_rows r ON r.id = d.risk_row_id
   WHERE d.period_id = ${periodId}::uuid ${decisions} AND ${rows}
   ORDER BY d.risk_row_id, d.updated_at DESC, d.id DESC`;

/** A reviewer's own decisions (the `decisions` argument of latestDecisions): their series counts only these. */
export const ownDecisions = (reviewerId: string) => Prisma.sql`AND d.reviewer_id = ${reviewerId}::uuid`;

/** Counted from the decisions themselves: per bucket (unit 'day' or 'week') of the latest decision's change, retained and removed. */
export function latestDecisionsByBucket(db: DbClient, periodId: string, unit: 'day' | 'week', rows: Prisma.Sql, decisions: Prisma.Sql = Prisma.empty) {
  return db.$queryRaw<DecidedBucket[]>`
    SELECT date_trunc(${Prisma.raw(`'${unit}'`)}, x.updated_at AT TIME ZONE 'UTC') AS b,
           count(*) FILTER (WHERE x.decision <> 'remove') AS retained, count(*) FILTER (WHERE x.decision = 'remove') AS removed
      FROM (${latestDecisions(periodId, rows, decisions)}) x GROUP BY 1`;
}

/**
 * Everyone's decided series of the period per bucket from the kept days (a
 * few hundred rows at most); null when the period's days are not up to date
 * with the live rows, which starts their refresh in the background.
 */
export async function keptDecidedBuckets(prisma: PrismaClient, periodId: string, unit: 'day' | 'week'): Promise<DecidedBucket[] | null> {
  const [s] = await prisma.$queryRaw<{ fresh: boolean }[]>`
    SELECT t.data_version = v.version AS fresh FROM trend_periods t CROSS JOIN risk_data_version v WHERE v.id = 1 AND t.period_id = ${periodId}::uuid`;
  if (!s?.fresh) {
    void refreshTrendDays(prisma, periodId).catch(() => undefined);
    return null;
  }
  return prisma.$queryRaw<DecidedBucket[]>`
    SELECT date_trunc(${Prisma.raw(`'${unit}'`)}, t.day::timestamp) AS b, sum(t.retained)::bigint AS retained, sum(t.removed)::bigint AS removed
      FROM trend_days t WHERE t.period_id = ${periodId}::uuid GROUP BY 1`;
}

/** Works the period's days out again from the decisions on the live rows, unless already up to date (one set-based statement). */
export async function refreshTrendDays(db: DbClient, periodId: string, opts: { inTransaction?: boolean } = {}): Promise<void> {
  const run = async (tx: DbClient) => {
    await lockTrendPeriod(tx, periodId);
    const [v] = await tx.$queryRaw<{ version: bigint; fresh: boolean }[]>`
        SELECT v.version, EXISTS (SELECT 1 FROM trend_periods t WHERE t.period_id = ${periodId}::uuid AND t.data_version = v.version) AS fresh
          FROM risk_data_version v WHERE v.id = 1`;
    if (!v || v.fresh) return;
    await tx.$executeRaw`DELETE FROM trend_days WHERE period_id = ${periodId}::uuid`;
    await tx.$executeRaw`INSERT INTO trend_days (period_id, day, retained, removed)
        SELECT ${periodId}::uuid, (x.updated_at AT TIME ZONE 'UTC')::date,
               count(*) FILTER (WHERE x.decision <> 'remove'), count(*) FILTER (WHERE x.decision = 'remove')
          FROM (${latestDecisions(periodId, LIVE_ROWS)}) x GROUP BY 2`;
    await tx.$executeRaw`INSERT INTO trend_periods (period_id, data_version, refreshed_at) VALUES (${periodId}::uuid, ${v.version}, now())
        ON CONFLICT (period_id) DO UPDATE SET data_version = EXCLUDED.data_version, refreshed_at = now()`;
  };
  // Inside the caller's transaction, else in its own.
  if (opts.inTransaction) return run(db);
  await (db as PrismaClient).$transaction(run, { timeout: 600_000, maxWait: 120_000 });
}

/**
 * Of these periods, those whose days kept for the reviewer can be read: up to
 * date with the live rows and what the reviewer sees (data and criteria
 * versions), else their refresh starts in the background (one period after
 * the other); and exact (the refresh found no decision of theirs on a live
 * row they no longer see: the trigger cannot tell which rows they see, so such
 * a reviewer's figures are counted live).
 */
async function reviewerDaysUsable(prisma: PrismaClient, reviewer: User, periodIds: readonly string[]): Promise<Set<string>> {
  if (!periodIds.length) return new Set();
  const rows = await prisma.$queryRaw<{ p: string; fresh: boolean | null; exact: boolean | null }[]>`
    SELECT i.p::text AS p, t.data_version = v.version AND t.criteria_version = v.criteria_version AS fresh, t.exact
      FROM unnest(${[...periodIds]}::uuid[]) i(p) CROSS JOIN risk_data_version v
      LEFT JOIN reviewer_trend_periods t ON t.period_id = i.p AND t.reviewer_id = ${reviewer.id}::uuid
     WHERE v.id = 1`;
  const stale = rows.filter((r) => !r.fresh).map((r) => r.p);
  if (stale.length) {
    void (async () => {
      for (const p of stale) await refreshReviewerTrendDays(prisma, p, reviewer);
    })().catch(() => undefined);
  }
  return new Set(rows.filter((r) => r.fresh && r.exact).map((r) => r.p));
}

/**
 * A reviewer's own decided series of the period per bucket from the days kept
 * for them (reviewer_trend_days); null when those cannot be read (reviewerDaysUsable).
 */
export async function keptReviewerBuckets(prisma: PrismaClient, periodId: string, reviewer: User, unit: 'day' | 'week'): Promise<DecidedBucket[] | null> {
  if (!(await reviewerDaysUsable(prisma, reviewer, [periodId])).size) return null;
  return prisma.$queryRaw<DecidedBucket[]>`
    SELECT date_trunc(${Prisma.raw(`'${unit}'`)}, t.day::timestamp) AS b, sum(t.retained)::bigint AS retained, sum(t.removed)::bigint AS removed
      FROM reviewer_trend_days t WHERE t.period_id = ${periodId}::uuid AND t.reviewer_id = ${reviewer.id}::uuid GROUP BY 1`;
}

/**
 * Of the live rows a reviewer sees, how many they decided in these periods
 * (all, or only those retained, with or without a mitigating control, or
 * removed): the sum of their kept days, which count each such row once a
 * period (one decision per reviewer, row and period), over the periods whose
 * days can be read (reviewerDaysUsable); the others are left to the caller to
 * count from the decisions.
 */
export async function keptReviewerDecisions(
  prisma: PrismaClient,
  reviewer: User,
  periodIds: readonly string[],
  decision: 'retain' | 'remove' | null = null,
): Promise<{ n: number; notKept: string[] }> {
  const usable = await reviewerDaysUsable(prisma, reviewer, periodIds);
  const notKept = periodIds.filter((p) => !usable.has(p));
  if (!usable.size) return { n: 0, notKept };
  const kinds = decision === 'retain' ? Prisma.sql`t.retained` : decision === 'remove' ? Prisma.sql`t.removed` : Prisma.sql`t.retained + t.removed`;
  const [r] = await prisma.$queryRaw<{ n: bigint | null }[]>`
    SELECT sum(${kinds})::bigint AS n FROM reviewer_trend_days t WHERE t.period_id = ANY(${[...usable]}::uuid[]) AND t.reviewer_id = ${reviewer.id}::uuid`;
  return { n: Number(r?.n ?? 0), notKept };
}

/** Of the live rows a reviewer sees, how many they decided in the period (their 'pending' is the rest); null when not kept (keptReviewerDecisions). */
export async function keptReviewerDecidedRows(prisma: PrismaClient, periodId: string, reviewer: User): Promise<number | null> {
  const { n, notKept } = await keptReviewerDecisions(prisma, reviewer, [periodId]);
  return notKept.length ? null : n;
}

/**
 * Works a reviewer's days of the period out again from their decisions on the
 * live rows they see (rewriteReviewerDays, the same statement as for every
 * reviewer at once, inside the lock with the versions it is stamped with),
 * unless already up to date.
 */
export async function refreshReviewerTrendDays(prisma: PrismaClient, periodId: string, reviewer: User): Promise<void> {
  await prisma.$transaction(
    async (tx) => {
      await lockTrendPeriod(tx, periodId);
      const [s] = await tx.$queryRaw<{ fresh: boolean }[]>`
        SELECT EXISTS (SELECT 1 FROM reviewer_trend_periods t WHERE t.period_id = ${periodId}::uuid AND t.reviewer_id = ${reviewer.id}::uuid
                          AND t.data_version = v.version AND t.criteria_version = v.criteria_version) AS fresh
          FROM risk_data_version v WHERE v.id = 1`;
      if (!s || s.fresh) return;
      await rewriteReviewerDays(tx, periodId, await sightsOf(tx, [reviewer.id]));
    },
    { timeout: 600_000, maxWait: 120_000 },
  );
}

export const TREND_DAYS = {
  name: 'trend days',
  tables: ['trend_days', 'trend_periods'],
  freshWhen: "the period's stamp equals risk_data_version's version",
  refresh: refreshTrendDays,
  countLive: latestDecisionsByBucket,
} as const satisfies KeptAggregate;

export const REVIEWER_DAYS = {
  name: 'reviewer days',
  tables: ['reviewer_trend_days', 'reviewer_trend_periods'],
  freshWhen: "the (period, reviewer) stamp equals risk_data_version's version and criteria_version, and is exact",
  refresh: refreshReviewerTrendDays,
  countLive: latestDecisionsByBucket,
} as const satisfies KeptAggregate;
