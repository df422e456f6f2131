// Who holds a row, the assignment rule in one place: a reviewer holds every
// live risk row that one of their criteria matches (risk id, user id, user
// group, system, role/profile: the criteria types and the risk_rows column
// each matches), plus the single items moved to them, less those moved away
// from them (item_holds). Visibility (services/visibility.ts), 'shared with',
// 'Assigned To', the kept aggregates (services/kept/) and the criteria's own
// screens (services/review/assignments.ts) all read it from here; it changes
// nothing itself.
//
// Two rules of an independent, complete review bound it (coverage and
// independence): a reviewer never holds a row whose User ID is one of their
// own user ids in the source systems (users.access_user_ids: self-review),
// and the fallback reviewers (review settings, services/review/coverage.ts)
// also hold every live row that no active reviewer holds otherwise, those
// taken from reviewers as their own access included, so no row escapes
// review. Both are parts of a reviewer's CriteriaSets, so every reader of
// the rule above follows them.
import { Prisma, type CriteriaType } from '../generated/prisma/client.js';
import { personLabel } from '../core/people.js';
import type { DbClient } from '../core/types.js';
import { LIVE_ROWS } from './live-rows.js';

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
export type CriteriaSets = Record<CriteriaType, string[]> & {
  held: string[];
  released: string[];
  /** Their own user ids in the source systems, as rows may spell them (ownIdVariants): rows of these users are never theirs. */
  own: string[];
  /** For an active fallback reviewer, the coverage of everyone else (the rows nobody else holds are theirs too); else null. */
  fallback: Coverage | null;
};

const emptySets = (): CriteriaSets => ({
  risk_id: [],
  user_id: [],
  user_group: [],
  system: [],
  role_profile: [],
  held: [],
  released: [],
  own: [],
  fallback: null,
});

/**
 * Who holds what, over every active reviewer, for the rule of the fallback
 * reviewers: the criteria values and moved rows that give a row to someone,
 * and the rows those give only to reviewers who may not have them (moved
 * away from them, or their own access: orphans; selfRouted those of them
 * that are someone's own access). Worked out per request from the small
 * tables (criteria, moves, the reviewers' own rows by the user id index),
 * so the condition it makes is plain array tests on the row, no scan.
 */
export interface Coverage {
  values: Record<CriteriaType, string[]>;
  held: string[];
  orphans: string[];
  selfRouted: string[];
}

/**
 * A person's user ids as rows may spell them: as typed, in upper and in
 * lower case (source systems such as SAP keep user ids in upper case, e-mail
 * local parts are lower case), so the comparison stays an indexable equality.
 */
export function ownIdVariants(ids: readonly string[]): string[] {
  return [...new Set(ids.flatMap((id) => (id.trim() ? [id.trim(), id.trim().toUpperCase(), id.trim().toLowerCase()] : [])))].sort();
}

/** Where the review settings are kept (admin_settings, JSON; written by services/review/coverage.ts only). */
export const REVIEW_SETTINGS_KEY = 'review.coverage';

/** Whether user u (alias) is an active fallback reviewer: an active reviewer named in the review settings. */
const isActiveFallback = (u: string) =>
  Prisma.raw(`(${u}.is_active AND ${u}.role = 'reviewer' AND EXISTS (SELECT 1 FROM admin_settings s WHERE s.setting_key = '${REVIEW_SETTINGS_KEY}'
     AND (s.setting_value::jsonb -> 'fallbackReviewerIds') @> jsonb_build_array(${u}.id::text)))`);

/** The active fallback reviewers' ids (whose sight changes whenever anyone else's does). */
export async function activeFallbackIds(db: DbClient): Promise<string[]> {
  const rows = await db.$queryRaw<{ id: string }[]>`SELECT u.id::text AS id FROM users u WHERE ${isActiveFallback('u')} ORDER BY 1`;
  return rows.map((r) => r.id);
}

/** Row r (alias) is reviewer hu's own access (self-review), in any spelling of their user ids. */
const selfReviewSql = Prisma.sql`EXISTS (SELECT 1 FROM unnest(hu.access_user_ids) a WHERE upper(btrim(a)) = upper(r.user_id))`;

/** The coverage of every active reviewer (see Coverage). */
export async function coverageOf(db: DbClient): Promise<Coverage> {
  const values = { risk_id: [], user_id: [], user_group: [], system: [], role_profile: [] } as Record<CriteriaType, string[]>;
  const criteria = await db.$queryRaw<{ t: CriteriaType; v: string }[]>`
    SELECT DISTINCT ac.criteria_type::text AS t, ac.criteria_value AS v FROM assignment_criteria ac
      JOIN users u ON u.id = ac.reviewer_id AND u.is_active AND u.role = 'reviewer' ORDER BY 1, 2`;
  for (const c of criteria) values[c.t].push(c.v);
  const held = await db.$queryRaw<{ id: string }[]>`
    SELECT DISTINCT h.risk_row_id::text AS id FROM item_holds h JOIN users u ON u.id = h.reviewer_id AND u.is_active AND u.role = 'reviewer'
     WHERE h.holds ORDER BY 1`;
  const owners = await db.$queryRaw<{ own: string[] }[]>`SELECT access_user_ids AS own FROM users WHERE is_active AND role = 'reviewer'`;
  const own = ownIdVariants(owners.flatMap((o) => o.own));
  // Only rows of the reviewers' own users and rows moved away from someone can lose every holder.
  const orphans = await db.$queryRaw<{ id: string; self: boolean }[]>`
    SELECT r.id::text AS id, EXISTS (SELECT 1 FROM ${rowHoldersSql} x JOIN users hu ON hu.id = x.reviewer_id
                                      WHERE hu.is_active AND hu.role = 'reviewer' AND ${selfReviewSql}) AS self
      FROM risk_rows r
     WHERE r.id IN (SELECT o.id FROM risk_rows o WHERE o.user_id = ANY(${own}::text[]) UNION SELECT h.risk_row_id FROM item_holds h WHERE NOT h.holds)
       AND ${LIVE_ROWS}
       AND NOT EXISTS (SELECT 1 FROM ${rowHoldersSql} x JOIN users hu ON hu.id = x.reviewer_id
                        WHERE hu.is_active AND hu.role = 'reviewer' AND NOT ${selfReviewSql})
     ORDER BY r.id`;
  return {
    values,
    held: held.map((h) => h.id),
    orphans: orphans.map((o) => o.id),
    selfRouted: orphans.filter((o) => o.self).map((o) => o.id),
  };
}

/**
 * The rows nobody holds but the fallback reviewers (alias r, without
 * LIVE_ROWS): no active reviewer's criterion matches them nor were they moved
 * to one, or every holder may not have them (coverage.orphans).
 */
export function unheldRowsCondition(c: Coverage): Prisma.Sql {
  const matched = CRITERIA_TYPES.filter((t) => c.values[t].length).map((t) => Prisma.sql`r.${Prisma.raw(CRITERIA_COLUMN[t])} = ANY(${c.values[t]}::text[])`);
  if (c.held.length) matched.push(Prisma.sql`r.id = ANY(${c.held}::bigint[])`);
  // coalesce: the dashboard figures evaluate this on groups whose columns are NULL where no one names their value.
  const uncovered = matched.length ? Prisma.sql`NOT coalesce(${Prisma.join(matched, ' OR ')}, FALSE)` : Prisma.sql`TRUE`;
  return c.orphans.length ? Prisma.sql`(${uncovered} OR r.id = ANY(${c.orphans}::bigint[]))` : Prisma.sql`(${uncovered})`;
}

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
  const rows = await db.$queryRaw<{ reviewer_id: string; t: CriteriaType | 'held' | 'released'; v: string }[]>`
    SELECT reviewer_id::text, criteria_type::text AS t, criteria_value AS v FROM assignment_criteria WHERE reviewer_id = ANY(${reviewerIds}::uuid[])
    UNION ALL
    SELECT reviewer_id::text, CASE WHEN holds THEN 'held' ELSE 'released' END, risk_row_id::text FROM item_holds WHERE reviewer_id = ANY(${reviewerIds}::uuid[])
    ORDER BY 3`;
  for (const r of rows) out.get(r.reviewer_id)?.[r.t].push(r.v);
  const people = await db.$queryRaw<{ id: string; own: string[]; fallback: boolean }[]>`
    SELECT u.id::text AS id, u.access_user_ids AS own, ${isActiveFallback('u')} AS fallback FROM users u WHERE u.id = ANY(${reviewerIds}::uuid[])`;
  const coverage = people.some((p) => p.fallback) ? await coverageOf(db) : null;
  // Only own user ids that some row has change what they see: the others are left out, so reviewers
  // with equal criteria keep one scope (and its kept figures) and the condition stays as it was.
  const variants = ownIdVariants(people.flatMap((p) => p.own));
  const present = new Set(
    variants.length
      ? (await db.$queryRaw<{ u: string }[]>`SELECT DISTINCT r.user_id AS u FROM risk_rows r WHERE r.user_id = ANY(${variants}::text[])`).map((r) => r.u)
      : [],
  );
  for (const p of people) {
    const sets = out.get(p.id)!;
    sets.own = ownIdVariants(p.own).filter((id) => present.has(id));
    if (p.fallback) sets.fallback = coverage;
  }
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
  const holds = holdsRule({
    matched: CRITERIA_TYPES.filter((t) => sets[t].length).map((t) => Prisma.sql`r.${Prisma.raw(CRITERIA_COLUMN[t])} = ANY(${sets[t]}::text[])`),
    held: sets.held.length ? Prisma.sql`r.id = ANY(${sets.held}::bigint[])` : null,
    released: sets.released.length ? Prisma.sql`r.id = ANY(${sets.released}::bigint[])` : null,
  });
  // Coverage: a fallback reviewer also holds the rows nobody else holds.
  const covered = sets.fallback ? Prisma.sql`(${holds} OR ${unheldRowsCondition(sets.fallback)})` : holds;
  // Independence: never a row of their own access.
  return sets.own.length ? Prisma.sql`(${covered} AND NOT coalesce(r.user_id = ANY(${sets.own}::text[]), FALSE))` : covered;
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
 * The reviewers who hold work (criteria or items moved to them, or the rows
 * nobody else holds: the active fallback reviewers), or only `reviewerId`,
 * with their sets (one query for all), by e-mail.
 */
export async function holdersOf(db: DbClient, reviewerId: string | null): Promise<Holder[]> {
  const fallback = reviewerId ? [] : await activeFallbackIds(db);
  const users = await db.user.findMany({
    where: reviewerId ? { id: reviewerId } : { role: 'reviewer', OR: [...HOLDS_WORK.OR, { id: { in: fallback } }] },
    orderBy: [{ email: 'asc' }, { id: 'asc' }],
  });
  const sets = await criteriaSetsOf(
    db,
    users.map((u) => u.id),
  );
  return users.map((u) => ({ label: personLabel(u), sets: sets.get(u.id)! }));
}

/** How 'Assigned To' marks a fallback reviewer on a row that reached them as one: nobody else holds it, or its holders may not review their own access. */
export const FALLBACK_MARK = ' (fallback)';
export const SELF_REVIEW_FALLBACK_MARK = ' (fallback: self-review)';

/**
 * Who holds row r (alias r) as one text, the holders' labels joined by '; '
 * (NULL when nobody): each holder's own assignedRowsCondition, the visibility
 * rule itself, so a long export evaluates plain conditions per row and runs no
 * query per row (rowHoldersSql does, for pages and single rows). A fallback
 * reviewer holding a row only as the fallback is named with why
 * (FALLBACK_MARK, SELF_REVIEW_FALLBACK_MARK).
 */
export function holdersTextSql(holders: Holder[]): Prisma.Sql {
  if (!holders.length) return Prisma.sql`NULL::text`;
  const each = holders.map((h) => {
    if (!h.sets.fallback) return Prisma.sql`CASE WHEN ${assignedRowsCondition(h.sets)} THEN ${h.label}::text END`;
    const why = Prisma.sql`CASE WHEN r.id = ANY(${h.sets.fallback.selfRouted}::bigint[]) THEN ${SELF_REVIEW_FALLBACK_MARK}::text ELSE ${FALLBACK_MARK}::text END`;
    return Prisma.sql`CASE WHEN ${assignedRowsCondition({ ...h.sets, fallback: null })} THEN ${h.label}::text
                           WHEN ${assignedRowsCondition(h.sets)} THEN ${h.label}::text || ${why} END`;
  });
  return Prisma.sql`nullif(array_to_string(ARRAY[${Prisma.join(each)}]::text[], '; '), '')`;
}

/** The same rule as assignedRowsCondition, for one row already read (who holds the rows being moved). */
export function rowAssigned(sets: CriteriaSets, row: Record<CriteriaColumnField, string> & { id: bigint }): boolean {
  const id = String(row.id);
  if (sets.own.includes(row.userId)) return false;
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
