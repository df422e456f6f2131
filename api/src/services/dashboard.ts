// Dashboard figures.
import { Prisma, type PrismaClient } from '../generated/prisma/client.js';
import { ValidationError } from '../core/errors.js';
import type { PubSub } from '../pubsub.js';
import type { DbClient } from '../core/types.js';
import { kept } from './risk-counts.js';
import type { Viewer } from './viewer.js';
import { decidedRowCount, scopeTotals, visibleTotals } from './risks.js';
import { getActivePeriod } from './periods.js';
import { freshSharedItems, periodsWithDecisions } from './shared-items.js';
import { HIGH_LEVEL_SQL } from './risk-rules.js';
import { ADMIN_SCOPE, type RowScope } from './visibility.js';
import { HOLDS_WORK, sightsOf } from './assignments.js';
import { rewriteReviewerDays } from './reviewer-days.js';
import { keptDecidedBuckets, keptReviewerBuckets, latestDecisionsByBucket, ownDecisions, refreshTrendDays } from './trend-days.js';

/** The window of the 'High Risk Users' trend text (SPEC §2), in days. */
export const HIGH_RISK_TREND_DAYS = 30;

/**
 * The 'High Risk Users' trend (issue 15, point 1): of the users the viewer
 * sees with a high-risk row, how many had none before the last 30 days (their
 * first high-risk row was loaded since). Cached per data version and day.
 */
async function newHighRiskUsers(prisma: PrismaClient, scope: RowScope): Promise<number> {
  const since = new Date(Date.now() - HIGH_RISK_TREND_DAYS * 86_400_000);
  const day = since.toISOString().slice(0, 10);
  return kept(prisma, `highTrend|${scope.key}|${day}`, async () => {
    const r = await prisma.$queryRaw<{ n: bigint }[]>`
      SELECT count(*) AS n FROM (
        SELECT r.user_id FROM risk_rows r WHERE ${scope.visible} AND ${HIGH_LEVEL_SQL}
         GROUP BY r.user_id HAVING min(r.created_at) >= ${day}::date) x`;
    return Number(r[0]?.n ?? 0);
  });
}

/** A reviewer counts as online when seen within this window. */
export const ONLINE_WINDOW_MS = 15 * 60_000;

export async function dashboardStats(prisma: PrismaClient, viewer: Viewer) {
  const user = viewer.user;
  // Pending: for a reviewer, rows they have not decided; for an administrator,
  // rows nobody has decided.
  const [period, scope] = await Promise.all([viewer.activePeriod(), viewer.scope()]);
  const [totals, decided, newHigh] = await Promise.all([
    visibleTotals(prisma, user, scope),
    decidedRowCount(prisma, user, period?.id ?? null, scope.visible),
    newHighRiskUsers(prisma, scope),
  ]);
  const activeReviewers = await prisma.user.count({
    where: { role: 'reviewer', isActive: true, lastSeenAt: { gte: new Date(Date.now() - ONLINE_WINDOW_MS) } },
  });
  return {
    totalConflicts: totals.total,
    highRiskUsers: totals.highUsers,
    newHighRiskUsers: newHigh,
    pendingReviews: period ? totals.total - decided : 0,
    activeReviewers,
  };
}

/** The trend chart's periods (SPEC §2: Last 30 days, Last 90 days, Last 6 months) and their buckets. */
export const TREND_RANGES = {
  '30d': { label: 'Last 30 days', unit: 'day', count: 30 },
  '90d': { label: 'Last 90 days', unit: 'day', count: 90 },
  '6m': { label: 'Last 6 months', unit: 'week', count: 26 },
} as const;
export type TrendRange = keyof typeof TREND_RANGES;

export interface TrendPoint {
  /** The start of the bucket (a day, or a week from Monday), UTC. */
  date: Date;
  /** Conflicts loaded by the end of the bucket (the live rows the viewer sees, by when they were loaded). */
  loaded: number;
  /** Of those, decided retain (with or without a mitigating control) by the end of the bucket. */
  retained: number;
  removed: number;
  /** Loaded and not decided by the end of the bucket. */
  pending: number;
}

/**
 * The risk trend (dashboard chart): per day or week of the range, the
 * conflicts loaded, decided retain, decided remove and pending, cumulative at
 * the end of each bucket. Decisions are those of the active period (else the
 * latest period): for an administrator any reviewer's, the row counted once
 * with its latest decision; for a reviewer their own. A decision counts from
 * its last change (an earlier value is in the audit trail, not here). The
 * loads per bucket are cached per data version; everyone's decisions are
 * read from the days kept per period (services/trend-days.ts), a reviewer's
 * own from the days kept per period and reviewer.
 */
export async function dashboardTrend(prisma: PrismaClient, viewer: Viewer, range: string): Promise<{ range: TrendRange; points: TrendPoint[] }> {
  if (!(range in TREND_RANGES)) throw new ValidationError(`range must be ${Object.keys(TREND_RANGES).join(', ')}`, 'range');
  const r = range as TrendRange;
  const { unit, count } = TREND_RANGES[r];
  const u = Prisma.raw(`'${unit}'`);
  const [scope, period] = await Promise.all([viewer.scope(), referencePeriod(prisma, await viewer.activePeriod())]);
  const loadedBy = await loadsPerBucket(prisma, scope, unit);
  // Everyone's decisions from the days kept per period, a reviewer's own from the days kept for them
  // (each counted live while those are refreshed).
  const decided = !period
    ? []
    : viewer.role === 'admin'
      ? ((await keptDecidedBuckets(prisma, period, unit)) ?? (await latestDecisionsByBucket(prisma, period, unit, scope.visible)))
      : ((await keptReviewerBuckets(prisma, period, viewer.user, unit)) ??
        (await latestDecisionsByBucket(prisma, period, unit, scope.visible, ownDecisions(viewer.user.id))));
  const buckets = await prisma.$queryRaw<{ b: Date }[]>`
    SELECT generate_series(date_trunc(${u}, now() AT TIME ZONE 'UTC') - ${`${count - 1} ${unit}`}::interval, date_trunc(${u}, now() AT TIME ZONE 'UTC'), ${`1 ${unit}`}::interval) AS b`;
  const upTo = <T extends { b: Date }>(rows: T[], end: Date, pick: (row: T) => bigint) =>
    rows.reduce((sum, row) => (new Date(row.b).getTime() <= end.getTime() ? sum + Number(pick(row)) : sum), 0);
  const points = buckets.map(({ b }) => {
    const date = new Date(b);
    const loaded = upTo(loadedBy, date, (x) => x.n);
    const retained = upTo(decided, date, (x) => x.retained);
    const removed = upTo(decided, date, (x) => x.removed);
    return { date, loaded, retained, removed, pending: Math.max(0, loaded - retained - removed) };
  });
  return { range: r, points };
}

/** The rows the scope sees loaded per bucket (the trend's 'loaded'), kept per data version and day (kept: in the database too). */
function loadsPerBucket(prisma: PrismaClient, scope: RowScope, unit: 'day' | 'week') {
  const day = new Date().toISOString().slice(0, 10);
  return kept(prisma, `trend|${scope.key}|${unit}|${day}`, async () =>
    prisma.$queryRaw<{ b: Date; n: bigint }[]>`
      SELECT date_trunc(${Prisma.raw(`'${unit}'`)}, r.created_at AT TIME ZONE 'UTC') AS b, count(*) AS n FROM risk_rows r WHERE ${scope.visible} GROUP BY 1`,
  );
}

/** The period whose decisions the charts show: the active one, else the latest. */
async function referencePeriod(db: DbClient, active: { id: string } | null): Promise<string | null> {
  if (active) return active.id;
  const latest = await db.reviewPeriod.findFirst({ orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], select: { id: true } });
  return latest?.id ?? null;
}

/** The risk categories (SPEC §9: Access Control, Data Privacy, Financial, Operational) and the rest. */
export const UNCATEGORISED = 'Uncategorised';

/**
 * The Risk Categories card: how many conflicts the viewer sees in each
 * category. A row's category is its AI-suggested category once a person has
 * accepted it; every other row (no suggestion, not yet accepted, rejected)
 * is 'Uncategorised'. The one place that decides which category a row counts
 * in (categoryOfRowSql); the AI categories work may extend it.
 */
export const categoryOfRowSql = Prisma.sql`CASE WHEN r.ai_category_accepted IS TRUE AND coalesce(r.ai_suggested_category, '') <> '' THEN r.ai_suggested_category ELSE ${UNCATEGORISED} END`;

/** Cached per data version and category version. */
export async function riskCategories(prisma: PrismaClient, viewer: Viewer): Promise<{ category: string; count: number }[]> {
  const rows = await categoryCounts(prisma, await viewer.scope());
  return rows
    .map((x) => ({ category: x.category, count: Number(x.n) }))
    .sort((a, b) => (a.category === UNCATEGORISED ? 1 : b.category === UNCATEGORISED ? -1 : b.count - a.count || a.category.localeCompare(b.category)));
}

/** The rows the scope sees per category, cached per data version and category version (accepting a category changes no row's data). */
async function categoryCounts(prisma: PrismaClient, { visible, key }: RowScope) {
  const [v] = await prisma.$queryRaw<{ c: bigint }[]>`SELECT category_version AS c FROM risk_data_version WHERE id = 1`;
  return kept(prisma, `categories|${key}|${v?.c ?? 0n}`, () =>
    prisma.$queryRaw<{ category: string; n: bigint }[]>`
      SELECT ${categoryOfRowSql} AS category, count(*) AS n FROM risk_rows r WHERE ${visible} GROUP BY 1`);
}

/**
 * In the transaction that makes an upload live: brings the figures kept in
 * the database for an administrator's dashboard up to date with the new live
 * rows, so that the upload is reported done with them (the first dashboard
 * after an upload then reads kept figures, as the later ones do). For the
 * periods with decisions: the shared items (the decided rows of 'pending',
 * All Reviews), and the trend's days of the period the chart shows,
 * everyone's and each reviewer's own, each one set-based statement; nothing when no period has decisions. Returns whether
 * it refreshed shared items (then vacuumSharedItems after the commit).
 */
export async function bringKeptFiguresUpToDate(tx: DbClient): Promise<boolean> {
  const periods = await periodsWithDecisions(tx);
  if (!periods.length) return false;
  await freshSharedItems(tx, periods, { inTransaction: true });
  const shown = await referencePeriod(tx, await getActivePeriod(tx));
  if (shown && periods.includes(shown)) {
    await refreshTrendDays(tx, shown, { inTransaction: true });
    // The reviewers' own days too (those who hold work or whose days are kept), one statement for all.
    const reviewers = await tx.user.findMany({
      where: { OR: [{ role: 'reviewer', ...HOLDS_WORK }, { reviewerTrendPeriods: { some: { periodId: shown } } }] },
      select: { id: true },
      orderBy: { id: 'asc' },
    });
    await rewriteReviewerDays(tx, shown, await sightsOf(tx, reviewers.map((u) => u.id)));
  }
  return true;
}

/**
 * After an upload went live, before it is announced (open dashboards refetch
 * on it): the figures an administrator's dashboard caches per data version in
 * this process (totals, new high-risk users, loads per day and week,
 * categories), worked out now instead of on the first read. A reviewer's
 * (their scope, their own trend days) are worked out on their first read.
 */
export async function warmDashboardFigures(prisma: PrismaClient): Promise<void> {
  await Promise.all([
    scopeTotals(prisma, ADMIN_SCOPE),
    newHighRiskUsers(prisma, ADMIN_SCOPE),
    loadsPerBucket(prisma, ADMIN_SCOPE, 'day'),
    loadsPerBucket(prisma, ADMIN_SCOPE, 'week'),
    categoryCounts(prisma, ADMIN_SCOPE),
  ]);
}

/** Tells open dashboards that their figures moved (after the change committed); carries nothing else. */
export function publishDashboardChanged(pubsub: PubSub, reason: 'decisions' | 'upload'): void {
  pubsub.publish('dashboard:changed', { reason });
}
