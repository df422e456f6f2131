// Review periods: at most one active at a time (the database enforces it too).
// While none is active, every decision, submission and recall is refused.
import { z } from 'zod';
import { Prisma, type ReviewPeriod } from '../../generated/prisma/client.js';
import { ConflictError, NotFoundError, ValidationError } from '../../core/errors.js';
import { recordAudit } from '../../core/audit.js';
import { dateInput, isSingleLine, parseOrThrow, singleLineMessage } from '../../core/validation.js';
import type { Actor, DbClient } from '../../core/types.js';
import { isUuid } from '../../core/types.js';
import type { PubSub } from '../../pubsub.js';
import type { Caller, SystemCaller } from '../caller.js';

/** Tells open pages (subscriptions) that the active period changed; after the commit. */
function published(pubsub: PubSub, p: ReviewPeriod): ReviewPeriod {
  pubsub.publish('period:changed', { periodId: p.id, status: p.status });
  return p;
}
import { evidenceUploads, freezeEvidence } from '../reports/evidence.js';
import { queueBundle } from '../evidence/evidence-bundle.js';
import { HOLDS_WORK, assignedRowsCondition, criteriaSetsOf } from '../holds.js';
import { LIVE_ROWS } from '../live-rows.js';
import { carryMitigations } from './mitigations.js';
import { coverageAtClose } from './coverage.js';
import { writeDecisions } from './decision-writer.js';
import { closePeriodGate, enterPeriod, lockDecisionWrites } from './decision-locks.js';
import { retryingTransaction } from '../../db/retry.js';
import { getActivePeriod, getDecisionPeriod } from './current-period.js';
import { stagesSchema } from '../stages/stage-plan.js';
import { checkedStages } from '../stages/stages.js';

export const NO_ACTIVE_PERIOD = 'No review period is active. Decisions, submissions and recalls are locked until an administrator opens one.';

export { getActivePeriod, getDecisionPeriod };

/** The active period, or a clear refusal. */
export async function requireActivePeriod(db: DbClient): Promise<ReviewPeriod> {
  const p = await getActivePeriod(db);
  if (!p) throw new ConflictError(NO_ACTIVE_PERIOD);
  return p;
}

export const PERIOD_CLOSING = 'The review period is being closed: changes to its decisions and submissions are no longer taken, and this one was not made.';

/**
 * Enters a period to change its decisions or submissions (in the change's
 * transaction, first): refused while it is being closed (or reopened), so a
 * change either commits before a close and is in the evidence it freezes,
 * or is refused (409); never written after it (services/review/decision-locks.ts).
 */
export async function enterForChange(tx: DbClient, periodId: string): Promise<void> {
  if (!(await enterPeriod(tx, periodId))) throw new ConflictError(PERIOD_CLOSING);
}

/** The active period, entered for a change (enterForChange), or a clear refusal. */
export async function requireActivePeriodForChange(tx: DbClient): Promise<ReviewPeriod> {
  const p = await requireActivePeriod(tx);
  await enterForChange(tx, p.id);
  // Read again inside the gate: a close may have committed since the first read.
  const now = await tx.reviewPeriod.findUnique({ where: { id: p.id } });
  if (now?.status !== 'active') throw new ConflictError(NO_ACTIVE_PERIOD);
  return now;
}

export function listPeriods(caller: Caller): Promise<ReviewPeriod[]> {
  return caller.deps.prisma.reviewPeriod.findMany({ orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
}

/** What closing a period does to items still without a decision. */
export const DEFAULTS_AT_CLOSE = ['pending', 'retain', 'remove'] as const;
const REMINDER_DAYS = 'Reminder days must be whole numbers of days from 1 to 365';

/** How a period reminds and closes, as a period and a recurring template both take them. */
export const periodReminderFields = {
  reminderDaysBefore: z
    .array(z.number({ error: REMINDER_DAYS }).int(REMINDER_DAYS).min(1, REMINDER_DAYS).max(365, REMINDER_DAYS), {
      error: 'Reminder days must be a list of days',
    })
    .max(10, 'At most 10 reminder points')
    .nullish(),
  defaultDecisionAtClose: z.enum(DEFAULTS_AT_CLOSE, { error: 'Default at close must be pending, retain or remove' }).nullish(),
};

/** Also the REST edge's body schema (rest/review/periods.ts). */
export const createPeriodSchema = z.object({
  name: z
    .string({ error: 'Period name is required' })
    .trim()
    .min(1, 'Period name is required')
    .max(200, 'Period name is too long')
    .refine(isSingleLine, singleLineMessage('Period name')),
  description: z.string().trim().max(2000, 'Description is too long').nullish(),
  startDate: dateInput('Start date is not a valid date').nullish(),
  endDate: dateInput('End date is not a valid date').nullish(),
  ...periodReminderFields,
  stages: stagesSchema.nullish(),
});
export type CreatePeriodInput = z.input<typeof createPeriodSchema>;

function isActiveConflict(err: unknown): boolean {
  return err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002';
}

const ALREADY_ACTIVE = 'Another review period is already active. Close it first.';

/**
 * A period's create body, parsed and checked as creating it and its preview
 * both take it (the same refusals for both): its dates in order, reminders
 * only with an end date.
 */
export function checkedPeriodInput(input: CreatePeriodInput) {
  const data = parseOrThrow(createPeriodSchema, input);
  const startDate = data.startDate ?? new Date();
  if (data.endDate && data.endDate <= startDate) throw new ConflictError('The end date must be after the start date');
  const reminderDaysBefore = [...new Set(data.reminderDaysBefore ?? [])].sort((a, b) => b - a);
  // The points count back from the period's end date and from each stage's own.
  if (reminderDaysBefore.length && !data.endDate && !data.stages?.some((s) => s.endDate)) {
    throw new ValidationError('Reminders need an end date', 'reminderDaysBefore');
  }
  return { ...data, startDate, reminderDaysBefore };
}

/** Creates a period and activates it at once (SPEC §4); also the recurrence job's way, as the system. */
export async function createPeriod(caller: Caller | SystemCaller, input: CreatePeriodInput): Promise<ReviewPeriod> {
  const {
    deps: { prisma, pubsub },
    actor,
  } = caller;
  const data = checkedPeriodInput(input);
  const { startDate, reminderDaysBefore } = data;
  // Bad stages are refused before anything is written; none (or the default one) is stored as null: the period as it always was.
  const stages = await checkedStages(prisma, data.stages, data.endDate ?? null);
  try {
    const created = await retryingTransaction(prisma, async (tx) => {
      if (await getActivePeriod(tx)) throw new ConflictError(ALREADY_ACTIVE);
      const p = await tx.reviewPeriod.create({
        data: {
          name: data.name,
          description: data.description || null,
          startDate,
          endDate: data.endDate ?? null,
          reminderDaysBefore,
          defaultDecisionAtClose: data.defaultDecisionAtClose ?? 'pending',
          stages: stages ?? Prisma.DbNull,
          status: 'active',
          createdById: actor.user?.id ?? null,
        },
      });
      await recordAudit(tx, actor, { action: 'period.created', entityType: 'ReviewPeriod', entityId: p.id, periodId: p.id, after: p });
      await carryMitigations(tx, actor, p);
      return p;
    });
    return published(pubsub, created);
  } catch (err) {
    if (isActiveConflict(err)) throw new ConflictError(ALREADY_ACTIVE);
    throw err;
  }
}

/**
 * What Close and Reopen write. Closing ends the period now: its end date
 * becomes the closing time unless it was planned to end earlier (a period
 * shown as 'Ongoing' was never closed). Reopening takes back an end date
 * that the close set, so the period is 'Ongoing' again; a planned one stays.
 */
function statusChange(before: ReviewPeriod, status: 'active' | 'closed', now: Date): Prisma.ReviewPeriodUpdateInput {
  if (status === 'closed') {
    const endDate = before.endDate && before.endDate <= now ? before.endDate : now;
    return { status, closedAt: now, endDate };
  }
  const setByClose = before.endDate && before.closedAt && before.endDate.getTime() === before.closedAt.getTime();
  return { status, closedAt: null, ...(setByClose ? { endDate: null } : {}) };
}

/** The longest reason a close may give for rows nobody could review. */
export const MAX_CLOSE_REASON = 2000;

/**
 * A close writes the default at close and freezes the evidence of every decision: minutes for
 * millions of decisions, and it must not be cut short (changes arriving meanwhile are refused at
 * once, not held: see enterForChange).
 */
const CLOSE_TRANSACTION = { timeout: 30 * 60_000, maxWait: 30_000 };

/**
 * Opens (reopens) or closes a period. Closing freezes the period's auditor
 * evidence as its next version in the same transaction (services/reports/evidence.ts; the uploads' file
 * checksums, streamed from the store, are read just before) and sends
 * the job that writes its signed bundle after the commit (services/evidence/evidence-bundle.ts:
 * a ZIP of a 1M-row period takes seconds, the close stays short); reopening keeps every version.
 * It holds the period's gate from its start: the changes under way commit
 * first (and are in the evidence), those arriving meanwhile are refused, and
 * after the commit the period is no longer active for any change.
 *
 * Coverage: closing while rows remain that nobody could review (no
 * reviewer holds them, and no fallback reviewer may take them) needs a
 * reason (`opts.reason`); the count and the reason go into the close's
 * audit event, and from there into the evidence.
 */
export async function setPeriodStatus(caller: Caller, id: string, status: 'active' | 'closed', opts: { reason?: string | null } = {}): Promise<ReviewPeriod> {
  const {
    deps: { prisma, pubsub, jobs, storage },
    actor,
  } = caller;
  if (!isUuid(id)) throw new NotFoundError('Review period not found');
  const reason = opts.reason?.trim() || null;
  if (reason && reason.length > MAX_CLOSE_REASON) throw new ValidationError(`The reason is too long (${MAX_CLOSE_REASON} characters at most)`, 'reason');
  const current = status === 'closed' ? await prisma.reviewPeriod.findUnique({ where: { id } }) : null;
  const uploads = current && current.status !== 'closed' ? await evidenceUploads(prisma, current, new Date(), storage) : [];
  try {
    const changed = await retryingTransaction(
      prisma,
      async (tx) => {
        // After the changes under way, with new ones refused until the commit (services/review/decision-locks.ts).
        await closePeriodGate(tx, id);
        const before = await tx.reviewPeriod.findUnique({ where: { id } });
        if (!before) throw new NotFoundError('Review period not found');
        if (before.status === status) {
          throw new ConflictError(status === 'active' ? 'This review period is already open' : 'This review period is already closed');
        }
        if (status === 'active') {
          const other = await getActivePeriod(tx);
          if (other) throw new ConflictError(ALREADY_ACTIVE);
        }
        const coverage = status === 'closed' ? await coverageAtClose(tx, reason) : {};
        const p = await tx.reviewPeriod.update({ where: { id }, data: statusChange(before, status, new Date()) });
        // The decision writers' lock before the audit chain's head, which is last in the lock order
        // (services/review/decision-locks.ts): a change of what reviewers see holds writers off and then audits.
        await lockDecisionWrites(tx, id);
        await recordAudit(tx, actor, {
          action: status === 'closed' ? 'period.closed' : 'period.reopened',
          entityType: 'ReviewPeriod',
          entityId: id,
          periodId: id,
          before: { status: before.status, closedAt: before.closedAt, endDate: before.endDate },
          after: { status: p.status, closedAt: p.closedAt, endDate: p.endDate, ...coverage },
        });
        // The default at close is decided before the evidence freezes, so the evidence holds it.
        if (status === 'closed') {
          await applyDefaultAtClose(tx, actor, p);
          await queueBundle(tx, jobs, id, await freezeEvidence(tx, p, uploads));
        } else {
          await withdrawDefaultAtClose(tx, actor, p);
        }
        return p;
      },
      CLOSE_TRANSACTION,
    );
    return published(pubsub, changed);
  } catch (err) {
    if (isActiveConflict(err)) throw new ConflictError(ALREADY_ACTIVE);
    throw err;
  }
}

export const DEFAULT_AT_CLOSE_COMMENT = "No decision was made before the period closed: the period's default at close applied.";

/**
 * The period's default at close (retain or remove; 'pending' leaves items
 * alone): every reviewer's assigned item still without their decision gets
 * one, marked as applied at close (not the reviewer's own), in the close's
 * transaction, with one audit event counting them per reviewer (origin
 * 'default-at-close'). Rows no
 * reviewer is assigned stay without a decision.
 */
async function applyDefaultAtClose(tx: DbClient, actor: Actor, period: ReviewPeriod): Promise<void> {
  const value = period.defaultDecisionAtClose;
  if (value === 'pending') return;
  await lockDecisionWrites(tx, period.id);
  const reviewers = await tx.user.findMany({ where: { role: 'reviewer', ...HOLDS_WORK }, select: { id: true, email: true } });
  const sets = await criteriaSetsOf(
    tx,
    reviewers.map((r) => r.id),
  );
  await writeDecisions(tx, actor, {
    origin: 'default-at-close',
    period: period.id,
    // One statement per reviewer: their assigned rows still without their decision.
    rows: reviewers.map(
      (r) => Prisma.sql`
        SELECT ${period.id}::uuid AS period_id, ${r.id}::uuid AS reviewer_id, r.id AS risk_row_id, ${value}::"DecisionValue" AS decision,
               FALSE AS via, ${DEFAULT_AT_CLOSE_COMMENT}::text AS comments, NULL::text AS mc, NULL::date AS mexp
          FROM risk_rows r
         WHERE ${LIVE_ROWS} AND ${assignedRowsCondition(sets.get(r.id)!)}
           AND NOT EXISTS (SELECT 1 FROM decisions d WHERE d.period_id = ${period.id}::uuid AND d.reviewer_id = ${r.id}::uuid AND d.risk_row_id = r.id)`,
    ),
    summary: (counts) => {
      const byReviewer = reviewers.flatMap((r, i) => (counts[i] ? [{ reviewerId: r.id, reviewer: r.email, count: counts[i] }] : []));
      return {
        action: 'period.default_applied',
        entityType: 'ReviewPeriod',
        entityId: period.id,
        periodId: period.id,
        after: { defaultDecisionAtClose: value, decisions: byReviewer.reduce((n, r) => n + r.count, 0), byReviewer },
      };
    },
  });
}

/** Reopening takes back the decisions the default at close wrote: the items are pending again. */
async function withdrawDefaultAtClose(tx: DbClient, actor: Actor, period: ReviewPeriod): Promise<void> {
  await lockDecisionWrites(tx, period.id);
  const { count } = await tx.decision.deleteMany({ where: { periodId: period.id, appliedAtClose: true } });
  if (!count) return;
  await recordAudit(tx, actor, {
    action: 'period.default_withdrawn',
    entityType: 'ReviewPeriod',
    entityId: period.id,
    periodId: period.id,
    before: { decisions: count, defaultDecisionAtClose: period.defaultDecisionAtClose },
  });
}
