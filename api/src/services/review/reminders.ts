// Deadlines of a review period. A period with an end date
// reminds each reviewer who still has pending items at each of its points
// before the end (reminderDaysBefore, e.g. 7 and 1 days): an in-app
// notification and an e-mail, never to a reviewer who is done. A stage with
// its own end date does the same for that stage, at the same points before
// its end: its reviewers with rows that reached them there still undecided
// (stage 1: their pending items, as for the period's end). After the end,
// while the period is still open, every administrator gets one escalation
// listing who is late with their pending counts. Each message is recorded
// (period_reminders) in the transaction that writes its notification, so none
// is sent twice, by a later tick or by another instance ticking at the same
// moment. The job (jobs/reminders.ts) calls tickReminders on a schedule kept
// by pg-boss in the database; the time is a parameter, so tests choose it.
import { Prisma, type Notification, type ReviewPeriod, type User } from '../../generated/prisma/client.js';
import { recordAudit } from '../../core/audit.js';
import { displayName } from '../../core/people.js';
import type { DbClient } from '../../core/types.js';
import type { Caller } from '../caller.js';
import { DAY_MS, isUuid } from '../../core/types.js';
import { NotFoundError } from '../../core/errors.js';
import type { MessagingDeps } from '../deps.js';
import { HOLDS_WORK, activeFallbackIds, assignedRowsCondition, criteriaSetsOf } from '../holds.js';
import { LIVE_ROWS } from '../live-rows.js';
import { getActivePeriod } from './periods.js';
import { stagePendingWork, stagesOf, type PeriodStage } from '../stages/stages.js';
import { createSystemNotification, publishNotification } from '../identity/notifications.js';
import { signInLink } from '../identity/users.js';

export const REMINDER_TITLE = 'Review deadline approaching';
export const ESCALATION_TITLE = 'Review period overdue';

/** A reviewer and how many of their assigned items have no decision of theirs in the period. */
export interface PendingWork {
  reviewer: User;
  pending: number;
}

/**
 * Every reviewer with assignments or the fallback reviewers' coverage (or
 * those named) and their pending items in the period (live rows they hold
 * without their decision); one count per reviewer.
 */
export async function pendingWork(db: DbClient, periodId: string, reviewerIds?: string[]): Promise<PendingWork[]> {
  const fallback = await activeFallbackIds(db);
  const reviewers = await db.user.findMany({
    where: { role: 'reviewer', OR: [...HOLDS_WORK.OR, { id: { in: fallback } }], ...(reviewerIds ? { id: { in: reviewerIds } } : {}) },
    orderBy: [{ firstName: 'asc' }, { lastName: 'asc' }, { email: 'asc' }],
  });
  const sets = await criteriaSetsOf(
    db,
    reviewers.map((r) => r.id),
  );
  const out: PendingWork[] = [];
  for (const reviewer of reviewers) {
    const [row] = await db.$queryRaw<{ n: bigint }[]>`
      SELECT count(*) AS n FROM risk_rows r
       WHERE ${LIVE_ROWS} AND ${assignedRowsCondition(sets.get(reviewer.id)!)}
         AND NOT EXISTS (SELECT 1 FROM decisions d WHERE d.period_id = ${periodId}::uuid AND d.reviewer_id = ${reviewer.id}::uuid AND d.risk_row_id = r.id)`;
    out.push({ reviewer, pending: Number(row?.n ?? 0) });
  }
  return out;
}

const day = (d: Date) => d.toISOString().slice(0, 10);
const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
const nameOf = (u: User) => displayName(u) || u.email;

/** The reminder points of the period that have come by `now` (the end not yet reached). */
export function duePoints(period: Pick<ReviewPeriod, 'endDate' | 'reminderDaysBefore'>, now: Date): number[] {
  const end = period.endDate;
  if (!end || now >= end) return [];
  return period.reminderDaysBefore.filter((d) => now.getTime() >= end.getTime() - d * DAY_MS);
}

export interface TickResult {
  /** Reviewers reminded by this tick. */
  reminded: number;
  /** Administrators who received the escalation in this tick. */
  escalated: number;
}

/**
 * One pass of the deadline job at the time `now`: reminders due before the end
 * of the active period, or the escalation after it. Sends only what was not
 * sent before. A reviewer who slept through several points (the job did not
 * run) gets one reminder for all of them.
 */
export async function tickReminders(deps: MessagingDeps, now: Date): Promise<TickResult> {
  const result: TickResult = { reminded: 0, escalated: 0 };
  const period = await getActivePeriod(deps.prisma);
  if (!period) return result;
  for (const stage of stagesOf(period)) {
    if (!stage.endDate) continue;
    const work = () => (stage.number === 1 ? pendingWork(deps.prisma, period.id) : stagePendingWork(deps.prisma, period.id, stage));
    result.reminded += await remindAll(deps, period, { end: stage.endDate, stage }, work, now);
  }
  if (!period.endDate) return result;
  if (now < period.endDate) {
    result.reminded += await remindAll(deps, period, { end: period.endDate, stage: null }, () => pendingWork(deps.prisma, period.id), now);
    return result;
  }
  const late = (await pendingWork(deps.prisma, period.id)).filter((w) => w.pending > 0);
  if (!late.length) return result;
  const admins = await deps.prisma.user.findMany({ where: { role: 'admin', isActive: true }, orderBy: { email: 'asc' } });
  for (const admin of admins) if (await escalate(deps, period, admin, late)) result.escalated++;
  return result;
}

/**
 * Records the message and writes its notification in one transaction; false
 * when it was recorded before (this point, this person), so nothing is sent.
 */
async function recordOnce(
  deps: MessagingDeps,
  rows: Prisma.PeriodReminderCreateManyInput[],
  write: (tx: Prisma.TransactionClient) => Promise<Notification>,
): Promise<Notification | null> {
  const n = await deps.prisma.$transaction(async (tx) => {
    const { count } = await tx.periodReminder.createMany({ data: rows, skipDuplicates: true });
    return count ? write(tx) : null;
  });
  if (n) publishNotification(deps.pubsub, n);
  return n;
}

/** A deadline that reminds: the period's end (stage null) or a stage's. */
interface Deadline {
  end: Date;
  stage: PeriodStage | null;
}

/** Reminds each active reviewer with pending work of the deadline's due points (none before the first); how many were reminded. */
async function remindAll(deps: MessagingDeps, period: ReviewPeriod, deadline: Deadline, work: () => Promise<PendingWork[]>, now: Date): Promise<number> {
  const due = duePoints({ endDate: deadline.end, reminderDaysBefore: period.reminderDaysBefore }, now);
  if (!due.length) return 0;
  let reminded = 0;
  for (const { reviewer, pending } of await work()) {
    if (!pending || !reviewer.isActive) continue;
    if (await remind(deps, period, deadline, { reviewer, pending }, due, now)) reminded++;
  }
  return reminded;
}

async function remind(
  deps: MessagingDeps,
  period: ReviewPeriod,
  deadline: Deadline,
  { reviewer, pending }: PendingWork,
  due: number[],
  now: Date,
): Promise<boolean> {
  const { end, stage } = deadline;
  const daysLeft = Math.max(1, Math.ceil((end.getTime() - now.getTime()) / DAY_MS));
  const what = stage ? `stage ${stage.number} ('${stage.name}') of the review period '${period.name}'` : `the review period '${period.name}'`;
  const message = `You have ${plural(pending, 'pending item')} in ${what}, ` + `which ends on ${day(end)} (in ${plural(daysLeft, 'day')}).`;
  const n = await recordOnce(
    deps,
    due.map((daysBefore) => ({ periodId: period.id, kind: 'reminder', stage: stage?.number ?? 0, daysBefore, userId: reviewer.id, pendingCount: pending })),
    async (tx) => {
      await recordAudit(tx, null, {
        action: 'period.reminder_sent',
        entityType: 'ReviewPeriod',
        entityId: period.id,
        periodId: period.id,
        after: {
          reviewerId: reviewer.id,
          reviewer: reviewer.email,
          pending,
          daysBefore: due,
          ...(stage ? { stage: stage.number, stageName: stage.name } : {}),
        },
      });
      return createSystemNotification(tx, { type: 'warning', title: REMINDER_TITLE, message, targetUserId: reviewer.id });
    },
  );
  if (!n) return false;
  await deps.mailer.send({
    to: reviewer.email,
    subject: stage
      ? `Reminder: stage ${stage.number} ('${stage.name}') of '${period.name}' ends on ${day(end)}`
      : `Reminder: '${period.name}' ends on ${day(end)}`,
    text: `Hello ${reviewer.firstName},\n\n${message}\n\nPlease review them at ${signInLink(deps.config)}\n`,
  });
  return true;
}

async function escalate(deps: MessagingDeps, period: ReviewPeriod, admin: User, late: PendingWork[]): Promise<boolean> {
  const total = late.reduce((s, w) => s + w.pending, 0);
  const lines = late.map(
    (w) => `- ${nameOf(w.reviewer)} <${w.reviewer.email}>${w.reviewer.isActive ? '' : ' (deactivated)'}: ${plural(w.pending, 'pending item')}`,
  );
  const message =
    `The review period '${period.name}' ended on ${day(period.endDate!)}; ` +
    `${plural(late.length, 'reviewer is', 'reviewers are')} late with ${plural(total, 'pending item')}:\n${lines.join('\n')}`;
  const n = await recordOnce(deps, [{ periodId: period.id, kind: 'escalation', daysBefore: 0, userId: admin.id, pendingCount: total }], async (tx) => {
    await recordAudit(tx, null, {
      action: 'period.escalation_sent',
      entityType: 'ReviewPeriod',
      entityId: period.id,
      periodId: period.id,
      after: {
        administratorId: admin.id,
        administrator: admin.email,
        late: late.map((w) => ({ reviewerId: w.reviewer.id, reviewer: w.reviewer.email, pending: w.pending })),
      },
    });
    return createSystemNotification(tx, { type: 'urgent', title: ESCALATION_TITLE, message, targetUserId: admin.id });
  });
  if (!n) return false;
  await deps.mailer.send({ to: admin.email, subject: `Overdue: '${period.name}' ended with pending items`, text: `Hello ${admin.firstName},\n\n${message}\n` });
  return true;
}

/** The deadline messages sent for a period, oldest first (administrators). */
export async function listReminders(caller: Caller, periodId: string) {
  const { prisma } = caller.deps;
  if (!isUuid(periodId) || !(await prisma.reviewPeriod.findUnique({ where: { id: periodId }, select: { id: true } }))) {
    throw new NotFoundError('Review period not found');
  }
  return prisma.periodReminder.findMany({
    where: { periodId },
    include: { user: true },
    orderBy: [{ sentAt: 'asc' }, { kind: 'asc' }, { stage: 'asc' }, { daysBefore: 'desc' }],
  });
}
