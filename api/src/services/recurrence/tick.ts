// The recurrence job's pass (jobs/recurrence.ts calls it on a schedule kept by
// pg-boss; the time is a parameter, so tests choose it). For each template
// whose next date has come: while a period is active (one at a time, as the
// SPEC says) it waits, says so on the template ('waiting for <period> to
// close') and tells the administrators once; otherwise it creates and
// activates the period through the same service as the Create & Activate
// dialog, as the system (with the template's stages, their deadlines counted
// from the day it opens), then advances the template to the schedule's next
// occurrence after now and tells the administrators.
//
// A period is for one occurrence: it starts on that date and is named from it
// (a template that waited through several occurrences makes one period, for
// the latest, and records the ones it skipped). Its end is the duration after
// the day it opens (UTC midnight): its start's day when on time, a later day
// when it waited, so reviewers always get the whole duration. If a pass stops between creating the period and advancing
// the template, the next pass finds the period of that occurrence (same start
// and name) and only finishes the bookkeeping: never two periods for one date.
// Two passes at once (two instances) both advance with a compare-and-set on
// the template's next date; the database allows one active period, so the
// second create is refused and that pass waits.
import type { ReviewPeriod, ReviewPeriodTemplate } from '../../generated/prisma/client.js';
import { recordAudit } from '../../core/audit.js';
import { ConflictError, ValidationError } from '../../core/errors.js';
import { DAY_MS } from '../../core/types.js';
import type { DbClient } from '../../core/types.js';
import { systemCaller } from '../caller.js';
import type { AppDeps } from '../deps.js';
import { createSystemNotification, publishNotification } from '../identity/notifications.js';
import { createPeriod, getActivePeriod } from '../review/periods.js';
import { datedStages } from '../stages/stage-plan.js';
import { templateStages } from './templates.js';
import { latestDue, nextOccurrence, periodName, type Schedule } from './schedule.js';

export const CREATED_TITLE = 'Review period created';
export const WAITING_TITLE = 'Recurring review period waiting';
export const REFUSED_TITLE = 'Recurring review period not created';

export interface RecurrenceResult {
  /** Periods created and activated by this pass. */
  created: ReviewPeriod[];
  /** Templates due but waiting: for the active period to close, or for their configuration to be put right. */
  waiting: number;
}

const day = (d: Date) => d.toISOString().slice(0, 10);

export async function tickRecurrence(deps: AppDeps, now: Date): Promise<RecurrenceResult> {
  const result: RecurrenceResult = { created: [], waiting: 0 };
  const due = await deps.prisma.reviewPeriodTemplate.findMany({ where: { nextRunAt: { lte: now } }, orderBy: [{ nextRunAt: 'asc' }, { createdAt: 'asc' }] });
  for (const t of due) {
    const period = await runTemplate(deps, t, now);
    if (period) result.created.push(period);
    else result.waiting++;
  }
  return result;
}

/** The period made for the template's due occurrence, or null when it waits. */
async function runTemplate(deps: AppDeps, t: ReviewPeriodTemplate, now: Date): Promise<ReviewPeriod | null> {
  const schedule = t.schedule as Schedule;
  const occurrence = latestDue(schedule, t.cron, t.nextRunAt, now);
  const name = periodName(t.namePattern, occurrence);
  // Made by a pass that stopped before its bookkeeping: the same occurrence, the same name.
  let period = await deps.prisma.reviewPeriod.findFirst({ where: { startDate: occurrence, name } });
  const active = period ? null : await getActivePeriod(deps.prisma);
  if (active) return wait(deps, t, active);
  if (!period) {
    // The duration counts from the day the period opens (UTC), the occurrence's day when on time.
    const opens = Math.max(occurrence.getTime(), now.getTime());
    const opensDay = new Date(opens - (opens % DAY_MS));
    const endDate = new Date(opensDay.getTime() + t.durationDays * DAY_MS);
    const stages = templateStages(t);
    try {
      period = await createPeriod(systemCaller(deps), {
        name,
        description: t.description,
        startDate: occurrence,
        endDate,
        reminderDaysBefore: t.reminderDaysBefore,
        defaultDecisionAtClose: t.defaultDecisionAtClose,
        // Its stages' deadlines count from the same day as its end.
        stages: stages && datedStages(stages, opensDay),
      });
    } catch (err) {
      if (err instanceof ValidationError) return refused(deps, t, err.message);
      // Another period was activated since the read above (by hand or by another template).
      if (!(err instanceof ConflictError)) throw err;
      const other = await getActivePeriod(deps.prisma);
      if (other) return wait(deps, t, other);
      throw err;
    }
  }
  await advance(deps, t, period, occurrence, now);
  return period;
}

/**
 * The template's period cannot be made as it is configured (a stage's
 * reviewer deactivated since it was saved, say): it stays due, and the
 * administrators are told why once until the template changes, instead of
 * the job failing every pass and holding up the templates after it.
 */
async function refused(deps: AppDeps, t: ReviewPeriodTemplate, reason: string): Promise<null> {
  const told = await deps.prisma.auditEvent.count({ where: { action: 'period_template.refused', entityId: t.id, occurredAt: { gte: t.updatedAt } } });
  if (told) return null;
  const message =
    `The review period due on ${day(t.nextRunAt)} from the recurring template '${t.namePattern}' could not be created: ${reason}. ` +
    'It is created at the first pass after the template (or what it names) is put right.';
  const sent = await deps.prisma.$transaction(async (tx) => {
    await recordAudit(tx, null, {
      action: 'period_template.refused',
      entityType: 'ReviewPeriodTemplate',
      entityId: t.id,
      after: { dueAt: t.nextRunAt, reason },
    });
    return tellAdministrators(tx, REFUSED_TITLE, message);
  });
  for (const n of sent) publishNotification(deps.pubsub, n);
  return null;
}

/** Marks the template as waiting for `active` (once per period waited for) and tells the administrators. */
async function wait(deps: AppDeps, t: ReviewPeriodTemplate, active: ReviewPeriod): Promise<null> {
  if (t.waitingForPeriodId === active.id) return null;
  const message =
    `A review period from the recurring template '${t.namePattern}' was due on ${day(t.nextRunAt)}, ` +
    `but '${active.name}' is still active: it will be created once that period is closed.`;
  const sent = await deps.prisma.$transaction(async (tx) => {
    const { count } = await tx.reviewPeriodTemplate.updateMany({
      where: { id: t.id, nextRunAt: t.nextRunAt, OR: [{ waitingForPeriodId: null }, { waitingForPeriodId: { not: active.id } }] },
      data: { waitingForPeriodId: active.id },
    });
    if (!count) return [];
    await recordAudit(tx, null, {
      action: 'period_template.waiting',
      entityType: 'ReviewPeriodTemplate',
      entityId: t.id,
      periodId: active.id,
      after: { dueAt: t.nextRunAt, waitingFor: { id: active.id, name: active.name } },
    });
    return tellAdministrators(tx, WAITING_TITLE, message);
  });
  for (const n of sent) publishNotification(deps.pubsub, n);
  return null;
}

/** The bookkeeping after the period exists: the template's next date, the audit and the administrators' notifications. */
async function advance(deps: AppDeps, t: ReviewPeriodTemplate, period: ReviewPeriod, occurrence: Date, now: Date): Promise<void> {
  const schedule = t.schedule as Schedule;
  const nextRunAt = nextOccurrence(schedule, t.cron, now > occurrence ? now : occurrence);
  const skipped: Date[] = [];
  for (let d = t.nextRunAt; d < occurrence; d = nextOccurrence(schedule, t.cron, d)) skipped.push(d);
  const message =
    `The review period '${period.name}' was created and activated from the recurring template '${t.namePattern}'` +
    `${period.endDate ? `; it ends on ${day(period.endDate)}` : ''}. The next one is due on ${day(nextRunAt)}.`;
  const sent = await deps.prisma.$transaction(async (tx) => {
    const { count } = await tx.reviewPeriodTemplate.updateMany({
      where: { id: t.id, nextRunAt: t.nextRunAt },
      data: { nextRunAt, waitingForPeriodId: null, lastPeriodId: period.id },
    });
    if (!count) return [];
    await recordAudit(tx, null, {
      action: 'period_template.period_created',
      entityType: 'ReviewPeriodTemplate',
      entityId: t.id,
      periodId: period.id,
      after: { period: { id: period.id, name: period.name, startDate: period.startDate, endDate: period.endDate }, nextRunAt, skipped },
    });
    return tellAdministrators(tx, CREATED_TITLE, message);
  });
  for (const n of sent) publishNotification(deps.pubsub, n);
}

async function tellAdministrators(tx: DbClient, title: string, message: string) {
  const admins = await tx.user.findMany({ where: { role: 'admin', isActive: true }, select: { id: true }, orderBy: { email: 'asc' } });
  const sent = [];
  for (const a of admins) sent.push(await createSystemNotification(tx, { type: 'info', title, message, targetUserId: a.id }));
  return sent;
}
