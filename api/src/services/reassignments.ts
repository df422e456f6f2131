// Delegation and reassignment (issue 18, point 6). Work is assigned by
// criteria (services/assignments.ts), so work moves by criterion: an
// administrator, or a reviewer for their own criteria, moves one to another
// active reviewer with a note; the new reviewer is told (notification and
// e-mail). Decisions already made stay with their author (they are the
// author's, per period). Each move is kept (reassignments), so an item's
// history shows who held it when; a deactivated reviewer's open work is listed
// for administrators to move. Single items cannot be moved on their own: the
// criteria model has no per-item holder, and a request naming items is
// refused with a message saying so.
import { z } from 'zod';
import { Prisma, type CriteriaType, type PrismaClient, type Reassignment, type User } from '../generated/prisma/client.js';
import type { Config } from '../config.js';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../core/errors.js';
import { actorLabel, recordAudit } from '../core/audit.js';
import { parseOrThrow } from '../core/validation.js';
import type { Actor } from '../core/types.js';
import { isUuid } from '../core/types.js';
import type { PubSub } from '../pubsub.js';
import type { Mailer } from './mail.js';
import { CRITERIA_COLUMN, CRITERIA_TYPES } from './assignments.js';
import { createSystemNotification, publishNotification } from './notifications.js';
import { getActivePeriod } from './periods.js';
import { pendingWork } from './reminders.js';
import { signInLink } from './users.js';

export interface ReassignDeps {
  prisma: PrismaClient;
  pubsub: PubSub;
  mailer: Mailer;
  config: Pick<Config, 'publicUrl'>;
}

export const ITEMS_NOT_MOVABLE =
  'Single items cannot be reassigned: work is assigned by criteria. Reassign the assignment criterion that covers them (criteriaId).';
export const NOT_YOUR_WORK = 'You can only reassign your own work';
export const REASSIGNED_TITLE = 'Work reassigned to you';

/** Also the REST edge's body schema (rest/reassignments.ts). */
export const reassignSchema = z.object({
  criteriaId: z.string().trim().max(100, 'criteriaId is not valid').nullish(),
  riskDefinitionIds: z.array(z.union([z.number(), z.string().max(30)])).max(10_000).nullish(),
  toReviewerId: z.string({ error: 'Please choose the reviewer to reassign to' }).trim().min(1, 'Please choose the reviewer to reassign to').max(100, 'toReviewerId is not valid'),
  note: z.string().trim().max(2000, 'The note is too long (2,000 characters at most)').nullish(),
});
export type ReassignInput = z.input<typeof reassignSchema>;

const label = (u: User) => actorLabel({ user: u });

/** Moves an assignment criterion to another reviewer, in one transaction with its history record, audit event and notification. */
export async function reassign(deps: ReassignDeps, actor: Actor, input: ReassignInput): Promise<Reassignment> {
  const user = actor.user;
  if (!user) throw new ForbiddenError('Not signed in');
  const data = parseOrThrow(reassignSchema, input);
  if (data.riskDefinitionIds?.length) throw new ValidationError(ITEMS_NOT_MOVABLE, 'riskDefinitionIds');
  if (!data.criteriaId) throw new ValidationError('Please choose the assignment to reassign (criteriaId)', 'criteriaId');
  const criterion = isUuid(data.criteriaId)
    ? await deps.prisma.assignmentCriteria.findUnique({ where: { id: data.criteriaId }, include: { reviewer: true } })
    : null;
  if (!criterion) throw new NotFoundError('Assignment not found');
  if (user.role !== 'admin' && criterion.reviewerId !== user.id) throw new ForbiddenError(NOT_YOUR_WORK);
  const to = isUuid(data.toReviewerId) ? await deps.prisma.user.findUnique({ where: { id: data.toReviewerId } }) : null;
  if (!to) throw new ValidationError('The chosen reviewer does not exist', 'toReviewerId');
  if (to.role !== 'reviewer') throw new ValidationError('Work can only be reassigned to reviewers', 'toReviewerId');
  if (!to.isActive) throw new ValidationError('The chosen reviewer is deactivated', 'toReviewerId');
  if (to.id === criterion.reviewerId) throw new ValidationError('This work is already assigned to that reviewer', 'toReviewerId');
  const from = criterion.reviewer;
  const what = `'${criterion.name}'`;
  const message = `${actorLabel(actor)} reassigned ${what} from ${label(from)} to you.${data.note ? ` Note: ${data.note}` : ''}`;
  let done: { r: Reassignment; n: Awaited<ReturnType<typeof createSystemNotification>> };
  try {
    done = await deps.prisma.$transaction(async (tx) => {
      // The criterion as it is now (a move racing another fails on the holder check).
      const moved = await tx.assignmentCriteria.updateMany({ where: { id: criterion.id, reviewerId: from.id }, data: { reviewerId: to.id } });
      if (!moved.count) throw new ConflictError('This assignment was changed meanwhile. Reload and try again.');
      const r = await tx.reassignment.create({
        data: {
          criteriaId: criterion.id,
          criteriaName: criterion.name,
          criteriaType: criterion.criteriaType,
          criteriaValue: criterion.criteriaValue,
          fromReviewerId: from.id,
          fromLabel: label(from),
          toReviewerId: to.id,
          toLabel: label(to),
          byId: user.id,
          byLabel: actorLabel(actor),
          note: data.note || null,
        },
      });
      await recordAudit(tx, actor, {
        action: 'assignment.reassigned',
        entityType: 'AssignmentCriteria',
        entityId: criterion.id,
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
  publishNotification(deps.pubsub, done.n);
  await deps.mailer.send({ to: to.email, subject: `Work reassigned to you: ${criterion.name}`, text: `Hello ${to.firstName},\n\n${message}\n\nSee it at ${signInLink(deps.config)}\n` });
  return done.r;
}

/**
 * The reassignments the caller may see, newest first: administrators every
 * one, a reviewer those from or to them. With a risk row id: that item's
 * history (the moves of the criteria that cover it), oldest first.
 */
export async function listReassignments(prisma: PrismaClient, actor: Actor, opts: { riskDefinitionId?: string | number | null } = {}): Promise<Reassignment[]> {
  const { where, orderBy, item } = await reassignmentQuery(prisma, actor, opts);
  return prisma.reassignment.findMany({ where, orderBy, ...(item ? {} : { take: 1000 }) });
}

/** Whether a user may see a move: administrators every one, others those from or to them. */
export function isReassignmentVisibleTo(r: Pick<Reassignment, 'fromReviewerId' | 'toReviewerId'>, user: Pick<User, 'id' | 'role'> | null | undefined): boolean {
  return !!user && (user.role === 'admin' || r.fromReviewerId === user.id || r.toReviewerId === user.id);
}

/**
 * Which moves the caller may list and in which order: newest first; with
 * riskDefinitionId, that item's history (the moves of the criteria that cover it), oldest first.
 */
export async function reassignmentQuery(
  prisma: PrismaClient,
  actor: Actor,
  opts: { riskDefinitionId?: string | number | null } = {},
): Promise<{ where: Prisma.ReassignmentWhereInput; orderBy: Prisma.ReassignmentOrderByWithRelationInput[]; item: boolean }> {
  const user = actor.user;
  if (!user) throw new ForbiddenError('Not signed in');
  const mine: Prisma.ReassignmentWhereInput = user.role === 'admin' ? {} : { OR: [{ fromReviewerId: user.id }, { toReviewerId: user.id }] };
  if (opts.riskDefinitionId == null || opts.riskDefinitionId === '') {
    return { where: mine, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], item: false };
  }
  const id = String(opts.riskDefinitionId);
  if (!/^\d{1,18}$/.test(id)) throw new ValidationError('riskDefinitionId must be a number', 'riskDefinitionId');
  const row = await prisma.riskRow.findUnique({ where: { id: BigInt(id) } });
  if (!row) throw new NotFoundError('Risk not found');
  const covering = CRITERIA_TYPES.map((t) => ({ criteriaType: t, criteriaValue: String(row[camel(CRITERIA_COLUMN[t]) as keyof typeof row]) }));
  return { where: { AND: [mine, { OR: covering }] }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], item: true };
}

const camel = (s: string) => s.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());

export interface OpenWork {
  reviewer: User;
  /** Items without the reviewer's decision in the active period (0 while none is active). */
  pending: number;
  criteria: { id: string; name: string; criteriaType: CriteriaType; criteriaValue: string }[];
}

/**
 * Work waiting to be moved: for an administrator, each deactivated reviewer
 * who still holds criteria; for a reviewer, their own.
 */
export async function openWork(prisma: PrismaClient, actor: Actor): Promise<OpenWork[]> {
  const user = actor.user;
  if (!user) throw new ForbiddenError('Not signed in');
  const where: Prisma.UserWhereInput = user.role === 'admin' ? { role: 'reviewer', isActive: false, criteria: { some: {} } } : { id: user.id };
  const reviewers = await prisma.user.findMany({
    where,
    include: { criteria: { orderBy: [{ assignedAt: 'asc' }, { id: 'asc' }] } },
    orderBy: [{ firstName: 'asc' }, { email: 'asc' }],
  });
  const period = await getActivePeriod(prisma);
  const pending = new Map(period ? (await pendingWork(prisma, period.id, reviewers.map((r) => r.id))).map((w) => [w.reviewer.id, w.pending]) : []);
  return reviewers.map(({ criteria, ...reviewer }) => ({
    reviewer,
    pending: pending.get(reviewer.id) ?? 0,
    criteria: criteria.map((c) => ({ id: c.id, name: c.name, criteriaType: c.criteriaType, criteriaValue: c.criteriaValue })),
  }));
}
