// Recurring review periods (administrators): the template node, the list, and
// create / update / delete. The recurrence job makes the periods
// (services/recurrence/tick.ts).
import { encodeGlobalID } from '@pothos/plugin-relay';
import { builder, runnable } from '../builder.js';
import { enumOf } from '../enums.js';
import { ValidationError } from '../../core/errors.js';
import * as templates from '../../services/recurrence/templates.js';
import { SCHEDULES, periodName, type Schedule } from '../../services/recurrence/schedule.js';
import { DefaultAtCloseEnum } from './periods.js';
import { TemplateStageInput, planOutputFields, templateStagePlanInput } from './stage-input.js';
import { DEFAULT_STAGES, type TemplateStagePlan } from '../../services/stages/stage-plan.js';

const RecurrenceScheduleEnum = enumOf('RecurrenceSchedule', {
  description: 'When a recurring review period is due (UTC).',
  values: SCHEDULES,
  descriptions: {
    monthly: 'On the first of every month, 00:00 UTC.',
    quarterly: 'On the first of January, April, July and October, 00:00 UTC.',
    yearly: 'On the first of January, 00:00 UTC.',
    cron: 'On each occurrence of the template’s cron expression (five fields, UTC).',
  },
});

const TemplateStatusEnum = enumOf('ReviewPeriodTemplateStatus', {
  description: 'What a recurring review period template is doing.',
  values: {
    scheduled: { description: 'Its next period is due on its next date.' },
    waiting: { description: 'Its next period is due, but another period is still active: it is created once that one is closed.' },
  },
});

const TemplateStageRef = builder.objectRef<TemplateStagePlan>('ReviewPeriodTemplateStage').implement({
  description: 'One stage of the periods a recurring template makes.',
  fields: (t) => ({
    ...planOutputFields(t),
    endDays: t.int({ nullable: true, description: 'Its deadline: this many days after its period opens (null: none).', resolve: (s) => s.endDays ?? null }),
  }),
});

export const ReviewPeriodTemplateNode = builder.prismaNode('ReviewPeriodTemplate', {
  description: 'A recurring review period: on each date of its schedule a period is created and activated from it, once no other period is active.',
  id: { field: 'id', description: 'The template’s global id.' },
  // node(id:) of a record that does not exist answers null (Relay), not an internal error.
  nullable: true,
  authScopes: { admin: true },
  fields: (t) => ({
    namePattern: t.exposeString('namePattern', {
      description: 'The name of its periods, with {year}, {quarter}, {month} (01–12) and {monthName} filled in from the period’s start.',
    }),
    description: t.exposeString('description', { nullable: true, description: 'The description its periods get.' }),
    durationDays: t.exposeInt('durationDays', { description: 'How long its periods run: the end date is this many days after the start.' }),
    reminderDaysBefore: t.exposeIntList('reminderDaysBefore', { description: 'Days before the end at which reviewers with pending items are reminded.' }),
    defaultDecisionAtClose: t.field({
      type: DefaultAtCloseEnum,
      description: 'What closing its periods does to items without a decision.',
      resolve: (r) => r.defaultDecisionAtClose,
    }),
    schedule: t.field({ type: RecurrenceScheduleEnum, description: 'When its periods are due.', resolve: (r) => r.schedule as Schedule }),
    cron: t.exposeString('cron', { nullable: true, description: 'The cron expression of a cron schedule (null otherwise).' }),
    nextRunAt: t.expose('nextRunAt', { type: 'DateTime', description: 'When its next period is due.' }),
    nextPeriodName: t.string({
      description: 'The name its next period will have.',
      select: { namePattern: true, nextRunAt: true },
      resolve: (r) => periodName(r.namePattern, r.nextRunAt),
    }),
    status: t.field({
      type: TemplateStatusEnum,
      description: 'Scheduled, or waiting for the active period to close.',
      select: { waitingForPeriodId: true },
      resolve: (r) => (r.waitingForPeriodId ? 'waiting' : 'scheduled'),
    }),
    statusText: t.string({
      description: "The status in words: 'Next on 2027-01-01' or \"Waiting for 'Q4 2026 SoD review' to close\".",
      select: { nextRunAt: true, waitingFor: true },
      resolve: (r) => templates.templateStatus({ ...r, lastPeriod: null } as templates.TemplateWithPeriods),
    }),
    waitingFor: t.relation('waitingFor', { nullable: true, description: 'The active period its due period waits for (null when not waiting).' }),
    lastPeriod: t.relation('lastPeriod', { nullable: true, description: 'The last period made from it (null before the first, or once deleted).' }),
    stages: t.field({
      type: [TemplateStageRef],
      description: 'The stages its periods get, in order (one stage reviewed by the assignment criteria when none were given).',
      select: { stages: true },
      resolve: (r) => templates.templateStages(r) ?? DEFAULT_STAGES.map(({ endDate: _e, ...s }) => ({ ...s, endDays: null })),
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When it was last changed (by an administrator or the job).' }),
  }),
});

const NAME_PATTERN = "The periods' name, e.g. 'Q{quarter} {year} SoD review'; tokens {year}, {quarter}, {month}, {monthName}.";
const DURATION = 'How many days its periods run (1 to 366).';
const REMINDERS = 'Days before the end to remind reviewers with pending items, e.g. [7, 1]; each fewer than the duration.';
const DEFAULT_AT_CLOSE = 'What closing its periods does to undecided items (default: pending).';
const CRON = 'The cron expression (five fields, UTC) of a cron schedule; refused with another schedule.';
const STAGES = 'The 1 to 3 stages its periods get, checked as creating a period checks them (default: one stage reviewed by the assignment criteria).';

builder.queryFields((t) => ({
  reviewPeriodTemplates: t.prismaField({
    type: ['ReviewPeriodTemplate'],
    description: 'Every recurring review period template (at most 50), the next due first (administrators).',
    authScopes: { admin: true },
    resolve: (query, _root, _args, ctx) =>
      ctx.prisma.reviewPeriodTemplate.findMany({ ...runnable(query), orderBy: [{ nextRunAt: 'asc' }, { createdAt: 'asc' }, { id: 'asc' }] }),
  }),
}));

const CreateTemplateInput = builder.inputType('CreateReviewPeriodTemplateInput', {
  description: 'A new recurring review period template.',
  fields: (t) => ({
    namePattern: t.string({ required: true, description: NAME_PATTERN }),
    description: t.string({ description: 'The description its periods get.' }),
    durationDays: t.int({ required: true, description: DURATION }),
    reminderDaysBefore: t.intList({ description: REMINDERS }),
    defaultDecisionAtClose: t.field({ type: DefaultAtCloseEnum, description: DEFAULT_AT_CLOSE }),
    schedule: t.field({ type: RecurrenceScheduleEnum, required: true, description: 'When its periods are due.' }),
    cron: t.string({ description: CRON }),
    stages: t.field({ type: [TemplateStageInput], description: STAGES }),
  }),
});
const UpdateTemplateInput = builder.inputType('UpdateReviewPeriodTemplateInput', {
  description: 'A change to a template: only the fields given change; a new schedule starts from now.',
  fields: (t) => ({
    namePattern: t.string({ description: NAME_PATTERN }),
    description: t.string({ description: 'The description its periods get (null: none).' }),
    durationDays: t.int({ description: DURATION }),
    reminderDaysBefore: t.intList({ description: REMINDERS }),
    defaultDecisionAtClose: t.field({ type: DefaultAtCloseEnum, description: DEFAULT_AT_CLOSE }),
    schedule: t.field({ type: RecurrenceScheduleEnum, description: 'When its periods are due.' }),
    cron: t.string({ description: CRON }),
    stages: t.field({ type: [TemplateStageInput], description: `${STAGES} Null: back to one stage.` }),
  }),
});

builder.mutationFields((t) => ({
  createReviewPeriodTemplate: t.prismaField({
    type: 'ReviewPeriodTemplate',
    description: 'Creates a recurring review period template (administrators); its first period is due on the schedule’s next date.',
    authScopes: { admin: true },
    errors: { types: [ValidationError] },
    args: { input: t.arg({ type: CreateTemplateInput, required: true, description: 'The new template.' }) },
    resolve: async (query, _root, { input }, ctx) => {
      const c = await templates.createTemplate(ctx.caller!, { ...input, stages: templateStagePlanInput(input.stages) });
      return ctx.prisma.reviewPeriodTemplate.findUniqueOrThrow({ ...runnable(query), where: { id: c.id } });
    },
  }),
  updateReviewPeriodTemplate: t.prismaField({
    type: 'ReviewPeriodTemplate',
    description: 'Changes a recurring review period template (administrators).',
    authScopes: { admin: true },
    errors: { types: [ValidationError] },
    args: {
      id: t.arg.globalID({ required: true, for: ReviewPeriodTemplateNode, description: 'The template’s global id.' }),
      input: t.arg({ type: UpdateTemplateInput, required: true, description: 'The fields to change.' }),
    },
    resolve: async (query, _root, { id, input }, ctx) => {
      const { namePattern, durationDays, schedule, stages, ...rest } = input;
      // Null for a field that cannot be empty means no change, like leaving it out.
      const c = await templates.updateTemplate(ctx.caller!, id.id, {
        ...rest,
        namePattern: namePattern ?? undefined,
        durationDays: durationDays ?? undefined,
        schedule: schedule ?? undefined,
        stages: templateStagePlanInput(stages),
      });
      return ctx.prisma.reviewPeriodTemplate.findUniqueOrThrow({ ...runnable(query), where: { id: c.id } });
    },
  }),
  deleteReviewPeriodTemplate: t.field({
    type: 'ID',
    description: 'Deletes a recurring review period template (its periods stay); returns its id.',
    authScopes: { admin: true },
    errors: {},
    args: { id: t.arg.globalID({ required: true, for: ReviewPeriodTemplateNode, description: 'The template’s global id.' }) },
    resolve: async (_root, { id }, ctx) => {
      await templates.deleteTemplate(ctx.caller!, id.id);
      return encodeGlobalID('ReviewPeriodTemplate', id.id);
    },
  }),
}));
