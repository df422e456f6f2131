// Delegation and reassignment: an administrator, or a
// reviewer for their own work, moves an assignment criterion, or single
// items, to another active reviewer with a note; the new reviewer is told
// (notification and e-mail). Decisions already made stay with their author
// (they are the author's, per period). Single items move by item holds
// (item_holds: given to the new reviewer, given away by the old one), which
// the one visibility rule honours (holds.ts assignedRowsCondition).
// Each move is kept (reassignments), so an item's history shows who held it
// when; a deactivated reviewer's open work is listed for administrators to move.
import { z } from 'zod';
import { Prisma, type CriteriaType, type PrismaClient, type Reassignment, type User } from '../../generated/prisma/client.js';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../../core/errors.js';
import { actorLabel, recordAudit } from '../../core/audit.js';
import { parseOrThrow } from '../../core/validation.js';
import { isUuid, type Actor } from '../../core/types.js';
import type { Caller } from '../caller.js';
import { CRITERIA_COLUMN, CRITERIA_TYPES, HOLDS_WORK, criteriaSetsOf, rowAssigned } from '../holds.js';
import { changingWhatTheySee } from './assignments.js';
import { createSystemNotification, publishNotification } from '../identity/notifications.js';
import { getActivePeriod } from './periods.js';
import { pendingWork } from './reminders.js';
import { signInLink } from '../identity/users.js';
import { LIVE_ROWS } from '../live-rows.js';

export const ONE_HOLDER = 'These items are held by more than one reviewer: say whose work moves (fromReviewerId)';
export const NOT_YOUR_WORK = 'You can only reassign your own work';
export const REASSIGNED_TITLE = 'Work reassigned to you';

/** The services' name of the single items a move takes. */
export const ITEMS_FIELD = 'riskRowIds';

/**
 * A move's input, its single items named `itemsField` in the object and in
 * the messages: riskRowIds here, the SPEC's name at the REST edge
 * (rest/review/reassignments.ts), so each says the name its clients send.
 */
export function reassignSchemaNaming<F extends string>(itemsField: F) {
  const items = z
    .array(z.union([z.number(), z.string().max(30)]), { error: `${itemsField} must be a list of risk ids` })
    .max(10_000, 'At most 10,000 items at once')
    .nullish();
  return z.object({
    criteriaId: z.string().trim().max(100, 'criteriaId is not valid').nullish(),
    ...({ [itemsField]: items } as Record<F, typeof items>),
    fromReviewerId: z.string().trim().max(100, 'fromReviewerId is not valid').nullish(),
    toReviewerId: z
      .string({ error: 'Please choose the reviewer to reassign to' })
      .trim()
      .min(1, 'Please choose the reviewer to reassign to')
      .max(100, 'toReviewerId is not valid'),
    note: z.string().trim().max(2000, 'The note is too long (2,000 characters at most)').nullish(),
  });
}
export const reassignSchema = reassignSchemaNaming(ITEMS_FIELD);
export type ReassignInput = z.input<typeof reassignSchema>;

const label = (u: User) => actorLabel({ user: u });

/** Who a reassignment moved work from and to, and who moved it, as its record keeps them (labels as shown then). */
function movedBetween(from: User, to: User, actor: Actor & { user: User }, note: string | null | undefined) {
  return {
    fromReviewerId: from.id,
    fromLabel: label(from),
    toReviewerId: to.id,
    toLabel: label(to),
    byId: actor.user.id,
    byLabel: actorLabel(actor),
    note: note || null,
  };
}

/** The active reviewer work is moved to, or a clear refusal. */
async function receiver(prisma: PrismaClient, id: string): Promise<User> {
  const to = isUuid(id) ? await prisma.user.findUnique({ where: { id } }) : null;
  if (!to) throw new ValidationError('The chosen reviewer does not exist', 'toReviewerId');
  if (to.role !== 'reviewer') throw new ValidationError('Work can only be reassigned to reviewers', 'toReviewerId');
  if (!to.isActive) throw new ValidationError('The chosen reviewer is deactivated', 'toReviewerId');
  return to;
}

/**
 * Moves an assignment criterion, or single items, to another reviewer, in one
 * transaction with its history record, audit event and notification. The
 * refusals about the items name them `itemsField`, as the caller's edge does.
 */
export async function reassign(caller: Caller, input: ReassignInput, itemsField: string = ITEMS_FIELD): Promise<Reassignment> {
  const {
    deps,
    actor,
    actor: { user },
  } = caller;
  const data = parseOrThrow(reassignSchema, input);
  if (data.riskRowIds?.length) return reassignItems(caller, data, itemsField);
  if (!data.criteriaId) throw new ValidationError('Please choose the assignment to reassign (criteriaId)', 'criteriaId');
  const criterion = isUuid(data.criteriaId)
    ? await deps.prisma.assignmentCriteria.findUnique({ where: { id: data.criteriaId }, include: { reviewer: true } })
    : null;
  if (!criterion) throw new NotFoundError('Assignment not found');
  if (user.role !== 'admin' && criterion.reviewerId !== user.id) throw new ForbiddenError(NOT_YOUR_WORK);
  const to = await receiver(deps.prisma, data.toReviewerId);
  if (to.id === criterion.reviewerId) throw new ValidationError('This work is already assigned to that reviewer', 'toReviewerId');
  const from = criterion.reviewer;
  const periodId = (await getActivePeriod(deps.prisma))?.id ?? null;
  const what = `'${criterion.name}'`;
  const message = `${actorLabel(actor)} reassigned ${what} from ${label(from)} to you.${data.note ? ` Note: ${data.note}` : ''}`;
  let done: { r: Reassignment; n: Awaited<ReturnType<typeof createSystemNotification>> };
  try {
    done = await deps.prisma.$transaction(async (tx) => {
      // The criterion as it is now (a move racing another fails on the holder check).
      const moved = await changingWhatTheySee(tx, deps.jobs, [from.id, to.id], () =>
        tx.assignmentCriteria.updateMany({ where: { id: criterion.id, reviewerId: from.id }, data: { reviewerId: to.id } }),
      );
      if (!moved.count) throw new ConflictError('This assignment was changed meanwhile. Reload and try again.');
      const r = await tx.reassignment.create({
        data: {
          criteriaId: criterion.id,
          criteriaName: criterion.name,
          criteriaType: criterion.criteriaType,
          criteriaValue: criterion.criteriaValue,
          ...movedBetween(from, to, actor, data.note),
        },
      });
      await recordAudit(tx, actor, {
        action: 'assignment.reassigned',
        entityType: 'AssignmentCriteria',
        entityId: criterion.id,
        periodId,
        before: { reviewerId: from.id, reviewer: from.email },
        after: { reviewerId: to.id, reviewer: to.email, note: r.note },
      });
      const n = await createSystemNotification(tx, { type: 'info', title: REASSIGNED_TITLE, message, targetUserId: to.id });
      return { r, n };
    });
  } catch (err) {
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002') throw new ConflictError('That reviewer already has this assignment');
    throw err;
  }
  await tell(deps, done.n, to, criterion.name, message);
  return done.r;
}

/** The new reviewer is told: the notification (created in the move's transaction) goes out, and an e-mail. */
async function tell(deps: Caller['deps'], n: Awaited<ReturnType<typeof createSystemNotification>>, to: User, what: string, message: string) {
  publishNotification(deps.pubsub, n);
  await deps.mailer.send({
    to: to.email,
    subject: `Work reassigned to you: ${what}`,
    text: `Hello ${to.firstName},\n\n${message}\n\nSee it at ${signInLink(deps.config)}\n`,
  });
}

const ITEM_ID = /^\d{1,18}$/;

/**
 * Moves single items (risk rows) from the reviewer who holds them to another:
 * a reviewer only items they hold, an administrator any, from the reviewer
 * named (fromReviewerId) or the one reviewer holding them.
 */
async function reassignItems(caller: Caller, data: z.output<typeof reassignSchema>, itemsField: string): Promise<Reassignment> {
  const {
    deps,
    actor,
    actor: { user },
  } = caller;
  const raw = data.riskRowIds!.map(String);
  const bad = raw.find((id) => !ITEM_ID.test(id.trim()));
  if (bad !== undefined) throw new ValidationError(`${itemsField} must be risk ids (numbers): '${bad.slice(0, 30)}' is not`, itemsField);
  const ids = [...new Set(raw.map((id) => BigInt(id.trim())))];
  if (user.role !== 'admin' && data.fromReviewerId && data.fromReviewerId !== user.id) throw new ForbiddenError(NOT_YOUR_WORK);
  const rows = await deps.prisma.$queryRaw<{ id: bigint; accessRiskId: string; userId: string; userGroup: string; system: string; roleProfile: string }[]>`
    SELECT r.id, r.access_risk_id AS "accessRiskId", r.user_id AS "userId", r.user_group AS "userGroup", r.system, r.role_profile AS "roleProfile"
      FROM risk_rows r WHERE r.id = ANY(${ids}::bigint[]) AND ${LIVE_ROWS}`;
  const missing = ids.find((id) => !rows.some((r) => r.id === id));
  if (missing !== undefined) throw user.role === 'admin' ? new NotFoundError(`Risk not found: ${missing}`) : new ForbiddenError(NOT_YOUR_WORK);
  // Who holds the items now, by the one rule (a reviewer: themselves).
  const candidates =
    user.role === 'admin'
      ? data.fromReviewerId
        ? isUuid(data.fromReviewerId)
          ? await deps.prisma.user.findMany({ where: { id: data.fromReviewerId, role: 'reviewer' } })
          : []
        : await deps.prisma.user.findMany({ where: { role: 'reviewer', id: { not: data.toReviewerId.slice(0, 100) } } })
      : [user];
  if (data.fromReviewerId && !candidates.length) throw new ValidationError('The reviewer to take the work from does not exist', 'fromReviewerId');
  const sets = await criteriaSetsOf(
    deps.prisma,
    candidates.map((c) => c.id),
  );
  const holders = candidates.filter((c) => rows.some((r) => rowAssigned(sets.get(c.id)!, r)));
  const from = holders[0];
  if (!from)
    throw user.role === 'admin'
      ? new ValidationError('Nobody holds these items yet: assign them with an assignment instead', itemsField)
      : new ForbiddenError(NOT_YOUR_WORK);
  if (holders.length > 1) throw new ValidationError(ONE_HOLDER, 'fromReviewerId');
  const notHeld = rows.find((r) => !rowAssigned(sets.get(from.id)!, r));
  if (notHeld) {
    if (user.role !== 'admin') throw new ForbiddenError(NOT_YOUR_WORK);
    throw new ValidationError(`${label(from)} does not hold item ${notHeld.id}`, itemsField);
  }
  const to = await receiver(deps.prisma, data.toReviewerId);
  if (to.id === from.id) throw new ValidationError('This work is already assigned to that reviewer', 'toReviewerId');
  const what = ids.length === 1 ? `item ${ids[0]}` : `${ids.length} items`;
  const message = `${actorLabel(actor)} reassigned ${what} from ${label(from)} to you.${data.note ? ` Note: ${data.note}` : ''}`;
  const periodId = (await getActivePeriod(deps.prisma))?.id ?? null;
  const done = await deps.prisma.$transaction(async (tx) => {
    const hold = (reviewerId: string, holds: boolean) => tx.$executeRaw`
      INSERT INTO item_holds (risk_row_id, reviewer_id, holds) SELECT unnest(${ids}::bigint[]), ${reviewerId}::uuid, ${holds}
      ON CONFLICT (risk_row_id, reviewer_id) DO UPDATE SET holds = EXCLUDED.holds, since = now()`;
    await changingWhatTheySee(tx, deps.jobs, [from.id, to.id], async () => {
      await hold(from.id, false);
      await hold(to.id, true);
    });
    const r = await tx.reassignment.create({
      data: {
        riskRowIds: ids,
        ...movedBetween(from, to, actor, data.note),
      },
    });
    await recordAudit(tx, actor, {
      action: 'items.reassigned',
      entityType: 'Reassignment',
      entityId: r.id,
      periodId,
      before: { reviewerId: from.id, reviewer: from.email, riskRowIds: ids },
      after: { reviewerId: to.id, reviewer: to.email, riskRowIds: ids, note: r.note },
    });
    const n = await createSystemNotification(tx, { type: 'info', title: REASSIGNED_TITLE, message, targetUserId: to.id });
    return { r, n };
  });
  await tell(deps, done.n, to, what, message);
  return done.r;
}

/**
 * The reassignments the caller may see, newest first: administrators every
 * one, a reviewer those from or to them. With a risk row id: that item's
 * history (the moves of the criteria that cover it and of the item itself),
 * oldest first.
 */
export async function listReassignments(caller: Caller, opts: ItemHistory = {}): Promise<Reassignment[]> {
  const { where, orderBy, item } = await reassignmentQuery(caller, opts);
  return caller.deps.prisma.reassignment.findMany({ where, orderBy, ...(item ? {} : { take: 1000 }) });
}

/** Whether a user may see a move: administrators every one, others those from or to them. */
export function isReassignmentVisibleTo(r: Pick<Reassignment, 'fromReviewerId' | 'toReviewerId'>, user: Pick<User, 'id' | 'role'> | null | undefined): boolean {
  return !!user && (user.role === 'admin' || r.fromReviewerId === user.id || r.toReviewerId === user.id);
}

/** One item's history: its risk row, and the name the caller's edge gives that argument (for its refusal). */
export interface ItemHistory {
  riskRowId?: string | number | null;
  /** riskRowId unless the edge names it otherwise (the SPEC's name). */
  field?: string;
}

/**
 * Which moves the caller may list and in which order: newest first; with
 * riskRowId, that item's history (the moves of the criteria that cover it), oldest first.
 */
export async function reassignmentQuery(
  caller: Caller,
  opts: ItemHistory = {},
): Promise<{ where: Prisma.ReassignmentWhereInput; orderBy: Prisma.ReassignmentOrderByWithRelationInput[]; item: boolean }> {
  const {
    deps: { prisma },
    actor: { user },
  } = caller;
  const mine: Prisma.ReassignmentWhereInput = user.role === 'admin' ? {} : { OR: [{ fromReviewerId: user.id }, { toReviewerId: user.id }] };
  if (opts.riskRowId == null || opts.riskRowId === '') {
    return { where: mine, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], item: false };
  }
  const id = String(opts.riskRowId);
  const field = opts.field ?? 'riskRowId';
  if (!/^\d{1,18}$/.test(id)) throw new ValidationError(`${field} must be a number`, field);
  const row = await prisma.riskRow.findUnique({ where: { id: BigInt(id) } });
  if (!row) throw new NotFoundError('Risk not found');
  const covering = CRITERIA_TYPES.map((t) => ({ criteriaType: t, criteriaValue: String(row[camel(CRITERIA_COLUMN[t]) as keyof typeof row]) }));
  return { where: { AND: [mine, { OR: [...covering, { riskRowIds: { has: row.id } }] }] }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], item: true };
}

const camel = (s: string) => s.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());

export interface OpenWork {
  reviewer: User;
  /** Items without the reviewer's decision in the active period (0 while none is active). */
  pending: number;
  criteria: { id: string; name: string; criteriaType: CriteriaType; criteriaValue: string }[];
  /** Single items moved to the reviewer (risk row ids), oldest move first. */
  items: bigint[];
}

/**
 * Whose work is waiting to be moved: for an administrator, each deactivated
 * reviewer who still holds criteria or single items; for a reviewer, their own.
 */
export function openWorkWhere(caller: Caller): Prisma.UserWhereInput {
  const { user } = caller.actor;
  return user.role === 'admin' ? { role: 'reviewer', isActive: false, ...HOLDS_WORK } : { id: user.id };
}

/** The work waiting to be moved (openWorkWhere), by name. */
export async function openWork(caller: Caller): Promise<OpenWork[]> {
  const reviewers = await caller.deps.prisma.user.findMany({ where: openWorkWhere(caller), orderBy: [{ firstName: 'asc' }, { email: 'asc' }] });
  const work = await openWorkOf(
    caller,
    reviewers.map((r) => r.id),
  );
  return reviewers.map((reviewer, i) => ({ reviewer, ...work[i]! }));
}

/** What each of these reviewers holds, in the same order (one page of the GraphQL connection at once). */
export async function openWorkOf(caller: Caller, reviewerIds: readonly string[]): Promise<Omit<OpenWork, 'reviewer'>[]> {
  const { prisma } = caller.deps;
  const [held, period] = await Promise.all([
    prisma.user.findMany({
      where: { id: { in: [...reviewerIds] } },
      select: {
        id: true,
        criteria: { orderBy: [{ assignedAt: 'asc' }, { id: 'asc' }] },
        itemHolds: { where: { holds: true }, orderBy: [{ since: 'asc' }, { riskRowId: 'asc' }], take: 10_000 },
      },
    }),
    getActivePeriod(prisma),
  ]);
  const byId = new Map(held.map((h) => [h.id, h]));
  const pending = new Map(period ? (await pendingWork(prisma, period.id, [...reviewerIds])).map((w) => [w.reviewer.id, w.pending]) : []);
  return reviewerIds.map((id) => ({
    pending: pending.get(id) ?? 0,
    criteria: (byId.get(id)?.criteria ?? []).map((c) => ({ id: c.id, name: c.name, criteriaType: c.criteriaType, criteriaValue: c.criteriaValue })),
    items: (byId.get(id)?.itemHolds ?? []).map((h) => h.riskRowId),
  }));
}

/** The reassign dialogs' picker lists at most this many reviewers (a bounded list, not a connection). */
export const MAX_REASSIGNABLE = 5000;

/** Who work can be moved to: the active reviewers other than the caller, by name (the dialogs' picker). */
export async function reassignableReviewers(caller: Caller): Promise<User[]> {
  const {
    deps: { prisma },
    actor: { user },
  } = caller;
  return prisma.user.findMany({
    where: { role: 'reviewer', isActive: true, id: { not: user.id } },
    orderBy: [{ firstName: 'asc' }, { lastName: 'asc' }, { email: 'asc' }],
    take: MAX_REASSIGNABLE,
  });
}
