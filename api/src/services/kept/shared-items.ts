// 'Shared' (README 'Shared reviews'), the one home of the rule: an item, the
// same user and role (user id and role/profile), is shared in a period when it
// is reviewed by more than one reviewer there: reviewers a live row of it is
// assigned to (the rule of holds.ts assignedRowsCondition: their
// criteria match it and it was not moved away from them, or it was moved to
// them by a reassignment), and reviewers who decided a row of it in the
// period.
//
// Worked out per period, not per request: shared_items
// holds every item of a period with its reviewers. A period's items are
// refreshed by one set-based statement when what they were worked out from
// changed as a whole (the live rows: an upload, append or purge), which the
// stamp of the period (shared_item_periods) tells against risk_data_version; a
// change of what some reviewers see (criteria added or removed, single items
// moved) moves only their places in the items, in its own transaction
// (keepSharedItemsAfter, on the dispatcher's 'sight-changed'), and stamps the period anew; a decision adds its
// reviewer to its item in the same statement (a trigger, see the migration
// 20261124150000_shared_items); a deleted decision drops the stamp. Readers
// call freshSharedItems first, then join shared_items (sharedOf below).
// Writers write the reviewers only: the column `shared` is generated from them
// (more than one; migration 20261125040000_shared_generated).
import { Prisma, type PrismaClient } from '../../generated/prisma/client.js';
import type { DbClient } from '../../core/types.js';
import { holdDecisionWriters } from '../review/decision-locks.js';
import { CRITERIA_COLUMN, CRITERIA_TYPES, type ReviewerSight } from '../holds.js';
import { LIVE_ROWS } from '../live-rows.js';
import type { KeptAggregate } from './aggregate.js';

/** Serialises refreshes of shared items (pg_advisory_xact_lock key). */
const REFRESH_LOCK = 913_013;

type Stamp = { version: bigint; criteria_version: bigint };

const released = Prisma.sql`EXISTS (SELECT 1 FROM item_holds h WHERE h.risk_row_id = r.id AND NOT h.holds)`;

/**
 * The reviewers of every item of the live rows in a period (the definition,
 * set-based). Per criteria type, the live rows are first reduced to their
 * distinct items and values of that column (a few per item), then joined with
 * the criteria: joining every row with every criterion it matches made ~20
 * lines a row (~20M at 1M rows). Rows moved away from a reviewer (few) are
 * joined row by row, without the reviewers they were moved away from.
 */
const itemReviewersOfPeriod = (periodId: string) => Prisma.sql`
  SELECT x.user_id, x.role_profile, array_agg(DISTINCT x.reviewer_id ORDER BY x.reviewer_id) AS reviewers FROM (
    ${Prisma.join(
      CRITERIA_TYPES.map((t) => {
        const col = Prisma.raw(`r.${CRITERIA_COLUMN[t]}`);
        return Prisma.sql`SELECT k.user_id, k.role_profile, ac.reviewer_id
            FROM (SELECT DISTINCT r.user_id, r.role_profile, ${col} AS v FROM risk_rows r
                   WHERE ${col} IN (SELECT c.criteria_value FROM assignment_criteria c WHERE c.criteria_type = ${t}::"CriteriaType")
                     AND ${LIVE_ROWS} AND NOT ${released}) k
            JOIN assignment_criteria ac ON ac.criteria_type = ${t}::"CriteriaType" AND ac.criteria_value = k.v
          UNION ALL
          SELECT r.user_id, r.role_profile, ac.reviewer_id FROM risk_rows r JOIN assignment_criteria ac
              ON ac.criteria_type = ${t}::"CriteriaType" AND ac.criteria_value = ${col}
           WHERE r.id IN (SELECT h.risk_row_id FROM item_holds h WHERE NOT h.holds) AND ${LIVE_ROWS}
             AND NOT EXISTS (SELECT 1 FROM item_holds h WHERE h.risk_row_id = r.id AND h.reviewer_id = ac.reviewer_id AND NOT h.holds)`;
      }),
      ' UNION ALL ',
    )}
    UNION ALL SELECT r.user_id, r.role_profile, h.reviewer_id FROM item_holds h JOIN risk_rows r ON r.id = h.risk_row_id
     WHERE h.holds AND ${LIVE_ROWS}
    UNION ALL SELECT DISTINCT r.user_id, r.role_profile, d.reviewer_id FROM decisions d JOIN risk_rows r ON r.id = d.risk_row_id
     WHERE d.period_id = ${periodId}::uuid AND ${LIVE_ROWS}
  ) x GROUP BY 1, 2`;

/**
 * Brings the shared items of these periods up to date (those whose stamp is
 * not the current data and criteria version), each by one set-based
 * statement, in one transaction per period under a lock so two readers do
 * not refresh the same period at once.
 */
export async function freshSharedItems(db: DbClient, periodIds: readonly string[], opts: { inTransaction?: boolean } = {}): Promise<void> {
  if (!periodIds.length) return;
  const stale = await db.$queryRaw<{ id: string }[]>`
    SELECT p.id::text AS id FROM unnest(${[...new Set(periodIds)]}::uuid[]) p(id)
      CROSS JOIN risk_data_version v
      LEFT JOIN shared_item_periods s ON s.period_id = p.id
     WHERE v.id = 1 AND (s.period_id IS NULL OR s.data_version <> v.version OR s.criteria_version <> v.criteria_version)`;
  for (const { id } of stale) await refreshPeriod(db, id, opts.inTransaction ?? false);
}

async function refreshPeriod(db: DbClient, periodId: string, inTransaction: boolean): Promise<void> {
  const run = async (tx: DbClient) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${REFRESH_LOCK})`;
    // Decisions being made wait for the refresh, and it for those under way (SHARE against the
    // writers' ROW EXCLUSIVE): the refresh then counts every decision committed, and a later one's
    // trigger moves the refreshed counts. Else a decision uncommitted while the refresh read, whose
    // trigger ran before the period's stamp existed, was counted by neither (shared-items-race.test.ts);
    // and one made on a new item meanwhile broke the refresh's insert. The refresh of an upload going
    // live runs inside its transaction and is left as it was.
    if (!inTransaction) await holdDecisionWriters(tx);
    // The stamp is read inside the lock: another reader may have refreshed meanwhile.
    const [v] = await tx.$queryRaw<(Stamp & { fresh: boolean })[]>`
      SELECT v.version, v.criteria_version,
             EXISTS (SELECT 1 FROM shared_item_periods s WHERE s.period_id = ${periodId}::uuid
                        AND s.data_version = v.version AND s.criteria_version = v.criteria_version) AS fresh
        FROM risk_data_version v WHERE v.id = 1`;
    if (!v || v.fresh) return;
    await tx.$executeRaw`DELETE FROM shared_items WHERE period_id = ${periodId}::uuid`;
    await tx.$executeRaw`INSERT INTO shared_items (period_id, user_id, role_profile, reviewers, decisions, removals, decided_rows)
      SELECT ${periodId}::uuid, i.user_id, i.role_profile, i.reviewers, coalesce(c.n, 0), coalesce(c.rm, 0), coalesce(c.dr, 0)
        FROM (${itemReviewersOfPeriod(periodId)}) i
        LEFT JOIN (SELECT r.user_id, r.role_profile, count(*) AS n, count(*) FILTER (WHERE d.decision = 'remove') AS rm,
                          count(DISTINCT d.risk_row_id) AS dr
                     FROM decisions d JOIN risk_rows r ON r.id = d.risk_row_id
                    WHERE d.period_id = ${periodId}::uuid AND ${LIVE_ROWS} GROUP BY 1, 2) c USING (user_id, role_profile)`;
    await tx.$executeRaw`INSERT INTO shared_item_periods (period_id, data_version, criteria_version, refreshed_at)
      VALUES (${periodId}::uuid, ${v.version}, ${v.criteria_version}, now())
      ON CONFLICT (period_id) DO UPDATE SET data_version = EXCLUDED.data_version, criteria_version = EXCLUDED.criteria_version, refreshed_at = now()`;
  };
  // Inside the caller's transaction (then the caller vacuums after its commit), else in its own.
  if (inTransaction) return run(db);
  await (db as PrismaClient).$transaction(run, { timeout: 600_000, maxWait: 120_000 });
  await vacuumSharedItems(db as PrismaClient);
}

/**
 * After a change of what `touched` see (criteria added or removed, items
 * moved), in its transaction ('sight-changed' in dispatcher.ts, whose
 * beginSightChange held the decision writers from its start): the periods whose items were up to
 * date before it (stamped with the criteria version `before`) stay up to date
 * without a refresh of the whole period (~25 s at 1M rows), since only the
 * touched reviewers' places in the items moved: everyone else's criteria and
 * holds, and every decision, are as they were. Each item a touched reviewer
 * was or is a reviewer of gets its reviewers less the touched ones, plus
 * those of them who now hold a live row of it or decided one in the period;
 * an item left with no reviewer goes (a refresh has none such). The periods
 * are then stamped with the new criteria version (their refreshed_at stays:
 * the time of the last refresh of the whole period). While a refresh runs (it
 * holds the lock), nothing is done: its periods stay stale, for the next
 * reader or the dashboard figures' job to refresh.
 */
export async function keepSharedItemsAfter(tx: DbClient, before: bigint, touched: ReviewerSight[]): Promise<void> {
  const [lock] = await tx.$queryRaw<{ ok: boolean }[]>`SELECT pg_try_advisory_xact_lock(${REFRESH_LOCK}) AS ok`;
  if (!lock?.ok) return;
  const periods = (
    await tx.$queryRaw<{ id: string }[]>`
      SELECT s.period_id::text AS id FROM shared_item_periods s CROSS JOIN risk_data_version v
       WHERE v.id = 1 AND s.data_version = v.version AND s.criteria_version = ${before}`
  ).map((r) => r.id);
  if (!periods.length) return;
  if (touched.length) {
    // In uuid order (as array_agg's ORDER BY: uuids compare as their lower-case text), so arrays of them compare equal.
    const ids = touched.map((t) => t.id.toLowerCase()).sort();
    const sameItem = Prisma.sql`si.period_id = g.period_id AND si.user_id = g.user_id AND si.role_profile = g.role_profile`;
    await tx.$executeRaw`
      WITH held AS MATERIALIZED (
        ${Prisma.join(
          touched.map(
            (t) => Prisma.sql`SELECT DISTINCT r.user_id, r.role_profile, ${t.id}::uuid AS reviewer_id FROM risk_rows r WHERE ${LIVE_ROWS} AND ${t.sees}`,
          ),
          ' UNION ALL ',
        )}
      ), theirs AS MATERIALIZED (
        SELECT x.period_id, x.user_id, x.role_profile, array_agg(DISTINCT x.reviewer_id ORDER BY x.reviewer_id) AS reviewers FROM (
          SELECT p.id AS period_id, h.user_id, h.role_profile, h.reviewer_id FROM unnest(${periods}::uuid[]) p(id) CROSS JOIN held h
          UNION ALL
          SELECT d.period_id, r.user_id, r.role_profile, d.reviewer_id FROM decisions d JOIN risk_rows r ON r.id = d.risk_row_id
           WHERE d.period_id = ANY(${periods}::uuid[]) AND d.reviewer_id = ANY(${ids}::uuid[]) AND ${LIVE_ROWS}
        ) x GROUP BY 1, 2, 3
      ), had AS MATERIALIZED (
        SELECT si.period_id, si.user_id, si.role_profile, m.theirs, cardinality(si.reviewers) - cardinality(m.theirs) AS left_over
          FROM shared_items si CROSS JOIN LATERAL (SELECT ARRAY(SELECT i FROM unnest(${ids}::uuid[]) i WHERE i = ANY(si.reviewers)) AS theirs) m
         WHERE si.period_id = ANY(${periods}::uuid[]) AND si.reviewers && ${ids}::uuid[]
      ), gone AS MATERIALIZED (
        SELECT g.* FROM had g
         WHERE NOT EXISTS (SELECT 1 FROM theirs t WHERE t.period_id = g.period_id AND t.user_id = g.user_id AND t.role_profile = g.role_profile)
      ), dropped AS (
        DELETE FROM shared_items si USING gone g WHERE ${sameItem} AND g.left_over = 0
      ), kept AS (
        UPDATE shared_items si SET reviewers = ARRAY(SELECT x FROM unnest(si.reviewers) x WHERE x <> ALL(${ids}::uuid[])) FROM gone g WHERE ${sameItem} AND g.left_over > 0
      )
      -- Only the items whose touched reviewers are not the same as before (most of a reviewer's items
      -- are theirs before and after: 122,727 rewritten at 1M rows took 5 s).
      INSERT INTO shared_items (period_id, user_id, role_profile, reviewers)
      SELECT t.period_id, t.user_id, t.role_profile, t.reviewers FROM theirs t
        LEFT JOIN had g ON g.period_id = t.period_id AND g.user_id = t.user_id AND g.role_profile = t.role_profile
       WHERE g.theirs IS DISTINCT FROM t.reviewers
      ON CONFLICT (period_id, user_id, role_profile) DO UPDATE
        SET reviewers = ARRAY(SELECT x FROM unnest(shared_items.reviewers) x WHERE x <> ALL(${ids}::uuid[]) UNION SELECT unnest(EXCLUDED.reviewers) ORDER BY 1)`;
  }
  await tx.$executeRaw`
    UPDATE shared_item_periods s SET criteria_version = v.criteria_version FROM risk_data_version v
     WHERE v.id = 1 AND s.period_id = ANY(${periods}::uuid[])`;
}

/**
 * After a refresh (not inside a transaction): the totals are read by an
 * index-only scan, which needs the visibility map of the rows just written,
 * and the planner their new statistics: without this, the first sums after a
 * refresh read the whole table (128 MB at 1M rows, 480 ms). Best effort: a
 * failure only costs speed.
 */
export async function vacuumSharedItems(prisma: PrismaClient): Promise<void> {
  await prisma.$executeRawUnsafe('VACUUM (ANALYZE) shared_items').catch(() => undefined);
}

/**
 * The periods that have decisions (All Reviews lists decisions, so these are
 * the periods it reads); `activeOnly`: the active one only, if it has any (the
 * administrator's 'pending' reads its items).
 */
export async function periodsWithDecisions(db: DbClient, opts: { activeOnly?: boolean } = {}): Promise<string[]> {
  const rows = await db.$queryRaw<{ id: string }[]>`SELECT p.id::text AS id FROM review_periods p
    WHERE EXISTS (SELECT 1 FROM decisions d WHERE d.period_id = p.id) ${opts.activeOnly ? Prisma.sql`AND p.status = 'active'` : Prisma.empty}`;
  return rows.map((r) => r.id);
}

/**
 * How many decisions on live rows the periods hold (everyone's: what an
 * administrator's All Reviews lists), all, shared only or unique only, and
 * of a decision kind: sums over the kept items instead of a count over every
 * decision. `of`: only the items of these user ids or these roles (each item
 * once). The periods must be fresh (freshSharedItems).
 */
export async function countKeptDecisions(
  db: DbClient,
  periodIds: readonly string[],
  shared: string | null,
  decision: string | null,
  of?: { userIds: readonly string[]; roles: readonly string[] },
): Promise<number> {
  if (!periodIds.length) return 0;
  const which = sharedFilterSql(shared);
  const n = keptCountSql('si', decision);
  const periods = Prisma.sql`si.period_id = ANY(${[...periodIds]}::uuid[])`;
  if (!of) {
    const [r] = await db.$queryRaw<{ n: bigint | null }[]>`SELECT sum(${n})::bigint AS n FROM shared_items si WHERE ${periods} ${which}`;
    return Number(r?.n ?? 0);
  }
  if (!of.userIds.length && !of.roles.length) return 0;
  // By user, then by role without those users: each an index-only scan (migration 20261124171500_shared_items_search).
  const [r] = await db.$queryRaw<{ n: bigint | null }[]>`
    SELECT (SELECT coalesce(sum(${n}), 0) FROM shared_items si WHERE ${periods} AND si.user_id = ANY(${[...of.userIds]}::text[]) ${which})
         + (SELECT coalesce(sum(${n}), 0) FROM shared_items si WHERE ${periods} AND si.role_profile = ANY(${[...of.roles]}::text[])
               AND NOT si.user_id = ANY(${[...of.userIds]}::text[]) ${which}) AS n`;
  return Number(r?.n ?? 0);
}

/** The Shared Roles filter (shared, unique, null: all) on a kept item si (alias), as an AND clause. */
export const sharedFilterSql = (shared: string | null) =>
  shared === 'shared' ? Prisma.sql`AND ${isSharedSql('si')}` : shared === 'unique' ? Prisma.sql`AND NOT ${isSharedSql('si')}` : Prisma.empty;
/** The kept count of a decision kind (null: all) on a kept row with decisions and removals (alias). */
export const keptCountSql = (alias: string, decision: string | null) =>
  Prisma.raw(decision === 'remove' ? `${alias}.removals` : decision === 'retain' ? `${alias}.decisions - ${alias}.removals` : `${alias}.decisions`);

/**
 * Of the live rows, how many somebody decided in the period (an
 * administrator's dashboard: pending is the rest), summed over the kept items;
 * null when the period's items are not up to date, which starts their refresh
 * in the background (the dashboard then counts the decisions itself, never
 * waiting for a refresh).
 */
export async function keptDecidedRows(prisma: PrismaClient, periodId: string): Promise<number | null> {
  const [r] = await prisma.$queryRaw<{ fresh: boolean; n: bigint | null }[]>`
    SELECT (s.data_version = v.version AND s.criteria_version = v.criteria_version) AS fresh,
           (SELECT sum(si.decided_rows)::bigint FROM shared_items si WHERE si.period_id = s.period_id) AS n
      FROM shared_item_periods s CROSS JOIN risk_data_version v WHERE v.id = 1 AND s.period_id = ${periodId}::uuid`;
  if (r?.fresh) return Number(r.n ?? 0);
  void freshSharedItems(prisma, [periodId]).catch(() => undefined);
  return null;
}

/** Whether a kept item (alias given, or none: a decision without a kept item) is shared: more than one reviewer. */
export const isSharedSql = (alias: string) => Prisma.raw(`coalesce(${alias}.shared, false)`);

/**
 * Of the live rows `visible` selects, how many are decided in the period, by
 * this reviewer or (null) by anyone: counted from the decisions (exact, as
 * cheap as their number), while what is kept is refreshed.
 */
export async function decidedRowsLive(db: DbClient, periodId: string, visible: Prisma.Sql, reviewerId: string | null): Promise<number> {
  const byReviewer = reviewerId ? Prisma.sql`AND d.reviewer_id = ${reviewerId}::uuid` : Prisma.empty;
  const r = await db.$queryRaw<{ n: bigint }[]>`
    SELECT count(DISTINCT d.risk_row_id) AS n FROM decisions d JOIN risk_rows r ON r.id = d.risk_row_id
     WHERE d.period_id = ${periodId}::uuid ${byReviewer} AND ${visible}`;
  return Number(r[0]?.n ?? 0);
}

export const SHARED_ITEMS = {
  name: 'shared items',
  tables: ['shared_items', 'shared_item_periods'],
  freshWhen: "the period's stamp equals risk_data_version's version and criteria_version",
  refresh: freshSharedItems,
  countLive: decidedRowsLive,
} as const satisfies KeptAggregate;
