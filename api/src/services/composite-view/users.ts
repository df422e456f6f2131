// The composite-role view's first level: the users the viewer may see, with
// their totals (see scope.ts for the view as a whole).
import { Prisma } from '../../generated/prisma/client.js';
import { LIVE_ROWS } from '../live-rows.js';
import type { DbClient } from '../../core/types.js';
import type { Caller } from '../caller.js';
import { HIGH_LEVEL_SQL, likeContains } from '../risk-rules.js';
import { cached } from '../kept/index.js';
import { allDecided, decisionJoin, int, keysetWhere, pageLimit, viewScope, type Keyset, type ViewScope } from './scope.js';

export interface CompositeUserSummary {
  kind: 'CompositeUser';
  userId: string;
  userName: string;
  userGroup: string;
  totalRisks: number;
  highRisks: number;
  decidedRisks: number;
  allDecided: boolean;
}

type UserRaw = { user_id: string; user_name: string; user_group: string; total: bigint; high: bigint; decided: bigint };

function userFromRaw(r: UserRaw): CompositeUserSummary {
  const total = int(r.total);
  const decided = int(r.decided);
  return {
    kind: 'CompositeUser',
    userId: r.user_id,
    userName: r.user_name,
    userGroup: r.user_group,
    totalRisks: total,
    highRisks: int(r.high),
    decidedRisks: decided,
    allDecided: allDecided(total, decided),
  };
}

/** The totals of the given users over the rows the viewer may see (users with none are left out). */
async function userSummaries(db: DbClient, scope: ViewScope, keys: Prisma.Sql): Promise<CompositeUserSummary[]> {
  const rows = await db.$queryRaw<UserRaw[]>`
    SELECT r.user_id, max(r.user_name) AS user_name, max(r.user_group) AS user_group, count(*) AS total,
           count(*) FILTER (WHERE ${HIGH_LEVEL_SQL}) AS high, count(d.id) AS decided
      FROM risk_rows r ${decisionJoin(scope)}
     WHERE r.user_id IN (${keys}) AND ${scope.visible}
     GROUP BY r.user_id
     ORDER BY r.user_id`;
  return rows.map(userFromRaw);
}

/**
 * The users the viewer may see, optionally filtered by a search on user id
 * or name, one keyset page over user ids. The page's ids are found first
 * (userIds, searchUserIds), then only their rows are totalled.
 */
export async function listUsers(caller: Caller, filter: { search?: string | null }, page: Keyset): Promise<CompositeUserSummary[]> {
  const db = caller.deps.prisma;
  const scope = await viewScope(caller.viewer);
  const search = filter.search?.trim();
  const limit = pageLimit(page);
  const ids = search ? await searchUserIds(db, scope, search, page, limit) : await userIds(db, scope, page, limit);
  if (!ids.length) return [];
  const list = ids.map((r) => r.user_id);
  const summaries = await userSummaries(db, scope, Prisma.sql`SELECT unnest(${list}::text[])`);
  const byId = new Map(summaries.map((s) => [s.userId, s]));
  // Keep the page's order (descending when read backwards).
  return list.map((id) => byId.get(id)).filter((s): s is CompositeUserSummary => s != null);
}

/**
 * One page of the ids of the users with a visible row. When most rows are
 * visible (administrators, broad assignments) the (user_id, ...) index is
 * walked in key order and the walk stops when the page is full. When the
 * viewer's rows are a small part of the table, that walk would pass over
 * the rows of every user outside them; the viewer's rows are then found
 * through the criteria's own indexes and their distinct users sorted.
 */
async function userIds(db: DbClient, scope: ViewScope, page: Keyset, limit: number): Promise<{ user_id: string }[]> {
  const order = page.inverted ? Prisma.sql`DESC` : Prisma.sql`ASC`;
  const keyset = keysetWhere(Prisma.sql`r.user_id`, page);
  if (!scope.all && (await isSelective(db, scope))) {
    return db.$queryRaw<{ user_id: string }[]>`
      WITH mine AS MATERIALIZED (SELECT DISTINCT r.user_id FROM risk_rows r WHERE ${scope.visible} AND ${keyset})
      SELECT user_id FROM mine ORDER BY user_id ${order} LIMIT ${limit}`;
  }
  return db.$queryRaw<{ user_id: string }[]>`
    SELECT r.user_id FROM risk_rows r
     WHERE ${scope.visible} AND ${keyset}
     GROUP BY r.user_id
     ORDER BY r.user_id ${order}
     LIMIT ${limit}`;
}

/** Below this share of the table, a viewer's rows are found through the criteria indexes (see userIds). */
const SELECTIVE_SHARE = 0.05;

/** Whether the planner expects the viewer's visible rows to be a small share of the table (an estimate, no scan). */
async function isSelective(db: DbClient, scope: ViewScope): Promise<boolean> {
  const estimate = async (cond: Prisma.Sql) => {
    const plan = await db.$queryRaw<Record<string, unknown>[]>`EXPLAIN (FORMAT JSON) SELECT 1 FROM risk_rows r WHERE ${cond}`;
    const raw = Object.values(plan[0] ?? {})[0];
    const json = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan?: { 'Plan Rows'?: number } }[];
    return Number(json?.[0]?.Plan?.['Plan Rows'] ?? 0);
  };
  const [mine, all] = await Promise.all([estimate(scope.visible), estimate(LIVE_ROWS)]);
  return mine < all * SELECTIVE_SHARE;
}

/**
 * One page of the ids of the users whose id or name contains `search` and
 * who have a visible row. Neither risk_rows column has an index a substring
 * search can use (filtering every row costs seconds on a million rows), so
 * the matching users are found in risk_terms (each user id with its names,
 * kept by a trigger, trigram-indexed: the risk queue's search does the same),
 * and only they are checked for a row the viewer may see.
 */
async function searchUserIds(db: DbClient, scope: ViewScope, search: string, page: Keyset, limit: number): Promise<{ user_id: string }[]> {
  const like = likeContains(search);
  const order = page.inverted ? Prisma.sql`DESC` : Prisma.sql`ASC`;
  return db.$queryRaw<{ user_id: string }[]>`
    SELECT t.value AS user_id FROM risk_terms t
     WHERE t.kind = 'user' AND (t.value ILIKE ${like} OR t.label ILIKE ${like}) AND ${keysetWhere(Prisma.sql`t.value`, page)}
       AND EXISTS (SELECT 1 FROM risk_rows r WHERE r.user_id = t.value AND ${scope.visible})
     GROUP BY t.value
     ORDER BY t.value ${order}
     LIMIT ${limit}`;
}

/** The given users as the viewer sees them; a user with no visible row is null. */
export async function getUsers(caller: Caller, userIds: readonly string[]): Promise<(CompositeUserSummary | null)[]> {
  const db = caller.deps.prisma;
  const scope = await viewScope(caller.viewer);
  if (!userIds.length) return [];
  const found = await userSummaries(db, scope, Prisma.sql`SELECT unnest(${[...userIds]}::text[])`);
  const byId = new Map(found.map((s) => [s.userId, s]));
  return userIds.map((id) => byId.get(id) ?? null);
}

/** How many users listUsers lists in all (every page), cached per data version. */
export async function countUsers(caller: Caller, filter: { search?: string | null }): Promise<number> {
  const db = caller.deps.prisma;
  const scope = await viewScope(caller.viewer);
  const search = filter.search?.trim();
  return cached(db, `composite-users|${scope.key}|${search ?? ''}`, async () => {
    const r = search
      ? await db.$queryRaw<{ n: bigint }[]>`
          SELECT count(DISTINCT t.value) AS n FROM risk_terms t
           WHERE t.kind = 'user' AND (t.value ILIKE ${likeContains(search)} OR t.label ILIKE ${likeContains(search)})
             AND EXISTS (SELECT 1 FROM risk_rows r WHERE r.user_id = t.value AND ${scope.visible})`
      : await db.$queryRaw<{ n: bigint }[]>`SELECT count(DISTINCT r.user_id) AS n FROM risk_rows r WHERE ${scope.visible}`;
    return int(r[0]?.n ?? 0n);
  });
}
