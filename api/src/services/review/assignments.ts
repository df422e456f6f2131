// Assignment criteria: a reviewer is assigned every risk row that matches any
// of their criteria (risk id, user id, user group, system, role/profile).
// Administrators see every row. A role is shared when more than one reviewer
// is assigned the same user and role.
import { z } from 'zod';
import { Prisma, type AssignmentCriteria, type CriteriaType, type PrismaClient, type User } from '../../generated/prisma/client.js';
import { ConflictError, NotFoundError, ValidationError } from '../../core/errors.js';
import { recordAudit } from '../../core/audit.js';
import { personLabel } from '../../core/people.js';
import { MAX_CRITERIA_VALUE_LENGTH, MAX_NAME_LENGTH, isSingleLine, parseOrThrow, singleLineMessage } from '../../core/validation.js';
import type { Actor, DbClient } from '../../core/types.js';
import { isUuid } from '../../core/types.js';
import { LIVE_ROWS } from '../live-rows.js';
import { CRITERIA_COLUMN, CRITERIA_TYPES } from '../criteria-columns.js';
import { cached } from '../risk-counts.js';
import { likeContains } from '../risk-rules.js';
import { criteriaVersionBefore, keepReviewerDaysAfter, type ReviewerSight } from '../reviewer-days.js';
import { holdDecisionWriters, keepSharedItemsAfter } from '../shared-items.js';
import { JOBS, onTransaction, type JobQueue } from '../../db/queue.js';
import type { AppDeps } from '../deps.js';

/** What a change of what reviewers see needs: the database, and the queue its dashboard figures' job goes to. */
export type SightDeps = Pick<AppDeps, 'prisma' | 'jobs'>;

/** SPEC §5: the type in upper case with underscores as spaces, a colon, the value. */
export function defaultCriteriaName(type: CriteriaType, value: string): string {
  return `${type.toUpperCase().replace(/_/g, ' ')}: ${value}`;
}

const REQUIRED = 'Please fill in all required fields';
/** Also the REST edge's body schema (rest/review/assignments.ts). */
export const createCriteriaSchema = z.object({
  name: z.string().trim().max(200, 'Assignment name is too long').refine(isSingleLine, singleLineMessage('Assignment name')).nullish(),
  reviewerId: z.string({ error: REQUIRED }).trim().min(1, REQUIRED).max(MAX_NAME_LENGTH, 'Reviewer id is not valid'),
  criteriaType: z.enum(CRITERIA_TYPES, { error: REQUIRED }),
  criteriaValue: z
    .string({ error: REQUIRED })
    .trim()
    .min(1, REQUIRED)
    .max(MAX_CRITERIA_VALUE_LENGTH, `Criteria value is too long (${MAX_CRITERIA_VALUE_LENGTH} characters at most)`),
});
export type CreateCriteriaInput = z.input<typeof createCriteriaSchema>;

export type CriteriaWithReviewer = AssignmentCriteria & { reviewer: User };

export function listCriteria(prisma: PrismaClient): Promise<CriteriaWithReviewer[]> {
  return prisma.assignmentCriteria.findMany({ include: { reviewer: true }, orderBy: [{ assignedAt: 'desc' }, { id: 'desc' }] });
}

export async function createCriteria({ prisma, jobs }: SightDeps, actor: Actor, input: CreateCriteriaInput): Promise<CriteriaWithReviewer> {
  const data = parseOrThrow(createCriteriaSchema, input);
  const reviewer = isUuid(data.reviewerId) ? await prisma.user.findUnique({ where: { id: data.reviewerId } }) : null;
  if (!reviewer) throw new ValidationError('The chosen reviewer does not exist', 'reviewerId');
  if (reviewer.role !== 'reviewer') throw new ValidationError('Assignments can only be made to reviewers', 'reviewerId');
  if (!reviewer.isActive) throw new ValidationError('The chosen reviewer is deactivated', 'reviewerId');
  const name = data.name || defaultCriteriaName(data.criteriaType, data.criteriaValue);
  try {
    return await prisma.$transaction(async (tx) => {
      const c = await changingWhatTheySee(tx, jobs, [reviewer.id], () =>
        tx.assignmentCriteria.create({
          data: { name, reviewerId: reviewer.id, criteriaType: data.criteriaType, criteriaValue: data.criteriaValue },
          include: { reviewer: true },
        }),
      );
      await recordAudit(tx, actor, {
        action: 'assignment.created',
        entityType: 'AssignmentCriteria',
        entityId: c.id,
        after: { name, reviewerId: reviewer.id, reviewerEmail: reviewer.email, criteriaType: c.criteriaType, criteriaValue: c.criteriaValue },
      });
      return c;
    });
  } catch (err) {
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002') {
      throw new ConflictError('This reviewer already has that assignment');
    }
    throw err;
  }
}

export async function deleteCriteria({ prisma, jobs }: SightDeps, actor: Actor, id: string): Promise<void> {
  if (!isUuid(id)) throw new NotFoundError('Assignment not found');
  await prisma.$transaction(async (tx) => {
    const c = await tx.assignmentCriteria.findUnique({ where: { id } });
    if (!c) throw new NotFoundError('Assignment not found');
    await changingWhatTheySee(tx, jobs, [c.reviewerId], () => tx.assignmentCriteria.delete({ where: { id } }));
    await recordAudit(tx, actor, { action: 'assignment.deleted', entityType: 'AssignmentCriteria', entityId: id, before: c });
  });
}

export interface ValueOption {
  value: string;
  label: string;
}

/**
 * The values a criteria type can take, from the loaded data, with labels;
 * values the reviewer already has are left out.
 */
export async function criteriaValues(
  prisma: PrismaClient,
  type: string,
  reviewerId?: string | null,
  limit = 1000,
  search?: string | null,
): Promise<ValueOption[]> {
  if (!(CRITERIA_TYPES as readonly string[]).includes(type)) {
    throw new ValidationError(`Unknown criteria type '${type}': use one of ${CRITERIA_TYPES.join(', ')}`, 'criteriaType');
  }
  const t = type as CriteriaType;
  const col = CRITERIA_COLUMN[t];
  const taken = reviewerId && isUuid(reviewerId)
    ? new Set((await prisma.assignmentCriteria.findMany({ where: { reviewerId, criteriaType: t }, select: { criteriaValue: true } })).map((c) => c.criteriaValue))
    : new Set<string>();
  const labelCol = t === 'user_id' ? 'user_name' : t === 'risk_id' ? 'risk_description' : t === 'role_profile' ? 'role_profile_description' : null;
  const c = Prisma.raw(col);
  // A picker asks for the values containing what was typed (value or label).
  const q = search?.trim().slice(0, MAX_CRITERIA_VALUE_LENGTH) ?? '';
  const like = q ? likeContains(q) : null;
  const matching = !like
    ? Prisma.sql`TRUE`
    : labelCol
      ? Prisma.sql`(r.${c} ILIKE ${like} OR r.${Prisma.raw(labelCol)} ILIKE ${like})`
      : Prisma.sql`r.${c} ILIKE ${like}`;
  const rows = labelCol
    ? await prisma.$queryRaw<{ value: string; label: string | null }[]>`
        SELECT DISTINCT ON (r.${c}) r.${c} AS value, r.${Prisma.raw(labelCol)} AS label
          FROM risk_rows r WHERE r.${c} <> '' AND ${matching} AND ${LIVE_ROWS} ORDER BY r.${c} LIMIT ${limit + taken.size}`
    : await prisma.$queryRaw<{ value: string; label: string | null }[]>`
        SELECT DISTINCT r.${c} AS value, NULL AS label
          FROM risk_rows r WHERE r.${c} <> '' AND ${matching} AND ${LIVE_ROWS} ORDER BY 1 LIMIT ${limit + taken.size}`;
  return rows
    .filter((r) => !taken.has(r.value))
    .slice(0, limit)
    .map((r) => ({ value: r.value, label: r.label ? `${r.value} — ${r.label}` : r.value }));
}

/**
 * How many loaded risk rows a criterion matches (its
 * column equal to its value), cached per data version.
 */
export async function criterionMatchCount(db: DbClient, type: CriteriaType, value: string): Promise<number> {
  return cached(db, `criterion|${type}|${value}`, async () => {
    const r = await db.$queryRaw<{ n: bigint }[]>`
      SELECT count(*) AS n FROM risk_rows r WHERE r.${Prisma.raw(CRITERIA_COLUMN[type])} = ${value} AND ${LIVE_ROWS}`;
    return Number(r[0]?.n ?? 0);
  });
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

/** These reviewers with the condition of their rows (one query for all), for their kept trend days (services/reviewer-days.ts). */
export async function sightsOf(db: DbClient, reviewerIds: string[]): Promise<ReviewerSight[]> {
  const sets = await criteriaSetsOf(db, reviewerIds);
  return reviewerIds.map((id) => ({ id, sees: assignedRowsCondition(sets.get(id)!) }));
}

/**
 * In a transaction that changes what `reviewerIds` see (their criteria, items
 * moved to or from them), with the decision writers held from its start
 * (holdDecisionWriters: those under way are waited for): `change`, then their
 * kept trend days worked out again and everyone else's kept as they are
 * (keepReviewerDaysAfter), their places in the kept shared items moved
 * (keepSharedItemsAfter: All Reviews and 'pending' read no stale items), and the
 * dashboard figures' job sent in the same transaction (jobs/dashboard-figures.ts:
 * the touched reviewers' scopes have new keys with no figures kept yet), so no
 * reviewer's first read after it counts live. A change that fails sends
 * nothing; the job cannot run before the change is committed (see
 * sightChangesSettled for a job already waiting).
 */
export async function changingWhatTheySee<T>(tx: DbClient, jobs: JobQueue, reviewerIds: string[], change: () => Promise<T>): Promise<T> {
  const before = await criteriaVersionBefore(tx);
  await holdDecisionWriters(tx);
  const out = await change();
  const sights = await sightsOf(tx, reviewerIds);
  await keepReviewerDaysAfter(tx, before, sights);
  await keepSharedItemsAfter(tx, before, sights);
  await askForDashboardFigures(tx, jobs);
  return out;
}

/**
 * Sends the dashboard figures' job (jobs/dashboard-figures.ts) in the
 * transaction `tx` of a change after which a scope may have no figures kept:
 * what a reviewer sees changed, or a reviewer holding work became active (made
 * active again, or given the reviewer's role).
 */
export async function askForDashboardFigures(tx: DbClient, jobs: JobQueue): Promise<void> {
  await jobs.boss.send(JOBS.dashboardFigures, {}, { db: onTransaction(tx) });
}

/**
 * Waits for the changes of what reviewers see that are under way to commit
 * (each holds the criteria version's row from its start: criteriaVersionBefore).
 * The dashboard figures' queue keeps one job waiting (pg-boss 'stately'): a
 * change that finds one waiting sends none, and that job may be fetched before
 * the change commits; it waits here before reading the scopes, so it sees it.
 */
export async function sightChangesSettled(db: DbClient): Promise<void> {
  await db.$queryRaw`SELECT 1 FROM risk_data_version WHERE id = 1 FOR SHARE`;
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
  const users = await db.user.findMany({ where: reviewerId ? { id: reviewerId } : { role: 'reviewer', ...HOLDS_WORK }, orderBy: [{ email: 'asc' }, { id: 'asc' }] });
  const sets = await criteriaSetsOf(db, users.map((u) => u.id));
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
