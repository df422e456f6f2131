// Dashboard figures (those counted over every row a scope sees: services/kept/scope-figures.ts).
import { Prisma } from '../generated/prisma/client.js';
import { ValidationError } from '../core/errors.js';
import { callerSight, type Caller } from './caller.js';
import { decidedRowCount, visibleTotals } from './review/risks.js';
import { unassignedConflicts } from './review/coverage.js';
import { personLabel } from '../core/people.js';
import {
  UNCATEGORISED,
  categoryCounts,
  keptDecidedBuckets,
  keptReviewerBuckets,
  latestDecisionsByBucket,
  loadsPerBucket,
  newHighRiskUsers,
  ownDecisions,
} from './kept/index.js';

/** A reviewer counts as online when seen within this window. */
export const ONLINE_WINDOW_MS = 15 * 60_000;

/**
 * 'Pending' on the dashboard, its card and its trend chart alike: the rows the
 * viewer sees that are not decided in the period whose decisions are shown
 * (the active one, else the one closed last; every row when there is none),
 * by anyone for an administrator, by themselves for a reviewer.
 */
export async function dashboardStats(caller: Caller) {
  const { prisma, user, period, scope } = await callerSight(caller);
  const [totals, decided, newHigh, unassigned] = await Promise.all([
    visibleTotals(prisma, user, scope),
    decidedRowCount(prisma, user, period?.id ?? null, scope.visible),
    newHighRiskUsers(prisma, scope),
    unassignedConflicts(caller),
  ]);
  const activeReviewers = await prisma.user.count({
    where: { role: 'reviewer', isActive: true, lastSeenAt: { gte: new Date(Date.now() - ONLINE_WINDOW_MS) } },
  });
  return {
    totalConflicts: totals.total,
    highRiskUsers: totals.highUsers,
    newHighRiskUsers: newHigh,
    pendingReviews: Math.max(0, totals.total - decided),
    activeReviewers,
    // Coverage, with or without an active period: the rows nobody can review, and fallback reviewers named who cannot.
    unassignedConflicts: unassigned.count,
    inactiveFallbackReviewers: unassigned.inactiveFallbackReviewers.map(personLabel),
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
 * the end of each bucket. Decisions are those of the decision period (the
 * active one, else the one closed last; 'pending' as dashboardStats says): for an administrator any reviewer's, the row counted once
 * with its latest decision; for a reviewer their own. A decision counts from
 * its last change (an earlier value is in the audit trail, not here). The
 * loads per bucket are cached per data version; everyone's decisions are
 * read from the days kept per period (services/kept/trend-days.ts), a reviewer's
 * own from the days kept per period and reviewer.
 */
export async function dashboardTrend(caller: Caller, range: string): Promise<{ range: TrendRange; points: TrendPoint[] }> {
  const {
    deps: { prisma },
    viewer,
  } = caller;
  if (!(range in TREND_RANGES)) throw new ValidationError(`range must be ${Object.keys(TREND_RANGES).join(', ')}`, 'range');
  const r = range as TrendRange;
  const { unit, count } = TREND_RANGES[r];
  const u = Prisma.raw(`'${unit}'`);
  const [scope, period] = await Promise.all([viewer.scope(), viewer.decisionPeriod().then((p) => p?.id ?? null)]);
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

/** Cached per data version and category version. */
export async function riskCategories(caller: Caller): Promise<{ category: string; count: number }[]> {
  const rows = await categoryCounts(caller.deps.prisma, await caller.viewer.scope());
  return rows
    .map((x) => ({ category: x.category, count: Number(x.n) }))
    .sort((a, b) => (a.category === UNCATEGORISED ? 1 : b.category === UNCATEGORISED ? -1 : b.count - a.count || a.category.localeCompare(b.category)));
}
