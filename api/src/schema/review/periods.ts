// Review periods: the node, the active one, the list, create / close / reopen.
import { builder, runnable } from '../builder.js';
import { enumOf } from '../enums.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { listOrder } from '../ordering.js';
import { stillSignedIn } from '../../context.js';
import { filter, pipe } from 'graphql-yoga';
import { ValidationError } from '../../core/errors.js';
import * as periods from '../../services/review/periods.js';
import * as reminders from '../../services/review/reminders.js';
import { ReviewStageInput, stagePlanInput } from './stage-input.js';

export const PeriodStatusEnum = enumOf('PeriodStatus', {
  description: 'Whether a review period takes decisions.',
  values: ['active', 'closed'] as const,
  descriptions: {
    active: 'Open: reviewers decide and submit in it (at most one period at a time).',
    closed: 'Closed: decisions are locked and its evidence is frozen.',
  },
});
export const DefaultAtCloseEnum = enumOf('DefaultAtClose', {
  description: 'What closing the period does to items without a decision: leave them pending, retain or remove them.',
  values: periods.DEFAULTS_AT_CLOSE,
  descriptions: {
    pending: 'Closing leaves undecided items without a decision (the default).',
    retain: 'Closing keeps each undecided assigned item: the reviewer gets a retain decision on it, marked as applied at close.',
    remove: 'Closing removes each undecided assigned item: the reviewer gets a remove decision on it, marked as applied at close.',
  },
});

const ReminderKindEnum = enumOf('ReminderKind', {
  description: 'Which deadline message was sent.',
  values: {
    reminder: { description: 'A reminder to a reviewer with pending items, some days before the end.' },
    escalation: { description: 'The message to an administrator naming the late reviewers, after the end.' },
  },
});

const PeriodReminderRef = builder.prismaObject('PeriodReminder', {
  description: 'A deadline message sent once: a reminder to a reviewer with pending items, or the escalation to an administrator after the end.',
  fields: (t) => ({
    kind: t.field({ type: ReminderKindEnum, description: 'A reminder or the escalation.', resolve: (r) => r.kind as 'reminder' | 'escalation' }),
    daysBefore: t.exposeInt('daysBefore', { description: 'The reminder point (days before the end); 0 for the escalation.' }),
    stage: t.exposeInt('stage', { description: "Whose end date it is about: 0 the period's, 1 to 3 that stage's (a stage's end date reminds its reviewers)." }),
    pendingCount: t.exposeInt('pendingCount', {
      description:
        "How many items were still without a decision when it was sent: the reviewer's own for a reminder, every late reviewer's for the escalation.",
    }),
    sentAt: t.expose('sentAt', { type: 'DateTime', description: 'When it was sent.' }),
    recipient: t.relation('user', { description: 'Who it went to: the reviewer reminded, or the administrator told of the late reviewers.' }),
  }),
});

export const ReviewPeriodNode = builder.prismaNode('ReviewPeriod', {
  description: 'A review campaign: decisions are made in the one active period; a closed one is frozen for auditors.',
  id: { field: 'id', description: 'The period’s global id.' },
  // node(id:) of a record that does not exist answers null (Relay), not an internal error.
  nullable: true,
  authScopes: { signedIn: true },
  fields: (t) => ({
    name: t.exposeString('name', { description: 'Its name, e.g. Q4 2026 SoD review.' }),
    description: t.exposeString('description', { nullable: true, description: 'What the period is for (optional).' }),
    startDate: t.expose('startDate', { type: 'DateTime', description: 'When it starts (its creation unless given).' }),
    endDate: t.expose('endDate', { type: 'DateTime', nullable: true, description: 'The planned end (optional; nothing closes it automatically).' }),
    status: t.expose('status', { type: PeriodStatusEnum, description: 'Whether decisions can be made in it.' }),
    closedAt: t.expose('closedAt', { type: 'DateTime', nullable: true, description: 'When it was closed (null while active).' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
    reminderDaysBefore: t.exposeIntList('reminderDaysBefore', { description: 'Days before the end date at which reviewers with pending items are reminded.' }),
    defaultDecisionAtClose: t.expose('defaultDecisionAtClose', {
      type: DefaultAtCloseEnum,
      description:
        "The decision closing the period gives each reviewer's assigned items they have not decided (marked as applied at close), or none (pending).",
    }),
    reminders: t.field({
      type: [PeriodReminderRef],
      description: 'The reminders and escalations sent for the period, oldest first (administrators).',
      authScopes: { admin: true },
      resolve: (p, _args, ctx) => reminders.listReminders(ctx.caller!, p.id),
    }),
  }),
});

const periodOrder = listOrder(
  'ReviewPeriod',
  'the review periods',
  {
    CREATED_AT: { columns: ['createdAt'], description: 'When the period was created.' },
    START_DATE: { columns: ['startDate'], description: 'The period’s start date.' },
    NAME: { columns: ['name'], description: 'The period’s name.' },
    STATUS: { columns: ['status'], description: 'Active or closed.' },
  },
  { field: 'CREATED_AT', direction: 'desc' },
);

builder.queryFields((t) => ({
  activeReviewPeriod: t.prismaField({
    type: 'ReviewPeriod',
    nullable: true,
    description: 'The period decisions are made in now (null: none is active, decisions are locked).',
    authScopes: { signedIn: true },
    resolve: (query, _root, _args, ctx) => ctx.prisma.reviewPeriod.findFirst({ ...runnable(query), where: { status: 'active' } }),
  }),
  reviewPeriods: t.prismaConnection({
    type: 'ReviewPeriod',
    cursor: 'id',
    description: 'Every review period, newest first unless `orderBy` says otherwise.',
    authScopes: { admin: true },
    args: periodOrder.arg(),
    resolve: (query, _root, args, ctx) =>
      ctx.prisma.reviewPeriod.findMany({ ...runnable(query), orderBy: periodOrder.orderBy<Prisma.ReviewPeriodOrderByWithRelationInput>(args.orderBy) }),
    totalCount: (_root, _args, ctx) => ctx.prisma.reviewPeriod.count(),
  }),
}));

export const CreateReviewPeriodInput = builder.inputType('CreateReviewPeriodInput', {
  description: 'A new review period, active from its creation.',
  fields: (t) => ({
    name: t.string({ required: true, description: 'Its name (required).' }),
    description: t.string({ description: 'What it is for.' }),
    endDate: t.field({ type: 'DateTime', description: 'The planned end.' }),
    reminderDaysBefore: t.intList({ description: 'Days before the end date to remind reviewers with pending items, e.g. [7, 1]; needs an end date.' }),
    defaultDecisionAtClose: t.field({ type: DefaultAtCloseEnum, description: 'Default: pending.' }),
    stages: t.field({ type: [ReviewStageInput], description: 'Its 1 to 3 stages, in order (default: one stage reviewed by the assignment criteria).' }),
  }),
});

builder.mutationFields((t) => {
  /** Close and Reopen: the period's new status, then the period as the client asked for it. */
  const statusField = (status: 'active' | 'closed', description: string) =>
    t.prismaField({
      type: 'ReviewPeriod',
      description,
      authScopes: { admin: true },
      errors: {},
      args: {
        id: t.arg.globalID({ required: true, for: ReviewPeriodNode, description: 'The period’s global id.' }),
        ...(status === 'closed'
          ? { reason: t.arg.string({ description: 'Why the period closes with rows nobody could review (required while there are any).' }) }
          : {}),
      },
      resolve: async (query, _root, args, ctx) => {
        const { id } = args;
        const reason = 'reason' in args ? (args.reason as string | null | undefined) : null;
        await periods.setPeriodStatus(ctx.caller!, id.id, status, { reason });
        return ctx.prisma.reviewPeriod.findUniqueOrThrow({ ...runnable(query), where: { id: id.id } });
      },
    });
  return {
    createReviewPeriod: t.prismaField({
      type: 'ReviewPeriod',
      description: 'Creates a review period and activates it at once.',
      authScopes: { admin: true },
      errors: { types: [ValidationError] },
      args: { input: t.arg({ type: CreateReviewPeriodInput, required: true, description: 'The new period.' }) },
      resolve: async (query, _root, { input }, ctx) => {
        const p = await periods.createPeriod(ctx.caller!, { ...input, stages: stagePlanInput(input.stages) });
        return ctx.prisma.reviewPeriod.findUniqueOrThrow({ ...runnable(query), where: { id: p.id } });
      },
    }),
    closeReviewPeriod: statusField('closed', 'Closes the active period (administrators): decisions lock and its evidence freezes.'),
    reopenReviewPeriod: statusField('active', 'Makes a closed period active again, when no other is (administrators).'),
  };
});

builder.subscriptionFields((t) => ({
  reviewPeriodChanged: t.prismaField({
    type: 'ReviewPeriod',
    description: 'A review period as it is created, closed or reopened: open review screens lock or unlock at once.',
    authScopes: { signedIn: true },
    subscribe: (_root, _args, ctx) =>
      pipe(
        ctx.pubsub.subscribe('period:changed'),
        filter(() => stillSignedIn(ctx)),
      ),
    resolve: (query, payload: { periodId: string }, _args, ctx) =>
      ctx.prisma.reviewPeriod.findUniqueOrThrow({ ...runnable(query), where: { id: payload.periodId } }),
  }),
}));
