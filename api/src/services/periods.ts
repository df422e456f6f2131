// Review periods: at most one active at a time (the database enforces it too).
// While none is active, every decision, submission and recall is refused.
import { z } from 'zod';
import { Prisma, type PrismaClient, type ReviewPeriod } from '../generated/prisma/client.js';
import { ConflictError, NotFoundError } from '../core/errors.js';
import { recordAudit } from '../core/audit.js';
import { dateInput, parseOrThrow } from '../core/validation.js';
import type { Actor, DbClient } from '../core/types.js';
import { isUuid } from '../core/types.js';

export const NO_ACTIVE_PERIOD =
  'No review period is active. Decisions, submissions and recalls are locked until an administrator opens one.';


export function getActivePeriod(db: DbClient): Promise<ReviewPeriod | null> {
  return db.reviewPeriod.findFirst({ where: { status: 'active' } });
}

/** The active period, or a clear refusal. */
export async function requireActivePeriod(db: DbClient): Promise<ReviewPeriod> {
  const p = await getActivePeriod(db);
  if (!p) throw new ConflictError(NO_ACTIVE_PERIOD);
  return p;
}

export function listPeriods(prisma: PrismaClient): Promise<ReviewPeriod[]> {
  return prisma.reviewPeriod.findMany({ orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
}

const createSchema = z.object({
  name: z.string({ error: 'Period name is required' }).trim().min(1, 'Period name is required').max(200, 'Period name is too long'),
  description: z.string().trim().max(2000, 'Description is too long').nullish(),
  startDate: dateInput('Start date is not a valid date').nullish(),
  endDate: dateInput('End date is not a valid date').nullish(),
});
export type CreatePeriodInput = z.input<typeof createSchema>;

function isActiveConflict(err: unknown): boolean {
  return err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002';
}

const ALREADY_ACTIVE = 'Another review period is already active. Close it first.';

/** Creates a period and activates it at once (SPEC §4). */
export async function createPeriod(prisma: PrismaClient, actor: Actor, input: CreatePeriodInput): Promise<ReviewPeriod> {
  const data = parseOrThrow(createSchema, input);
  const startDate = data.startDate ?? new Date();
  if (data.endDate && data.endDate <= startDate) throw new ConflictError('The end date must be after the start date');
  try {
    return await prisma.$transaction(async (tx) => {
      if (await getActivePeriod(tx)) throw new ConflictError(ALREADY_ACTIVE);
      const p = await tx.reviewPeriod.create({
        data: {
          name: data.name,
          description: data.description || null,
          startDate,
          endDate: data.endDate ?? null,
          status: 'active',
          createdById: actor.user?.id ?? null,
        },
      });
      await recordAudit(tx, actor, { action: 'period.created', entityType: 'ReviewPeriod', entityId: p.id, periodId: p.id, after: p });
      return p;
    });
  } catch (err) {
    if (isActiveConflict(err)) throw new ConflictError(ALREADY_ACTIVE);
    throw err;
  }
}

export async function setPeriodStatus(prisma: PrismaClient, actor: Actor, id: string, status: 'active' | 'closed'): Promise<ReviewPeriod> {
  if (!isUuid(id)) throw new NotFoundError('Review period not found');
  try {
    return await prisma.$transaction(async (tx) => {
      const before = await tx.reviewPeriod.findUnique({ where: { id } });
      if (!before) throw new NotFoundError('Review period not found');
      if (before.status === status) {
        throw new ConflictError(status === 'active' ? 'This review period is already open' : 'This review period is already closed');
      }
      if (status === 'active') {
        const other = await getActivePeriod(tx);
        if (other) throw new ConflictError(ALREADY_ACTIVE);
      }
      const p = await tx.reviewPeriod.update({
        where: { id },
        data: status === 'closed' ? { status, closedAt: new Date() } : { status, closedAt: null },
      });
      await recordAudit(tx, actor, {
        action: status === 'closed' ? 'period.closed' : 'period.reopened',
        entityType: 'ReviewPeriod',
        entityId: id,
        periodId: id,
        before: { status: before.status, closedAt: before.closedAt },
        after: { status: p.status, closedAt: p.closedAt },
      });
      return p;
    });
  } catch (err) {
    if (isActiveConflict(err)) throw new ConflictError(ALREADY_ACTIVE);
    throw err;
  }
}
