// Decisions in GraphQL: the viewer's decision on a risk row, saving
// decisions, submission, recall and approval.
import { builder, runnable } from '../builder.js';
import { enumOf } from '../enums.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { listOrder } from '../ordering.js';
import { ValidationError } from '../../core/errors.js';
import * as decisions from '../../services/review/decisions.js';
import * as bulk from '../../services/review/bulk-decisions.js';
import * as mitigations from '../../services/review/mitigations.js';
import * as approval from '../../services/review/approval-review.js';
import { newSinceOf } from '../../services/mid-period/arrivals.js';
import { reviewRules, type ReviewRules } from '../../services/identity/settings.js';
import { DECISION_VALUES, SUBMISSION_STATUSES, type DecisionValue } from '../../services/risk-rules.js';
import { filter, pipe } from 'graphql-yoga';
import { access, stillSignedIn } from '../../context.js';
import type { PubSubEvents } from '../../pubsub.js';
import type { RiskRow } from '../../generated/prisma/client.js';
import { RiskFilterInput, RiskRowNode } from './risks.js';
import { viewerStage } from '../../services/stages/stage-reviews.js';

export const DecisionValueEnum = enumOf('DecisionValue', {
  description: 'A reviewer’s decision on a risk row.',
  values: DECISION_VALUES,
  descriptions: {
    retain: 'Keep the access: the conflict is accepted.',
    retain_mitigated: 'Keep the access under a mitigating control (named in the decision).',
    remove: 'Remove the access.',
  },
});
export const SubmissionStatusEnum = enumOf('SubmissionStatus', {
  description: 'Where a submission is in approval.',
  values: SUBMISSION_STATUSES,
  descriptions: {
    submitted: 'Waiting for an administrator; the decisions are locked.',
    approved: 'Approved: the decisions are final.',
    returned: 'Sent back with a comment: the reviewer may change and submit again.',
    recalled: 'Taken back by the reviewer before approval.',
  },
});

type WithDecision = RiskRow & {
  decision?: string | null;
  decisionMitigationControl?: string | null;
  decisionMitigationExpiresAt?: Date | null;
  newSince?: Date | null;
};

builder.prismaObjectFields(RiskRowNode, (t) => ({
  /** The viewer's own decision in the active period, if any. */
  myDecision: t.field({
    type: DecisionValueEnum,
    nullable: true,
    description: 'The viewer’s decision on this row in the active period (null: pending).',
    resolve: async (r, _args, ctx) => {
      const row = r as WithDecision;
      if (row.decision !== undefined) return (row.decision as DecisionValue | null) ?? null;
      // Rows of the lists carry it (joined); others are looked up together, one query per request.
      return ctx.caller!.viewer.myDecisions.load(r.id);
    },
  }),
  /** The control and expiry of the viewer's mitigation (RETAIN_MITIGATED) in the active period, if any. */
  myMitigationControl: t.string({
    nullable: true,
    description: "The mitigating control named in the viewer's mitigation (RETAIN_MITIGATED) in the active period; null without one.",
    resolve: async (r, _args, ctx) => {
      const row = r as WithDecision;
      if (row.decisionMitigationControl !== undefined) return row.decisionMitigationControl;
      return (await decisions.myDecisionOn(ctx.caller!, r.id))?.mitigationControl ?? null;
    },
  }),
  myMitigationExpiresAt: t.field({
    type: 'DateTime',
    nullable: true,
    description: "Until when the viewer's mitigation in the active period holds; after it the row needs a new decision. Null without a mitigation.",
    resolve: async (r, _args, ctx) => {
      const row = r as WithDecision;
      if (row.decisionMitigationExpiresAt !== undefined) return row.decisionMitigationExpiresAt;
      return (await decisions.myDecisionOn(ctx.caller!, r.id))?.mitigationExpiresAt ?? null;
    },
  }),
  newSince: t.field({
    type: 'DateTime',
    nullable: true,
    description:
      'When the row joined the active period, if after the period began (an upload or analysis run during the period): the queue marks it new. Null: not new, or no active period.',
    resolve: async (r, _args, ctx) => {
      const row = r as WithDecision;
      if (row.newSince !== undefined) return row.newSince;
      // Rows read by id are looked up together, one query per request.
      const viewer = ctx.caller!.viewer;
      const loader = viewer.loader<bigint, Date | null>(
        'new-since',
        async (ids) => {
          const found = await newSinceOf(ctx.prisma, await viewer.decisionPeriod(), ids);
          return ids.map((id) => found.get(id) ?? null);
        },
        String,
      );
      return loader.load(r.id);
    },
  }),
}));

const ByFilterResult = builder.objectRef<{ count: number }>('DecideByFilterResult').implement({
  description: 'What deciding every matching row at once did.',
  fields: (t) => ({ count: t.exposeInt('count', { description: 'How many risk rows the decision covered.' }) }),
});

const ReviewRulesRef = builder.objectRef<ReviewRules>('ReviewRules').implement({
  description: 'The review rules administrators set (Admin Settings).',
  fields: (t) => ({
    requireRemovalComment: t.exposeBoolean('requireRemovalComment', { description: 'A removal needs a justification comment.' }),
    allowBulkApproval: t.exposeBoolean('allowBulkApproval', { description: 'Deciding every item matching a filter at once is allowed.' }),
  }),
});

const ExpiredMitigationRef = builder.objectRef<mitigations.ExpiredMitigation>('ExpiredMitigation').implement({
  description: 'A mitigation (RETAIN_MITIGATED decision) whose expiry date has passed: the risk it kept, under which control, until when.',
  fields: (t) => ({
    riskRowId: t.string({
      description: "The risk row's numeric id, as text (the item's id in the REST API), not a global id.",
      resolve: (m) => String(m.riskRowId),
    }),
    userId: t.exposeString('userId', { description: "The user's id in the source system whose access carries the risk." }),
    userName: t.exposeString('userName', { description: 'That user’s name, as loaded.' }),
    accessRiskId: t.exposeString('accessRiskId', { description: 'The access risk (segregation-of-duties conflict) id, e.g. P001.' }),
    roleProfile: t.exposeString('roleProfile', { description: 'The role profile that grants the access.' }),
    compositeBusinessRole: t.exposeString('compositeBusinessRole', {
      description: 'The composite (business) role that grants the role profile (empty: assigned directly).',
    }),
    system: t.exposeString('system', { description: 'The system the access is in, e.g. SAP ERP.' }),
    mitigationControl: t.exposeString('mitigationControl', {
      nullable: true,
      description: 'The mitigating control that was to cover the risk; null: none named.',
    }),
    mitigationExpiresAt: t.expose('mitigationExpiresAt', { type: 'DateTime', description: 'The date the mitigation stopped holding (before today).' }),
    comments: t.exposeString('comments', { nullable: true, description: "The reviewer's justification of the mitigation." }),
    reviewer: t.exposeString('reviewer', { description: "The reviewer's e-mail." }),
    periodName: t.exposeString('periodName', { description: 'The review period the decision belongs to (the active one, else the one closed last).' }),
  }),
});

const ExpiredMitigationsRef = builder.objectRef<{ total: number; items: mitigations.ExpiredMitigation[] }>('ExpiredMitigations').implement({
  description: 'The expired mitigations of the current period: how many, and the first of them.',
  fields: (t) => ({
    total: t.exposeInt('total', { description: 'How many mitigations have expired, all of them (items lists at most the first 500).' }),
    items: t.field({
      type: [ExpiredMitigationRef],
      resolve: (e) => e.items,
      description: `The first ${mitigations.MAX_EXPIRED_LISTED}, soonest expired first.`,
    }),
  }),
});

export const SubmissionStateRef = builder.objectRef<Awaited<ReturnType<typeof decisions.submissionStatus>>>('SubmissionState').implement({
  description: 'The viewer’s own submission in the active period.',
  fields: (t) => ({
    periodActive: t.exposeBoolean('periodActive', { description: 'A review period is active.' }),
    isSubmitted: t.exposeBoolean('isSubmitted', { description: 'They are submitted and waiting for approval.' }),
    hasDecisions: t.exposeBoolean('hasDecisions', { description: 'The viewer has made decisions in it.' }),
    totalDecisions: t.exposeInt('totalDecisions', { description: 'How many.' }),
    submittedAt: t.expose('submittedAt', { type: 'DateTime', nullable: true, description: 'When it was submitted.' }),
    status: t.expose('status', { type: SubmissionStatusEnum, nullable: true, description: 'The latest submission’s status (null: never submitted).' }),
    reviewComment: t.exposeString('reviewComment', { nullable: true, description: 'The administrator’s comment on it.' }),
    stage: t.exposeInt('stage', {
      description: "The stage the viewer works at (1 to 3; 1 in a one-stage period): the other fields are that stage's decisions and submission.",
    }),
    stageName: t.exposeString('stageName', { description: "What that stage is called, e.g. 'Risk owner'." }),
    stageCount: t.exposeInt('stageCount', { description: 'How many stages the period has (1 to 3).' }),
    nextStageName: t.exposeString('nextStageName', {
      nullable: true,
      description: "What the stage after the viewer's is called (where their submitted decisions go on to); null at the last stage and in a one-stage period.",
    }),
    canRecall: t.exposeBoolean('canRecall', {
      description: 'The viewer may recall their submitted decisions now: submitted, and (several stages) no later stage has decided a row of them yet.',
    }),
  }),
});

export const SubmissionNode = builder.prismaNode('Submission', {
  description: 'A reviewer’s decisions of a period, handed in for an administrator’s approval.',
  id: { field: 'id', description: 'The submission’s global id.' },
  // node(id:) of a record that does not exist answers null (Relay), not an internal error.
  nullable: true,
  authScopes: (s, ctx) => access.admin(ctx.user) || ctx.user?.id === s.reviewerId,
  fields: (t) => ({
    status: t.expose('status', { type: SubmissionStatusEnum, description: 'Where it is in approval.' }),
    decisionCount: t.exposeInt('decisionCount', { description: 'How many decisions it holds.' }),
    submittedAt: t.expose('submittedAt', { type: 'DateTime', description: 'When it was submitted.' }),
    recalledAt: t.expose('recalledAt', { type: 'DateTime', nullable: true, description: 'When the reviewer recalled it (null: not recalled).' }),
    reviewedAt: t.expose('reviewedAt', { type: 'DateTime', nullable: true, description: 'When an administrator approved or returned it.' }),
    reviewComment: t.exposeString('reviewComment', { nullable: true, description: 'The administrator’s comment (why it was returned).' }),
    reviewer: t.relation('reviewer', { description: 'Who submitted.' }),
    reviewedBy: t.relation('reviewedBy', { nullable: true, description: 'The administrator who approved or returned it.' }),
    period: t.relation('period', { description: 'The review period the submitted decisions belong to.' }),
  }),
});

const submissionOrder = listOrder(
  'Submission',
  'submissions',
  {
    SUBMITTED_AT: { columns: ['submittedAt'], description: 'When the decisions were submitted.' },
    DECISION_COUNT: { columns: ['decisionCount'], description: 'How many decisions were submitted.' },
    STATUS: { columns: ['status'], description: 'The submission’s status.' },
  },
  { field: 'SUBMITTED_AT', direction: 'desc' },
);

builder.queryFields((t) => ({
  submissionStatus: t.field({
    type: SubmissionStateRef,
    description: 'The viewer’s own submission in the active period (reviewers).',
    authScopes: { reviewer: true },
    resolve: (_root, _args, ctx) => decisions.submissionStatus(ctx.caller!),
  }),
  reviewRules: t.field({
    type: ReviewRulesRef,
    description: 'The review rules in force: whether a removal needs a comment, and whether deciding every matching item at once is allowed.',
    authScopes: { signedIn: true },
    resolve: (_root, _args, ctx) => reviewRules(ctx.prisma),
  }),
  expiredMitigations: t.field({
    type: ExpiredMitigationsRef,
    description: 'Mitigations of the current period (the active one, else the one closed last) whose expiry date has passed (administrators).',
    authScopes: { admin: true },
    resolve: (_root, _args, ctx) => mitigations.expiredMitigations(ctx.caller!),
  }),
  submissions: t.prismaConnection({
    type: 'Submission',
    cursor: 'id',
    description: 'Submitted decision sets, newest first (administrators).',
    authScopes: { admin: true },
    args: { status: t.arg({ type: SubmissionStatusEnum, description: 'Only submissions in this status.' }), ...submissionOrder.arg() },
    resolve: (query, _root, args, ctx) =>
      ctx.prisma.submission.findMany({
        ...runnable(query),
        where: args.status ? { status: args.status } : {},
        orderBy: submissionOrder.orderBy<Prisma.SubmissionOrderByWithRelationInput>(args.orderBy),
      }),
    totalCount: (_root, args, ctx) => ctx.prisma.submission.count({ where: args.status ? { status: args.status } : {} }),
  }),
}));

const DecisionInput = builder.inputType('DecisionInput', {
  description: 'A decision on one risk row (riskRowId), or on a user and composite role (userId + compositeBusinessRole).',
  fields: (t) => ({
    riskRowId: t.globalID({ for: RiskRowNode, description: 'The risk row’s global id (or give userId and compositeBusinessRole).' }),
    userId: t.string({ description: 'With compositeBusinessRole: the user id whose rows under that role are decided.' }),
    compositeBusinessRole: t.string({ description: 'With userId: the composite role (empty for directly assigned roles).' }),
    decision: t.field({
      type: DecisionValueEnum,
      required: true,
      description: 'Keep the access (RETAIN), keep it under a mitigating control (RETAIN_MITIGATED) or take it away (REMOVE).',
    }),
    comments: t.string({ description: 'Why (optional; shown to approvers and auditors).' }),
    mitigationControl: t.string({ description: 'With RETAIN_MITIGATED: the control that mitigates the risk.' }),
    mitigationExpiresAt: t.field({ type: 'DateTime', description: 'With RETAIN_MITIGATED: when the mitigation must be reviewed again.' }),
  }),
});

const SaveResult = builder.objectRef<{ saved: number }>('SaveDecisionsResult').implement({
  description: 'What saving decisions did.',
  fields: (t) => ({ saved: t.exposeInt('saved', { description: 'How many risk rows the decisions covered.' }) }),
});

const ItemCommentInput = builder.inputType('ItemCommentInput', {
  description: "An approver's comment on one item of a submission.",
  fields: (t) => ({
    riskRowId: t.string({ required: true, description: "The risk row's numeric id, as text (ApprovalItem.riskRowId)." }),
    comment: t.string({ required: true, description: 'The comment, shown to the reviewer and kept in the audit trail and the evidence file.' }),
  }),
});

/** Approving or returning a submission: the same arguments, one service call (services/review/approval-review.ts). */
function reviewField(t: Parameters<Parameters<typeof builder.mutationFields>[0]>[0], outcome: 'approved' | 'returned') {
  return t.field({
    type: SubmissionNode,
    description:
      outcome === 'approved'
        ? 'Approves a submission: its decisions become final (administrators).'
        : 'Sends a submission back to its reviewer with a comment (administrators).',
    authScopes: { admin: true },
    errors: { types: [ValidationError] },
    args: {
      id: t.arg.globalID({ required: true, for: SubmissionNode, description: 'The submission’s global id.' }),
      comment: t.arg.string({ description: 'A comment on the whole set (a return needs it, or an item comment).' }),
      itemComments: t.arg({
        type: [ItemCommentInput],
        description: 'Comments on single items, shown to the reviewer and kept in the audit trail and the evidence file.',
      }),
    },
    resolve: (_root, { id, ...body }, ctx) => approval.reviewSubmission(ctx.caller!, id.id, outcome, body),
  });
}

builder.mutationFields((t) => ({
  saveDecisions: t.field({
    type: SaveResult,
    description: 'Saves decisions in the active period, all or nothing.',
    authScopes: { signedIn: true },
    errors: { types: [ValidationError] },
    args: { decisions: t.arg({ type: [DecisionInput], required: true, description: 'The decisions, all saved in one transaction or none.' }) },
    resolve: (_root, args, ctx) =>
      decisions.saveDecisions(
        ctx.caller!,
        args.decisions.map((d) => ({
          riskRowId: d.riskRowId ? String(d.riskRowId.id) : undefined,
          userId: d.userId ?? undefined,
          compositeBusinessRole: d.compositeBusinessRole ?? undefined,
          decision: d.decision,
          comments: d.comments,
          mitigationControl: d.mitigationControl,
          mitigationExpiresAt: d.mitigationExpiresAt,
        })),
      ),
  }),
  decideByFilter: t.field({
    type: ByFilterResult,
    description:
      "Decides every row of the viewer's list (assigned risks, or the queue for administrators) matching the filter, in one transaction. At a later stage of a multi-stage period: the viewer's rows at their stage, each decision confirming or overturning the stage before's (an overturn needs comments).",
    authScopes: { signedIn: true },
    errors: { types: [ValidationError] },
    args: {
      filter: t.arg({ type: RiskFilterInput, description: "Which rows of the viewer's list to decide, as the list is filtered; left out: every row of it." }),
      decision: t.arg({ type: DecisionValueEnum, required: true, description: 'The decision each matching row gets.' }),
      comments: t.arg.string({
        description: 'The justification saved with each decision; needed for a mitigation (and for a removal when the review rules ask for it).',
      }),
      mitigationControl: t.arg.string({ description: "For RETAIN_MITIGATED: the mitigating control; left out, each row's own Control column is used." }),
      mitigationExpiresAt: t.arg({ type: 'DateTime', description: 'For RETAIN_MITIGATED (and needed by it): until when the mitigation holds.' }),
    },
    resolve: (_root, args, ctx) => bulk.decideByFilter(ctx.caller!, args),
  }),
  submitDecisions: t.field({
    type: SubmissionNode,
    description: "Submits the viewer's decisions in the active period for approval; they are locked until recalled.",
    authScopes: { reviewer: true },
    errors: { types: [ValidationError] },
    resolve: async (_root, _args, ctx) => {
      // A later stage's set is not a Submission: it is submitted by submitStageDecisions (refused here before anything is written).
      if ((await viewerStage(ctx.caller!, await ctx.caller!.viewer.activePeriod())).number > 1) {
        throw new ValidationError('At a later stage of the period, submit with submitStageDecisions');
      }
      const r = await decisions.submit(ctx.caller!);
      return r.stage1!;
    },
  }),
  recallDecisions: t.int({
    description: 'Recalls the submitted set for editing; returns how many decisions it held.',
    authScopes: { reviewer: true },
    errors: {},
    resolve: async (_root, _args, ctx) => (await decisions.recall(ctx.caller!)).count,
  }),
  approveSubmission: reviewField(t, 'approved'),
  returnSubmission: reviewField(t, 'returned'),
}));

type SubmissionChangeEvent = PubSubEvents['review:submission-changed'][1];
const SubmissionChangeRef = builder.objectRef<SubmissionChangeEvent>('SubmissionChange').implement({
  description: "A change of the viewer's submitted set: what it became, and the submission it concerns.",
  fields: (t) => ({
    status: t.field({
      type: SubmissionStatusEnum,
      description: 'What the change made of the set: SUBMITTED, RECALLED, APPROVED or RETURNED.',
      resolve: (e) => e.status,
    }),
    submission: t.field({
      type: SubmissionNode,
      nullable: true,
      description: 'The submission as it is now (null once the risk data was purged).',
      resolve: (e, _args, ctx) => ctx.prisma.submission.findUnique({ where: { id: e.submissionId } }),
    }),
  }),
});

builder.subscriptionFields((t) => ({
  viewerSubmissionChanged: t.field({
    type: SubmissionChangeRef,
    description:
      "The viewer's own set as it is submitted or recalled (in any of their pages) or approved or returned by an administrator: every open page of the reviewer refetches its submission state. Never another reviewer's.",
    authScopes: { reviewer: true },
    // Keyed by the viewer's own id: the topic itself keeps other reviewers' changes out.
    subscribe: (_root, _args, ctx) =>
      pipe(
        ctx.pubsub.subscribe('review:submission-changed', ctx.user!.id),
        filter(() => stillSignedIn(ctx)),
      ),
    resolve: (e) => e,
  }),
}));
