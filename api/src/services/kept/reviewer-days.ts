// A reviewer's own dashboard trend is read from days kept per (period,
// reviewer) (reviewer_trend_days, stamped in reviewer_trend_periods with the
// data and criteria versions they were worked out at; trend-days.ts reads
// them). This module works them out, set-based: one statement for
// every reviewer asked, each with their own visibility written into it as a
// CASE on the decision's reviewer (as the risk report's 'Assigned To' does),
// so the events that change what reviewers see (an upload going live, a
// criteria change, an item handed over: dispatcher.ts) bring their days up to
// date in their own transaction instead of leaving the first read to count live. It takes
// the reviewers' conditions as SQL (services/holds.ts sightsOf builds
// them): it knows nothing of criteria itself.
import { Prisma } from '../../generated/prisma/client.js';
import type { DbClient } from '../../core/types.js';
import { LIVE_ROWS } from '../live-rows.js';
import { lockTrendPeriod } from '../review/decision-locks.js';
import type { ReviewerSight } from '../holds.js';

/**
 * Works the days of these reviewers in the period out again in one statement,
 * from their decisions on the live rows they see, and stamps each with the
 * versions read here (inside the trend's lock of the period, in the caller's
 * transaction): exact when every decision of theirs on a live row is on a
 * row they see (else their series is counted live, see keptReviewerBuckets).
 */
export async function rewriteReviewerDays(tx: DbClient, periodId: string, sights: ReviewerSight[]): Promise<void> {
  if (!sights.length) return;
  await lockTrendPeriod(tx, periodId);
  const ids = sights.map((s) => s.id);
  const seen = Prisma.sql`coalesce(CASE d.reviewer_id ${Prisma.join(
    sights.map((s) => Prisma.sql`WHEN ${s.id}::uuid THEN ${s.sees}`),
    ' ',
  )} ELSE FALSE END, FALSE)`;
  await tx.$executeRaw`DELETE FROM reviewer_trend_days WHERE period_id = ${periodId}::uuid AND reviewer_id = ANY(${ids}::uuid[])`;
  await tx.$executeRaw`
    WITH x AS MATERIALIZED (
      SELECT d.reviewer_id, d.updated_at, d.decision::text AS decision, ${seen} AS seen
        FROM decisions d JOIN risk_rows r ON r.id = d.risk_row_id
       WHERE d.period_id = ${periodId}::uuid AND d.reviewer_id = ANY(${ids}::uuid[]) AND ${LIVE_ROWS}
    ), days AS (
      INSERT INTO reviewer_trend_days (period_id, reviewer_id, day, retained, removed)
      SELECT ${periodId}::uuid, x.reviewer_id, (x.updated_at AT TIME ZONE 'UTC')::date,
             count(*) FILTER (WHERE x.decision <> 'remove'), count(*) FILTER (WHERE x.decision = 'remove')
        FROM x WHERE x.seen GROUP BY 2, 3
    )
    INSERT INTO reviewer_trend_periods (period_id, reviewer_id, data_version, criteria_version, exact, refreshed_at)
    SELECT ${periodId}::uuid, i.id, v.version, v.criteria_version, coalesce(c.seen = c.live, TRUE), now()
      FROM unnest(${ids}::uuid[]) i(id) CROSS JOIN risk_data_version v
      LEFT JOIN (SELECT x.reviewer_id, count(*) AS live, count(*) FILTER (WHERE x.seen) AS seen FROM x GROUP BY 1) c ON c.reviewer_id = i.id
     WHERE v.id = 1
    ON CONFLICT (period_id, reviewer_id) DO UPDATE
      SET data_version = EXCLUDED.data_version, criteria_version = EXCLUDED.criteria_version, exact = EXCLUDED.exact, refreshed_at = now()`;
}

/**
 * At the start of a transaction that changes what some reviewers see
 * (criteria, item holds): the criteria version before the change, with the
 * version row locked until the commit (another such change, or an upload,
 * waits), for keepReviewerDaysAfter (dispatcher.ts beginSightChange).
 */
export async function criteriaVersionBefore(tx: DbClient): Promise<bigint> {
  const [v] = await tx.$queryRaw<{ c: bigint }[]>`SELECT criteria_version AS c FROM risk_data_version WHERE id = 1 FOR UPDATE`;
  return v?.c ?? 0n;
}

/**
 * After the change, in its transaction: the kept days of the reviewers it
 * did not touch are still right (what they see is their own criteria and
 * holds), so those that were up to date before it are stamped with the new
 * criteria version; the touched reviewers' days are worked out again in the
 * active period where theirs are kept (one statement). Their days of closed
 * periods (kept for All Reviews' totals) are left stale: a change does not pay
 * for every past period, and the next reader counts those live meanwhile.
 */
export async function keepReviewerDaysAfter(tx: DbClient, before: bigint, touched: ReviewerSight[]): Promise<void> {
  const ids = touched.map((s) => s.id);
  await tx.$executeRaw`
    UPDATE reviewer_trend_periods t SET criteria_version = v.criteria_version FROM risk_data_version v
     WHERE v.id = 1 AND t.criteria_version = ${before} AND t.data_version = v.version AND t.reviewer_id <> ALL(${ids}::uuid[])`;
  const periods = await tx.$queryRaw<{ p: string }[]>`
    SELECT DISTINCT t.period_id::text AS p FROM reviewer_trend_periods t JOIN review_periods rp ON rp.id = t.period_id AND rp.status = 'active'
     WHERE t.reviewer_id = ANY(${ids}::uuid[]) ORDER BY 1`;
  for (const { p } of periods) await rewriteReviewerDays(tx, p, touched);
}
