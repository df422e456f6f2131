// Who holds a row, the assignment rule in one place: a reviewer holds every
// live risk row that one of their criteria matches (risk id, user id, user
// group, system, role/profile: the criteria types and the risk_rows column
// each matches), plus the single items moved to them, less those moved away
// from them (item_holds). Visibility (services/visibility.ts), 'shared with',
// 'Assigned To', the kept aggregates (services/kept/) and the criteria's own
// screens (services/review/assignments.ts) all read it from here; it changes
// nothing itself.
import { Prisma, type CriteriaType } from '../generated/prisma/client.js';
import { personLabel } from '../core/people.js';
import type { DbClient } from '../core/types.js';

export const CRITERIA_TYPES = ['risk_id', 'user_id', 'user_group', 'system', 'role_profile'] as const;

/** The risk_rows column each criteria type matches. */
export const CRITERIA_COLUMN: Record<CriteriaType, string> = {
  risk_id: 'access_risk_id',
  user_id: 'user_id',
  user_group: 'user_group',
  system: 'system',
  role_profile: 'role_profile',
};

/** A reviewer and the rows they hold (alias r, without LIVE_ROWS: assignedRowsCondition of their sets). */
export interface ReviewerSight {
  id: string;
  sees: Prisma.Sql;
}

/**
 * Per-reviewer criteria values grouped by type, for building the row filter,
 * with the single items moved to them (held) or away from them (released):
 * risk row ids as text.
 */
export type CriteriaSets = Record<CriteriaType, string[]> & { held: string[]; released: string[] };

const emptySets = (): CriteriaSets => ({ risk_id: [], user_id: [], user_group: [], system: [], role_profile: [], held: [], released: [] });

/** Users who hold work: an assignment criterion or a single item moved to them. */
export const HOLDS_WORK = { OR: [{ criteria: { some: {} } }, { itemHolds: { some: { holds: true } } }] } satisfies Prisma.UserWhereInput;

/** Whether a reviewer has single items moved to or from them (their rows differ from their criteria's). */
export const hasItemHolds = (sets: CriteriaSets) => sets.held.length > 0 || sets.released.length > 0;

export async function criteriaSetsFor(db: DbClient, reviewerId: string): Promise<CriteriaSets> {
  return (await criteriaSetsOf(db, [reviewerId])).get(reviewerId)!;
}

/**
 * The criteria sets of several reviewers in one query (criteria and item
 * holds together), each set's values in order, so reviewers with the same
 * criteria have equal sets (and share cached counts).
 */
export async function criteriaSetsOf(db: DbClient, reviewerIds: string[]): Promise<Map<string, CriteriaSets>> {
  const out = new Map<string, CriteriaSets>();
  for (const id of reviewerIds) out.set(id, emptySets());
  if (!reviewerIds.length) return out;
  const rows = await db.$queryRaw<{ reviewer_id: string; t: keyof CriteriaSets; v: string }[]>`
    SELECT reviewer_id::text, criteria_type::text AS t, criteria_value AS v FROM assignment_criteria WHERE reviewer_id = ANY(${reviewerIds}::uuid[])
    UNION ALL
    SELECT reviewer_id::text, CASE WHEN holds THEN 'held' ELSE 'released' END, risk_row_id::text FROM item_holds WHERE reviewer_id = ANY(${reviewerIds}::uuid[])
    ORDER BY 3`;
  for (const r of rows) out.get(r.reviewer_id)?.[r.t].push(r.v);
  return out;
}

/** These reviewers with the condition of their rows (one query for all), for their kept trend days (services/kept/reviewer-days.ts). */
export async function sightsOf(db: DbClient, reviewerIds: string[]): Promise<ReviewerSight[]> {
  const sets = await criteriaSetsOf(db, reviewerIds);
  return reviewerIds.map((id) => ({ id, sees: assignedRowsCondition(sets.get(id)!) }));
}

/**
 * The SQL condition selecting a reviewer's rows (alias r), as ORs of
 * `column = ANY(array)`, so each branch can use its index; rows moved to
 * them are added, rows moved away from them taken out.
 */
export function assignedRowsCondition(sets: CriteriaSets): Prisma.Sql {
  return holdsRule({
    matched: CRITERIA_TYPES.filter((t) => sets[t].length).map((t) => Prisma.sql`r.${Prisma.raw(CRITERIA_COLUMN[t])} = ANY(${sets[t]}::text[])`),
    held: sets.held.length ? Prisma.sql`r.id = ANY(${sets.held}::bigint[])` : null,
    released: sets.released.length ? Prisma.sql`r.id = ANY(${sets.released}::bigint[])` : null,
  });
}

/**
 * The rule itself, stated once: a reviewer holds a row one of their criteria
 * matches or that was moved to them, unless it was moved away from them.
 * assignedRowsCondition (one reviewer's rows) and rowHoldersSql (one row's
 * reviewers) both go through it. Absent parts are left out of the SQL.
 */
function holdsRule(p: { matched: Prisma.Sql[]; held: Prisma.Sql | null; released: Prisma.Sql | null }): Prisma.Sql {
  const parts = p.held ? [...p.matched, p.held] : p.matched;
  const any = parts.length ? Prisma.sql`(${Prisma.join(parts, ' OR ')})` : Prisma.sql`FALSE`;
  return p.released ? Prisma.sql`(${any} AND NOT (${p.released}))` : any;
}

/**
 * Who holds row r (alias r) by the same rule, as a subquery of reviewer ids
 * (column reviewer_id): the reviewers a criterion gives it to (one indexed
 * lookup per criteria type) and those it was moved to, less those it was moved
 * away from (item_holds). For 'shared with' (services/review/recommendations.ts,
 * services/reports/review-history.ts) and 'Assigned To' in the evidence file (the risk
 * report, a long export, uses holdersTextSql). A decision is not a hold: its
 * author stays its author.
 */
export const rowHoldersSql = Prisma.sql`(
  SELECT x.reviewer_id FROM (
    ${Prisma.join(
      CRITERIA_TYPES.map(
        (t) => Prisma.sql`SELECT ac.reviewer_id, TRUE AS matched, FALSE AS held, FALSE AS released FROM assignment_criteria ac
          WHERE ac.criteria_type = ${t}::"CriteriaType" AND ac.criteria_value = r.${Prisma.raw(CRITERIA_COLUMN[t])}`,
      ),
      ' UNION ALL ',
    )}
    UNION ALL SELECT ih.reviewer_id, FALSE, ih.holds, NOT ih.holds FROM item_holds ih WHERE ih.risk_row_id = r.id
  ) x GROUP BY x.reviewer_id
  HAVING ${holdsRule({ matched: [Prisma.sql`bool_or(x.matched)`], held: Prisma.sql`bool_or(x.held)`, released: Prisma.sql`bool_or(x.released)` })}
)`;

/** A reviewer as 'Assigned To' names them, with the sets of their rows. */
export interface Holder {
  label: string;
  sets: CriteriaSets;
}

/**
 * The reviewers who hold work (criteria or items moved to them), or only
 * `reviewerId`, with their sets (one query for all), by e-mail.
 */
export async function holdersOf(db: DbClient, reviewerId: string | null): Promise<Holder[]> {
  const users = await db.user.findMany({
    where: reviewerId ? { id: reviewerId } : { role: 'reviewer', ...HOLDS_WORK },
    orderBy: [{ email: 'asc' }, { id: 'asc' }],
  });
  const sets = await criteriaSetsOf(
    db,
    users.map((u) => u.id),
  );
  return users.map((u) => ({ label: personLabel(u), sets: sets.get(u.id)! }));
}

/**
 * Who holds row r (alias r) as one text, the holders' labels joined by '; '
 * (NULL when nobody): each holder's own assignedRowsCondition, the visibility
 * rule itself, so a long export evaluates plain conditions per row and runs no
 * query per row (rowHoldersSql does, for pages and single rows).
 */
export function holdersTextSql(holders: Holder[]): Prisma.Sql {
  if (!holders.length) return Prisma.sql`NULL::text`;
  const each = holders.map((h) => Prisma.sql`CASE WHEN ${assignedRowsCondition(h.sets)} THEN ${h.label}::text END`);
  return Prisma.sql`nullif(array_to_string(ARRAY[${Prisma.join(each)}]::text[], '; '), '')`;
}

/** The same rule as assignedRowsCondition, for one row already read (who holds the rows being moved). */
export function rowAssigned(sets: CriteriaSets, row: Record<CriteriaColumnField, string> & { id: bigint }): boolean {
  const id = String(row.id);
  if (sets.held.includes(id)) return true;
  if (sets.released.includes(id)) return false;
  return CRITERIA_TYPES.some((t) => sets[t].includes(row[CRITERIA_FIELD[t]]));
}

/** The RiskRow field each criteria type matches (CRITERIA_COLUMN, camelCase). */
export const CRITERIA_FIELD = {
  risk_id: 'accessRiskId',
  user_id: 'userId',
  user_group: 'userGroup',
  system: 'system',
  role_profile: 'roleProfile',
} as const satisfies Record<CriteriaType, string>;
type CriteriaColumnField = (typeof CRITERIA_FIELD)[CriteriaType];
