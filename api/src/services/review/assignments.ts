// Assignment criteria: a reviewer is assigned every risk row that matches any
// of their criteria (risk id, user id, user group, system, role/profile; the
// rule itself is services/holds.ts). Administrators see every row. A role is
// shared when more than one reviewer is assigned the same user and role.
// Creating and deleting criteria, and every other change of what reviewers
// see, go through changingWhatTheySee.
import { z } from 'zod';
import { Prisma, type AssignmentCriteria, type CriteriaType, type User } from '../../generated/prisma/client.js';
import { ConflictError, NotFoundError, ValidationError } from '../../core/errors.js';
import { recordAudit } from '../../core/audit.js';
import { MAX_CRITERIA_VALUE_LENGTH, MAX_NAME_LENGTH, isSingleLine, parseOrThrow, singleLineMessage } from '../../core/validation.js';
import type { DbClient } from '../../core/types.js';
import { isUuid } from '../../core/types.js';
import { LIVE_ROWS } from '../live-rows.js';
import { CRITERIA_COLUMN, CRITERIA_TYPES, activeFallbackIds } from '../holds.js';
import { cached } from '../kept/index.js';
import { likeContains } from '../risk-rules.js';
import { beginSightChange, dispatch } from '../kept/dispatcher.js';
import type { JobQueue } from '../../db/queue.js';
import type { Caller } from '../caller.js';

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

export function listCriteria(caller: Caller): Promise<CriteriaWithReviewer[]> {
  return caller.deps.prisma.assignmentCriteria.findMany({ include: { reviewer: true }, orderBy: [{ assignedAt: 'desc' }, { id: 'desc' }] });
}

export async function createCriteria(caller: Caller, input: CreateCriteriaInput): Promise<CriteriaWithReviewer> {
  const {
    deps: { prisma, jobs },
    actor,
  } = caller;
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

export async function deleteCriteria(caller: Caller, id: string): Promise<void> {
  const {
    deps: { prisma, jobs },
    actor,
  } = caller;
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
export async function criteriaValues(caller: Caller, type: string, reviewerId?: string | null, limit = 1000, search?: string | null): Promise<ValueOption[]> {
  const { prisma } = caller.deps;
  if (!(CRITERIA_TYPES as readonly string[]).includes(type)) {
    throw new ValidationError(`Unknown criteria type '${type}': use one of ${CRITERIA_TYPES.join(', ')}`, 'criteriaType');
  }
  const t = type as CriteriaType;
  const col = CRITERIA_COLUMN[t];
  const taken =
    reviewerId && isUuid(reviewerId)
      ? new Set(
          (await prisma.assignmentCriteria.findMany({ where: { reviewerId, criteriaType: t }, select: { criteriaValue: true } })).map((c) => c.criteriaValue),
        )
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
export async function criterionMatchCount(caller: Caller, type: CriteriaType, value: string): Promise<number> {
  const db = caller.deps.prisma;
  return cached(db, `criterion|${type}|${value}`, async () => {
    const r = await db.$queryRaw<{ n: bigint }[]>`
      SELECT count(*) AS n FROM risk_rows r WHERE r.${Prisma.raw(CRITERIA_COLUMN[type])} = ${value} AND ${LIVE_ROWS}`;
    return Number(r[0]?.n ?? 0);
  });
}

/**
 * In a transaction that changes what `reviewerIds` see (their criteria, items
 * moved to or from them): the change begun with the kept aggregates
 * (beginSightChange: the decision writers held from the start, those under
 * way waited for), `change`, then told to them ('sight-changed': the touched
 * reviewers' kept trend days and places in the shared items moved, the
 * dashboard figures' job sent in the same transaction), so no reviewer's
 * first read after it counts live and a change that fails sends nothing.
 * The fallback reviewers are always touched: they hold what nobody else
 * holds, so any change of what someone sees changes what they see.
 */
export async function changingWhatTheySee<T>(tx: DbClient, jobs: JobQueue, reviewerIds: string[], change: () => Promise<T>): Promise<T> {
  const begun = await beginSightChange(tx);
  const out = await change();
  const touched = [...new Set([...reviewerIds, ...(await activeFallbackIds(tx))])];
  await dispatch(tx, { kind: 'sight-changed', change: begun, reviewerIds: touched, jobs });
  return out;
}
