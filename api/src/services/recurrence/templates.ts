// Recurring review periods (administrators): create, change, delete and list
// templates. Each change is checked whole before anything is written (a bad
// pattern, schedule, duration or reminder is refused naming it) and audited
// with what it was before and after. The schedule's next occurrence is worked
// out from the time of the change; the recurrence job (tick.ts) does the rest.
import { z } from 'zod';
import { Prisma, type ReviewPeriod, type ReviewPeriodTemplate } from '../../generated/prisma/client.js';
import { recordAudit } from '../../core/audit.js';
import { NotFoundError, ValidationError } from '../../core/errors.js';
import { isSingleLine, parseOrThrow, singleLineMessage } from '../../core/validation.js';
import { DAY_MS, isUuid, type DbClient } from '../../core/types.js';
import type { Caller } from '../caller.js';
import { DEFAULTS_AT_CLOSE, periodReminderFields } from '../review/periods.js';
import { datedStages, templateStagesSchema, type TemplateStagePlan } from '../stages/stage-plan.js';
import { checkedStages } from '../stages/stages.js';
import { SCHEDULES, checkCron, checkNamePattern, nextOccurrence, type Schedule } from './schedule.js';

/** How many recurring templates an installation keeps (one is a review programme; a few cover separate scopes). */
export const MAX_TEMPLATES = 50;
const DURATION = 'Duration must be a whole number of days from 1 to 366';

const fields = {
  namePattern: z.string({ error: 'Name pattern is required' }).refine(isSingleLine, singleLineMessage('Name pattern')),
  description: z.string().trim().max(2000, 'Description is too long').nullish(),
  durationDays: z.number({ error: DURATION }).int(DURATION).min(1, DURATION).max(366, DURATION),
  ...periodReminderFields,
  schedule: z.enum(SCHEDULES, { error: 'Schedule must be monthly, quarterly, yearly or cron' }),
  cron: z.string().max(200, 'The cron expression is too long').nullish(),
  stages: templateStagesSchema.nullish(),
};

/** A new template; also the REST edge's body schema. */
export const createTemplateSchema = z.object(fields);
/** A change: only the fields given change. */
export const updateTemplateSchema = z.object(fields).partial();
export type CreateTemplateInput = z.input<typeof createTemplateSchema>;
export type UpdateTemplateInput = z.input<typeof updateTemplateSchema>;

type Settings = {
  namePattern: string;
  description: string | null;
  durationDays: number;
  reminderDaysBefore: number[];
  defaultDecisionAtClose: (typeof DEFAULTS_AT_CLOSE)[number];
  schedule: Schedule;
  cron: string | null;
  stages: TemplateStagePlan[] | null;
};

/**
 * The rules across fields, on the settings as they would be after the
 * change. The stages are checked as creating a period checks them (each
 * refusal naming the stage), and each ends within the duration.
 */
async function checked(db: DbClient, s: Settings): Promise<Omit<Settings, 'stages'> & { stages: Prisma.InputJsonValue | typeof Prisma.DbNull }> {
  checkNamePattern(s.namePattern);
  if (s.schedule === 'cron') {
    if (!s.cron?.trim()) throw new ValidationError('A cron schedule needs a cron expression', 'cron');
    checkCron(s.cron);
  } else if (s.cron) {
    throw new ValidationError(`A ${s.schedule} schedule takes no cron expression`, 'cron');
  }
  const tooLate = s.reminderDaysBefore.find((d) => d >= s.durationDays);
  if (tooLate !== undefined) {
    throw new ValidationError(`Reminder days must be fewer than the duration (${s.durationDays} days): ${tooLate} is not`, 'reminderDaysBefore');
  }
  const periodEnd = new Date(s.durationDays * DAY_MS);
  const stored = await checkedStages(db, s.stages && datedStages(s.stages, new Date(0)), periodEnd);
  return {
    ...s,
    cron: s.schedule === 'cron' ? s.cron!.trim() : null,
    reminderDaysBefore: [...new Set(s.reminderDaysBefore)].sort((a, b) => b - a),
    // The stages as given (their deadlines in days), unless they are the one default stage: null, as a period stores it.
    stages: stored === null || !s.stages ? Prisma.DbNull : (s.stages as Prisma.InputJsonValue),
  };
}

export type TemplateWithPeriods = ReviewPeriodTemplate & { waitingFor: ReviewPeriod | null; lastPeriod: ReviewPeriod | null };
const withPeriods = { waitingFor: true, lastPeriod: true } as const;

/** Every template, the next due first. */
export function listTemplates(caller: Caller): Promise<TemplateWithPeriods[]> {
  return caller.deps.prisma.reviewPeriodTemplate.findMany({ include: withPeriods, orderBy: [{ nextRunAt: 'asc' }, { createdAt: 'asc' }, { id: 'asc' }] });
}

export async function getTemplate(caller: Caller, id: string): Promise<TemplateWithPeriods> {
  const t = isUuid(id) ? await caller.deps.prisma.reviewPeriodTemplate.findUnique({ where: { id }, include: withPeriods }) : null;
  if (!t) throw new NotFoundError('Review period template not found');
  return t;
}

export async function createTemplate(caller: Caller, input: CreateTemplateInput): Promise<TemplateWithPeriods> {
  const { prisma } = caller.deps;
  const d = parseOrThrow(createTemplateSchema, input);
  const s = await checked(prisma, {
    namePattern: d.namePattern.trim(),
    description: d.description || null,
    durationDays: d.durationDays,
    reminderDaysBefore: d.reminderDaysBefore ?? [],
    defaultDecisionAtClose: d.defaultDecisionAtClose ?? 'pending',
    schedule: d.schedule,
    cron: d.cron ?? null,
    stages: d.stages ?? null,
  });
  const nextRunAt = nextOccurrence(s.schedule, s.cron, new Date());
  return prisma.$transaction(async (tx) => {
    // A bounded list: the graph and REST list every template at once.
    if ((await tx.reviewPeriodTemplate.count()) >= MAX_TEMPLATES) {
      throw new ValidationError(`At most ${MAX_TEMPLATES} recurring review period templates; delete one first`, 'namePattern');
    }
    const t = await tx.reviewPeriodTemplate.create({ data: { ...s, nextRunAt, createdById: caller.actor.user.id }, include: withPeriods });
    await recordAudit(tx, caller.actor, { action: 'period_template.created', entityType: 'ReviewPeriodTemplate', entityId: t.id, after: auditView(t) });
    return t;
  });
}

/**
 * Changes a template. A new schedule (or cron expression) starts from now:
 * the next date is its next occurrence and a wait for an active period ends.
 */
export async function updateTemplate(caller: Caller, id: string, input: UpdateTemplateInput): Promise<TemplateWithPeriods> {
  const { prisma } = caller.deps;
  const d = parseOrThrow(updateTemplateSchema, input);
  const before = await getTemplate(caller, id);
  const schedule = d.schedule ?? (before.schedule as Schedule);
  const s = await checked(prisma, {
    namePattern: d.namePattern !== undefined ? d.namePattern.trim() : before.namePattern,
    description: d.description !== undefined ? d.description || null : before.description,
    durationDays: d.durationDays ?? before.durationDays,
    reminderDaysBefore: d.reminderDaysBefore !== undefined ? (d.reminderDaysBefore ?? []) : before.reminderDaysBefore,
    defaultDecisionAtClose: d.defaultDecisionAtClose ?? before.defaultDecisionAtClose,
    schedule,
    // Leaving cron out keeps it for a cron schedule; a fixed schedule drops it.
    cron: d.cron !== undefined ? (d.cron ?? null) : schedule === 'cron' ? before.cron : null,
    stages: d.stages !== undefined ? (d.stages ?? null) : templateStages(before),
  });
  const rescheduled = s.schedule !== before.schedule || s.cron !== before.cron;
  const timing = rescheduled ? { nextRunAt: nextOccurrence(s.schedule, s.cron, new Date()), waitingForPeriodId: null } : {};
  return prisma.$transaction(async (tx) => {
    const t = await tx.reviewPeriodTemplate.update({ where: { id: before.id }, data: { ...s, ...timing }, include: withPeriods });
    await recordAudit(tx, caller.actor, {
      action: 'period_template.changed',
      entityType: 'ReviewPeriodTemplate',
      entityId: t.id,
      before: auditView(before),
      after: auditView(t),
    });
    return t;
  });
}

/** Deletes a template; the periods made from it stay. */
export async function deleteTemplate(caller: Caller, id: string): Promise<void> {
  const before = await getTemplate(caller, id);
  await caller.deps.prisma.$transaction(async (tx) => {
    const { count } = await tx.reviewPeriodTemplate.deleteMany({ where: { id: before.id } });
    if (!count) throw new NotFoundError('Review period template not found');
    await recordAudit(tx, caller.actor, {
      action: 'period_template.deleted',
      entityType: 'ReviewPeriodTemplate',
      entityId: before.id,
      before: auditView(before),
    });
  });
}

function auditView(t: ReviewPeriodTemplate) {
  const { namePattern, description, durationDays, reminderDaysBefore, defaultDecisionAtClose, schedule, cron, stages, nextRunAt } = t;
  return { namePattern, description, durationDays, reminderDaysBefore, defaultDecisionAtClose, schedule, cron, stages, nextRunAt };
}

/** A template's stages as stored (null: the one default stage). */
export const templateStages = (t: Pick<ReviewPeriodTemplate, 'stages'>): TemplateStagePlan[] | null =>
  Array.isArray(t.stages) && t.stages.length ? (t.stages as unknown as TemplateStagePlan[]) : null;

/** What the template is doing, in words: 'Next on 2027-01-01' or "Waiting for 'Q4 2026 SoD review' to close". */
export function templateStatus(t: TemplateWithPeriods): string {
  if (t.waitingFor) return `Waiting for '${t.waitingFor.name}' to close`;
  return `Next on ${t.nextRunAt.toISOString().slice(0, 10)}`;
}
