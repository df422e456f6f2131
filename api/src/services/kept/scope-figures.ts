// The dashboard's figures counted over every live row a scope sees (an
// administrator's: every row; a reviewer's: the rows their criteria and moved
// items give them, services/visibility.ts): the totals (rows, high rows, users
// with a high row), the users whose first high-risk row is new, the rows
// loaded per day and per week (the trend's 'loaded') and the rows per
// category. Each is a count over up to every live row (~370 ms for a reviewer
// who sees 30% of 1M rows), kept per data version and key (risk-counts.ts
// kept: in the process and in kept_figures). Read one by one by the dashboard
// (the readers below); worked out for every scope at once after an upload went
// live, before it is announced, and by the dashboard figures' job after a
// change of what reviewers see and daily just before 00:00 UTC, for the new
// day too (warmDashboardFigures: one scan of the live rows for all of them), so
// nobody's first dashboard after an upload, a criteria change or midnight counts.
// The keys the figures are kept under live here only (KEYS), for both.
import { Prisma, type CriteriaType, type PrismaClient } from '../../generated/prisma/client.js';
import { DAY_MS, type DbClient } from '../../core/types.js';
import { withPlanSettings } from '../../db/plan-settings.js';
import { JOBS, onTransaction, type JobQueue } from '../../db/queue.js';
import { figuresNotKept, keepFigures, kept } from './risk-counts.js';
import { HIGH_LEVEL_SQL } from '../risk-rules.js';
import { ADMIN_SCOPE, LIVE_ROWS, scopeKey, type RowScope } from '../visibility.js';
import { CRITERIA_COLUMN, CRITERIA_TYPES, HOLDS_WORK, assignedRowsCondition, criteriaSetsOf, type CriteriaSets } from '../holds.js';
import type { KeptAggregate } from './aggregate.js';

/** The window of the 'High Risk Users' trend text (SPEC §2), in days. */
export const HIGH_RISK_TREND_DAYS = 30;

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

type Unit = 'day' | 'week';
export type Totals = { total: number; high: number; highUsers: number };
export type Loads = { b: Date; n: bigint }[];
export type Categories = { category: string; n: bigint }[];

/**
 * The keys of the figures (with the scope's key): per data version by kept(),
 * per day where the figure depends on the day ('new' high-risk users are those
 * since 30 days ago: the daily run of jobs/dashboard-figures.ts works the new
 * day's out just after midnight UTC), per category version for the categories
 * (accepting a category changes no row's data). The loads per bucket are the
 * live rows grouped by the day or week they were loaded, whatever today is
 * (the trend picks its range's buckets from them): no day in their key.
 */
const KEYS = {
  totals: (scope: string) => `totals|${scope}`,
  highTrend: (scope: string, since: string) => `highTrend|${scope}|${since}`,
  loads: (scope: string, unit: Unit) => `trend|${scope}|${unit}`,
  categories: (scope: string, categoryVersion: bigint) => `categories|${scope}|${categoryVersion}`,
};
/** The first day of the 'new high-risk users' window as of `now` (UTC date). */
const sinceDay = (now = new Date()) => new Date(now.getTime() - HIGH_RISK_TREND_DAYS * DAY_MS).toISOString().slice(0, 10);

/** A scope's figures' keys as of `now` (those its dashboard reads, and keepScopeFigures writes). */
export const keysOf = (scope: string, categoryVersion: bigint, now = new Date()) => ({
  totals: KEYS.totals(scope),
  highTrend: KEYS.highTrend(scope, sinceDay(now)),
  day: KEYS.loads(scope, 'day'),
  week: KEYS.loads(scope, 'week'),
  categories: KEYS.categories(scope, categoryVersion),
});

async function categoryVersion(db: DbClient): Promise<bigint> {
  const [v] = await db.$queryRaw<{ c: bigint }[]>`SELECT category_version AS c FROM risk_data_version WHERE id = 1`;
  return v?.c ?? 0n;
}

/** How many rows the scope sees, how many of them are high and how many distinct users have a high one. */
export async function scopeTotals(db: DbClient, { visible, key }: RowScope): Promise<Totals> {
  return kept(db, KEYS.totals(key), async () => {
    const r = await db.$queryRaw<{ total: bigint; high: bigint; high_users: bigint }[]>`
      SELECT count(*) AS total, count(*) FILTER (WHERE ${HIGH_LEVEL_SQL}) AS high,
             count(DISTINCT r.user_id) FILTER (WHERE ${HIGH_LEVEL_SQL}) AS high_users
        FROM risk_rows r WHERE ${visible}`;
    return { total: Number(r[0]?.total ?? 0), high: Number(r[0]?.high ?? 0), highUsers: Number(r[0]?.high_users ?? 0) };
  });
}

/**
 * The 'High Risk Users' trend: of the users the scope
 * sees with a high-risk row, how many had none before the last 30 days (their
 * first high-risk row was loaded since).
 */
export async function newHighRiskUsers(db: DbClient, scope: RowScope): Promise<number> {
  const day = sinceDay();
  return kept(db, KEYS.highTrend(scope.key, day), async () => {
    const r = await db.$queryRaw<{ n: bigint }[]>`
      SELECT count(*) AS n FROM (
        SELECT r.user_id FROM risk_rows r WHERE ${scope.visible} AND ${HIGH_LEVEL_SQL}
         GROUP BY r.user_id HAVING min(r.created_at) >= ${day}::date) x`;
    return Number(r[0]?.n ?? 0);
  });
}

/** The rows the scope sees loaded per bucket (the trend's 'loaded'). */
export function loadsPerBucket(db: DbClient, scope: RowScope, unit: Unit): Promise<Loads> {
  return kept(
    db,
    KEYS.loads(scope.key, unit),
    async () =>
      db.$queryRaw<Loads>`
      SELECT date_trunc(${Prisma.raw(`'${unit}'`)}, r.created_at AT TIME ZONE 'UTC') AS b, count(*) AS n FROM risk_rows r WHERE ${scope.visible} GROUP BY 1`,
  );
}

/** The rows the scope sees per category. */
export async function categoryCounts(db: DbClient, { visible, key }: RowScope): Promise<Categories> {
  return kept(
    db,
    KEYS.categories(key, await categoryVersion(db)),
    () =>
      db.$queryRaw<Categories>`
      SELECT ${categoryOfRowSql} AS category, count(*) AS n FROM risk_rows r WHERE ${visible} GROUP BY 1`,
  );
}

/** A scope whose figures keepScopeFigures works out: its key, and its reviewer's sets (null: every live row). */
export interface FigureScope {
  key: string;
  sets: CriteriaSets | null;
}

/** The administrator's scope and every distinct scope of the active reviewers who hold work (equal criteria, one scope). */
export async function dashboardScopes(db: DbClient): Promise<FigureScope[]> {
  const reviewers = await db.user.findMany({ where: { role: 'reviewer', isActive: true, ...HOLDS_WORK }, select: { id: true }, orderBy: { id: 'asc' } });
  const byKey = new Map<string, FigureScope>([[ADMIN_SCOPE.key, { key: ADMIN_SCOPE.key, sets: null }]]);
  for (const sets of (
    await criteriaSetsOf(
      db,
      reviewers.map((u) => u.id),
    )
  ).values()) {
    const key = scopeKey(sets);
    if (!byKey.has(key)) byKey.set(key, { key, sets });
  }
  return [...byKey.values()];
}

/**
 * How long before a UTC day starts warmDashboardFigures keeps that day's
 * figures too ('new high-risk users' carry the day): the daily run is a few
 * minutes before midnight (jobs/dashboard-figures.ts DASHBOARD_FIGURES_CRON),
 * so the first read of the new day finds them kept.
 */
export const NEXT_DAY_AHEAD_MS = 10 * 60_000;

/**
 * After an upload went live, before it is announced (open dashboards refetch
 * on it), at start, and by the dashboard figures' job (jobs/dashboard-figures.ts:
 * after a change of what reviewers see, and just before midnight UTC): the
 * figures of every scope (dashboardScopes) not kept at the current data
 * version yet, under the keys of `now`'s day (and of the next day, when it
 * starts within NEXT_DAY_AHEAD_MS), worked out together (keepScopeFigures)
 * instead of on each viewer's first read.
 */
export async function warmDashboardFigures(prisma: PrismaClient, now = new Date()): Promise<void> {
  const [scopes, [v]] = await Promise.all([
    dashboardScopes(prisma),
    prisma.$queryRaw<{ version: bigint; c: bigint }[]>`SELECT version, category_version AS c FROM risk_data_version WHERE id = 1`,
  ]);
  const nextDay = new Date(Math.floor(now.getTime() / DAY_MS + 1) * DAY_MS);
  const days = nextDay.getTime() - now.getTime() <= NEXT_DAY_AHEAD_MS ? [now, nextDay] : [now];
  for (const at of days) {
    const keys = new Map(scopes.map((s) => [s, Object.values(keysOf(s.key, v?.c ?? 0n, at))]));
    const missing = await figuresNotKept(prisma, v?.version ?? 0n, [...keys.values()].flat());
    await keepScopeFigures(
      prisma,
      scopes.filter((s) => keys.get(s)!.some((k) => missing.has(k))),
      at,
    );
  }
}

/**
 * Sends the dashboard figures' job (jobs/dashboard-figures.ts) in the
 * transaction `tx` of a change after which a scope may have no figures kept:
 * what a reviewer sees changed, or a reviewer holding work became active (made
 * active again, or given the reviewer's role). A change that fails sends
 * nothing; the job cannot run before the change is committed (see
 * sightChangesSettled for a job already waiting).
 */
export async function askForDashboardFigures(tx: DbClient, jobs: JobQueue): Promise<void> {
  await jobs.boss.send(JOBS.dashboardFigures, {}, { db: onTransaction(tx) });
}

/**
 * Waits for the changes of what reviewers see that are under way to commit
 * (each holds the criteria version's row from its start: dispatcher.ts
 * beginSightChange). The dashboard figures' queue keeps one job waiting
 * (pg-boss 'stately'): a change that finds one waiting sends none, and that
 * job may be fetched before the change commits; it waits here before reading
 * the scopes, so it sees it.
 */
export async function sightChangesSettled(db: DbClient): Promise<void> {
  await db.$queryRaw`SELECT 1 FROM risk_data_version WHERE id = 1 FOR SHARE`;
}

/** The criteria column a scope's condition reads, as keepScopeFigures' groups name it (a user id apart: the user is kept whole too). */
const groupColumn = (t: CriteriaType) => (t === 'user_id' ? 'ru' : CRITERIA_COLUMN[t]);

/**
 * Works out the figures of these scopes (totals, new high-risk users, loads
 * per day and per week, categories) in one statement and keeps them at the
 * data version it read (kept_figures, under the keys the readers above use,
 * in their shape). Counted per scope, each is a scan of the rows it sees; here:
 *
 * 1. One scan of the live rows, grouped (GROUPING SETS) by what the scopes'
 *    conditions read: a criteria column with few values (statistics) by its
 *    own values, the others reduced to the values some scope names (NULL for
 *    the rest), the row id to the ids moved to or from someone (0 for the
 *    others), so the groups stay few: (a) with the risk level, the category
 *    columns and the time of loading, counting rows (high flag, category and
 *    day are worked out per group in step 3); (b) with the user id, keeping
 *    the user's first high-risk load (only groups with a high row).
 * 2. Each group is given the indexes of the scopes that see it: each scope's
 *    own assignedRowsCondition (the visibility rule itself) evaluated on the
 *    group, whose columns are named as risk_rows' (alias r); a reduced value
 *    matches exactly the scopes that name it, and NULL none.
 * 3. Per scope: the sums of (a) for totals, high, per day, per week (a day's
 *    week: date_trunc('week', day) = date_trunc('week', created_at)) and per
 *    category; (b) reduced per scope and user, then the users with a high row
 *    and those whose first one is since the window's start.
 */
export async function keepScopeFigures(db: PrismaClient, scopes: FigureScope[], now = new Date()): Promise<void> {
  if (!scopes.length) return;
  const since = sinceDay(now);
  // Without JIT (compiling the statement took 3.7 s of 8.9 s at 1M rows) and with the memory to hash
  // its groups (~13 MB and ~22 MB at 1M rows: with the default 4 MB it sorted 1M rows on disk, 10 s).
  const few = await fewValued(db);
  const rows = await withPlanSettings(db, { jit: 'off', workMem: '64MB' }, db.$queryRaw<FigureRow[]>(scopeFiguresSql(scopes, since, few)));
  const version = rows[0]?.version ?? 0n;
  const keys = scopes.map((s) => keysOf(s.key, rows[0]?.c ?? 0n, now));
  // What a reader counts for a scope that sees no row.
  const totals = scopes.map((): Totals => ({ total: 0, high: 0, highUsers: 0 }));
  const highTrend = scopes.map(() => 0);
  const loads = { day: scopes.map((): Loads => []), week: scopes.map((): Loads => []) };
  const categories = scopes.map((): Categories => []);
  for (const r of rows) {
    if (r.k === null) continue;
    const n = r.n ?? 0n;
    if (r.f === 'totals') Object.assign(totals[r.k]!, { total: Number(n), high: Number(r.high ?? 0n) });
    else if (r.f === 'users') {
      totals[r.k]!.highUsers = Number(n);
      highTrend[r.k] = Number(r.high ?? 0n);
    } else if (r.f === 'day' || r.f === 'week') loads[r.f][r.k]!.push({ b: r.b!, n });
    else if (r.f === 'category') categories[r.k]!.push({ category: r.category!, n });
  }
  const figures = new Map<string, unknown>();
  keys.forEach((key, i) => {
    figures.set(key.totals, totals[i]);
    figures.set(key.highTrend, highTrend[i]);
    figures.set(key.day, loads.day[i]);
    figures.set(key.week, loads.week[i]);
    figures.set(key.categories, categories[i]);
  });
  await keepFigures(db, version, figures);
}

/** Grouped by its own values, a column with at most this many (a system, a user group) makes few groups. */
const FEW_VALUES = 64;

/** The criteria columns the statistics say have few distinct values (none without statistics). */
export async function fewValued(db: DbClient): Promise<Set<string>> {
  const rows = await db.$queryRaw<{ c: string }[]>`
    SELECT attname::text AS c FROM pg_stats WHERE schemaname = current_schema() AND tablename = 'risk_rows'
       AND attname = ANY(${Object.values(CRITERIA_COLUMN)}::text[]) AND n_distinct BETWEEN 1 AND ${FEW_VALUES}`;
  return new Set(rows.map((r) => r.c));
}

/** A row of scopeFiguresSql: figure f of scope k (for 'users': n users with a high row, `high` of them new). */
type FigureRow = {
  version: bigint;
  c: bigint;
  f: string | null;
  k: number | null;
  b: Date | null;
  category: string | null;
  n: bigint | null;
  high: bigint | null;
};

/** keepScopeFigures' statement (its steps 1-3): per scope index k, its figures; with the data and category versions it read. */
export function scopeFiguresSql(scopes: FigureScope[], since: string, few: ReadonlySet<string> = new Set()): Prisma.Sql {
  // What the scopes' conditions read: their criteria, their own user ids (independence) and a fallback reviewer's coverage.
  const named = (t: CriteriaType) => [
    ...new Set(scopes.flatMap((s) => (s.sets ? [...s.sets[t], ...(t === 'user_id' ? s.sets.own : []), ...(s.sets.fallback?.values[t] ?? [])] : []))),
  ];
  const moved = [
    ...new Set(
      scopes.flatMap((s) => (s.sets ? [...s.sets.held, ...s.sets.released, ...(s.sets.fallback?.held ?? []), ...(s.sets.fallback?.orphans ?? [])] : [])),
    ),
  ];
  const reduced = CRITERIA_TYPES.map((t) => {
    const col = Prisma.raw(`r.${CRITERIA_COLUMN[t]}`);
    const values = named(t);
    const value = !values.length
      ? Prisma.sql`NULL::text`
      : few.has(CRITERIA_COLUMN[t]) && t !== 'user_id'
        ? col
        : Prisma.sql`CASE WHEN ${col} = ANY(${values}::text[]) THEN ${col} END`;
    return Prisma.sql`${value} AS ${Prisma.raw(groupColumn(t))}`;
  });
  const movedId = moved.length ? Prisma.sql`CASE WHEN r.id = ANY(${moved}::bigint[]) THEN r.id ELSE 0 END` : Prisma.sql`0::bigint`;
  const criteria = Prisma.raw([...CRITERIA_TYPES.map((t) => `r.${groupColumn(t)}`), 'r.id'].join(', '));
  const asRows = Prisma.raw(
    [...CRITERIA_TYPES.map((t) => (t === 'user_id' ? 'coalesce(r.full_uid, r.ru) AS user_id' : `r.${CRITERIA_COLUMN[t]}`)), 'r.id'].join(', '),
  );
  // The indexes of the scopes that see group r.
  const which = Prisma.sql`ARRAY[${Prisma.join(scopes.map((s, i) => Prisma.sql`CASE WHEN ${s.sets ? assignedRowsCondition(s.sets) : Prisma.sql`TRUE`} THEN ${i}::int END`))}]::int[]`;
  // Step 1 groups by the columns themselves (hashing them is cheaper than working out a row's
  // category, day or high flag 1M times); step 2 works those out per group.
  const rowFacts = Prisma.raw('r.risk_level, r.ai_category_accepted, r.ai_suggested_category, r.created_at');
  return Prisma.sql`
    WITH g AS MATERIALIZED (
      SELECT ${asRows}, GROUPING(r.full_uid) = 1 AS bucketed, ${rowFacts}, count(*) AS n,
             min(r.created_at) FILTER (WHERE ${HIGH_LEVEL_SQL}) AS first_high
        FROM (SELECT ${Prisma.join(reduced)}, ${movedId} AS id, r.user_id AS full_uid, ${rowFacts}
                FROM risk_rows r WHERE ${LIVE_ROWS}) r
       GROUP BY GROUPING SETS ((${criteria}, ${rowFacts}), (${criteria}, r.full_uid))
      HAVING GROUPING(r.full_uid) = 1 OR count(*) FILTER (WHERE ${HIGH_LEVEL_SQL}) > 0
    ), a AS MATERIALIZED (
      SELECT k, ${HIGH_LEVEL_SQL} AS high, ${categoryOfRowSql} AS category, date_trunc('day', r.created_at AT TIME ZONE 'UTC') AS day, sum(r.n) AS n
        FROM g r CROSS JOIN LATERAL unnest(${which}) AS k WHERE r.bucketed AND k IS NOT NULL GROUP BY 1, 2, 3, 4
    ), u AS MATERIALIZED (
      SELECT k, min(r.first_high) AS first_high
        FROM g r CROSS JOIN LATERAL unnest(${which}) AS k WHERE NOT r.bucketed AND k IS NOT NULL GROUP BY k, r.user_id
    )
    SELECT v.version, v.category_version AS c, o.* FROM risk_data_version v LEFT JOIN (
      SELECT 'totals' AS f, k, NULL::timestamp AS b, NULL::text AS category, sum(n)::bigint AS n, (sum(n) FILTER (WHERE high))::bigint AS high FROM a GROUP BY k
      UNION ALL SELECT 'users', k, NULL, NULL, count(*), count(*) FILTER (WHERE first_high >= ${since}::date) FROM u GROUP BY k
      UNION ALL SELECT 'day', k, day, NULL, sum(n)::bigint, NULL FROM a GROUP BY k, day
      UNION ALL SELECT 'week', k, date_trunc('week', day), NULL, sum(n)::bigint, NULL FROM a GROUP BY k, 3
      UNION ALL SELECT 'category', k, NULL, category, sum(n)::bigint, NULL FROM a GROUP BY k, category
    ) o ON TRUE WHERE v.id = 1`;
}

export const SCOPE_FIGURES = {
  name: 'scope figures',
  tables: ['kept_figures'],
  freshWhen: "kept at risk_data_version's version under the scope's key (its criteria; the day for new high-risk users, category_version for categories)",
  refresh: warmDashboardFigures,
  countLive: kept,
} as const satisfies KeptAggregate;
