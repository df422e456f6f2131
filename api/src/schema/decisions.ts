// Decisions in GraphQL: the viewer's decision on a risk row, saving
// decisions, submission, recall and approval.
import { builder, runnable } from './builder.js';
import { ValidationError } from '../core/errors.js';
import * as decisions from '../services/decisions.js';
import { DECISION_VALUES, SUBMISSION_STATUSES, type DecisionValue } from '../services/risk-rules.js';
import { access } from '../context.js';
import type { RiskRow } from '../generated/prisma/client.js';
import { RiskRowNode } from './risks.js';

export const DecisionValueEnum = builder.enumType('DecisionValue', { values: DECISION_VALUES });
export const SubmissionStatusEnum = builder.enumType('SubmissionStatus', { values: SUBMISSION_STATUSES });

type WithDecision = RiskRow & { decision?: string | null };

builder.prismaObjectFields(RiskRowNode, (t) => ({
  /** The viewer's own decision in the active period, if any. */
  myDecision: t.field({
    type: DecisionValueEnum,
    nullable: true,
    resolve: async (r, _args, ctx) => {
      const row = r as WithDecision;
      if (row.decision !== undefined) return (row.decision as DecisionValue | null) ?? null;
      // Rows of the lists carry it (joined); others are looked up together, one query per request.
      return ctx.viewer!.myDecisions.load(r.id);
    },
  }),
}));

const SubmissionStatusType = builder
  .objectRef<Awaited<ReturnType<typeof decisions.submissionStatus>>>('SubmissionState')
  .implement({
    fields: (t) => ({
      periodActive: t.exposeBoolean('periodActive'),
      isSubmitted: t.exposeBoolean('isSubmitted'),
      hasDecisions: t.exposeBoolean('hasDecisions'),
      totalDecisions: t.exposeInt('totalDecisions'),
      submittedAt: t.expose('submittedAt', { type: 'DateTime', nullable: true }),
      status: t.expose('status', { type: SubmissionStatusEnum, nullable: true }),
      reviewComment: t.exposeString('reviewComment', { nullable: true }),
    }),
  });

export const SubmissionNode = builder.prismaNode('Submission', {
  id: { field: 'id' },
  // node(id:) of a record that does not exist answers null (Relay), not an internal error.
  nullable: true,
  authScopes: (s, ctx) => access.admin(ctx.user) || ctx.user?.id === s.reviewerId,
  fields: (t) => ({
    status: t.expose('status', { type: SubmissionStatusEnum }),
    decisionCount: t.exposeInt('decisionCount'),
    submittedAt: t.expose('submittedAt', { type: 'DateTime' }),
    recalledAt: t.expose('recalledAt', { type: 'DateTime', nullable: true }),
    reviewedAt: t.expose('reviewedAt', { type: 'DateTime', nullable: true }),
    reviewComment: t.exposeString('reviewComment', { nullable: true }),
    reviewer: t.relation('reviewer'),
    reviewedBy: t.relation('reviewedBy', { nullable: true }),
    period: t.relation('period'),
  }),
});

builder.queryFields((t) => ({
  submissionStatus: t.field({
    type: SubmissionStatusType,
    authScopes: { reviewer: true },
    resolve: (_root, _args, ctx) => decisions.submissionStatus(ctx.prisma, ctx.user!),
  }),
  submissions: t.prismaConnection({
    type: 'Submission',
    cursor: 'id',
    description: 'Submitted decision sets, newest first (administrators).',
    authScopes: { admin: true },
    args: { status: t.arg({ type: SubmissionStatusEnum }) },
    resolve: (query, _root, args, ctx) =>
      ctx.prisma.submission.findMany({ ...runnable(query), where: args.status ? { status: args.status } : {}, orderBy: [{ submittedAt: 'desc' }, { id: 'desc' }] }),
  }),
}));

const DecisionInput = builder.inputType('DecisionInput', {
  description: 'A decision on one risk row (riskRowId), or on a user and composite role (userId + compositeBusinessRole).',
  fields: (t) => ({
    riskRowId: t.globalID({ for: RiskRowNode }),
    userId: t.string(),
    compositeBusinessRole: t.string(),
    decision: t.field({ type: DecisionValueEnum, required: true }),
    comments: t.string(),
    mitigationControl: t.string(),
    mitigationExpiresAt: t.field({ type: 'DateTime' }),
  }),
});

const SaveResult = builder.objectRef<{ saved: number }>('SaveDecisionsResult').implement({
  fields: (t) => ({ saved: t.exposeInt('saved', { description: 'How many risk rows the decisions covered.' }) }),
});

builder.mutationFields((t) => ({
  saveDecisions: t.field({
    type: SaveResult,
    description: 'Saves decisions in the active period, all or nothing.',
    authScopes: { signedIn: true },
    errors: { types: [ValidationError] },
    args: { decisions: t.arg({ type: [DecisionInput], required: true }) },
    resolve: (_root, args, ctx) =>
      decisions.saveDecisions(
        ctx.deps,
        ctx.actor,
        args.decisions.map((d) => ({
          riskDefinitionId: d.riskRowId ? String(d.riskRowId.id) : undefined,
          userId: d.userId ?? undefined,
          compositeBusinessRole: d.compositeBusinessRole ?? undefined,
          decision: d.decision,
          comments: d.comments,
          mitigationControl: d.mitigationControl,
          mitigationExpiresAt: d.mitigationExpiresAt,
        })),
      ),
  }),
  submitDecisions: t.field({
    type: SubmissionNode,
    description: "Submits the viewer's decisions in the active period for approval; they are locked until recalled.",
    authScopes: { reviewer: true },
    errors: { types: [ValidationError] },
    resolve: async (_root, _args, ctx) => (await decisions.submit(ctx.deps, ctx.actor)).submission,
  }),
  recallDecisions: t.int({
    description: 'Recalls the submitted set for editing; returns how many decisions it held.',
    authScopes: { reviewer: true },
    errors: {},
    resolve: async (_root, _args, ctx) => (await decisions.recall(ctx.deps, ctx.actor)).count,
  }),
  approveSubmission: t.field({
    type: SubmissionNode,
    authScopes: { admin: true },
    errors: {},
    args: { id: t.arg.globalID({ required: true, for: SubmissionNode }) },
    resolve: (_root, { id }, ctx) => decisions.reviewSubmission(ctx.deps, ctx.actor, id.id, 'approved'),
  }),
  returnSubmission: t.field({
    type: SubmissionNode,
    authScopes: { admin: true },
    errors: { types: [ValidationError] },
    args: { id: t.arg.globalID({ required: true, for: SubmissionNode }), comment: t.arg.string({ required: true }) },
    resolve: (_root, { id, comment }, ctx) => decisions.reviewSubmission(ctx.deps, ctx.actor, id.id, 'returned', comment),
  }),
}));
