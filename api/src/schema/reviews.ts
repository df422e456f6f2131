// The review workflow in GraphQL: risk rows, the queue (page-based, as the
// SPEC's page buttons need), assigned risks, decisions, submission, approval.
import { builder } from './builder.js';
import { ValidationError } from '../core/errors.js';
import * as risks from '../services/risks.js';
import * as decisions from '../services/decisions.js';
import { criteriaSetsFor, CRITERIA_COLUMN, type CriteriaSets } from '../services/assignments.js';
import { getActivePeriod } from '../services/periods.js';
import * as dashboard from '../services/dashboard.js';
import { reviewerStatus, type ReviewerStatus } from '../services/reviewer-status.js';
import { UserNode } from './users.js';
import type { Context } from '../context.js';
import { access } from '../context.js';
import type { RiskRow } from '../generated/prisma/client.js';

export const RiskLevelEnum = builder.enumType('RiskLevel', { values: risks.RISK_LEVELS });
export const DecisionValueEnum = builder.enumType('DecisionValue', { values: decisions.DECISION_VALUES });
export const SubmissionStatusEnum = builder.enumType('SubmissionStatus', { values: ['submitted', 'recalled', 'approved', 'returned'] as const });

const criteriaCache = new WeakMap<Context, Promise<CriteriaSets>>();
/** Whether the viewer may see a row: administrators all, reviewers their assigned rows. */
async function canSeeRow(ctx: Context, row: RiskRow): Promise<boolean> {
  if (access.admin(ctx.user)) return true;
  if (!access.reviewer(ctx.user)) return false;
  let p = criteriaCache.get(ctx);
  if (!p) criteriaCache.set(ctx, (p = criteriaSetsFor(ctx.prisma, ctx.user!.id)));
  const sets = await p;
  const value: Record<string, string> = {
    access_risk_id: row.accessRiskId,
    user_id: row.userId,
    user_group: row.userGroup,
    system: row.system,
    role_profile: row.roleProfile,
  };
  return (Object.keys(sets) as (keyof CriteriaSets)[]).some((t) => sets[t].includes(value[CRITERIA_COLUMN[t]]!));
}

type WithDecision = RiskRow & { decision?: string | null };

export const RiskRowNode = builder.prismaNode('RiskRow', {
  id: { field: 'id' },
  authScopes: (row, ctx) => canSeeRow(ctx, row as RiskRow),
  fields: (t) => ({
    userId: t.exposeString('userId'),
    userName: t.exposeString('userName'),
    userGroup: t.exposeString('userGroup'),
    accessRiskId: t.exposeString('accessRiskId'),
    riskDescription: t.exposeString('riskDescription'),
    riskLevel: t.expose('riskLevel', { type: RiskLevelEnum }),
    riskLevelLabel: t.exposeString('riskLevelLabel'),
    ruleId: t.exposeString('ruleId'),
    /** Rule ids 02NN and 03NN are high-risk rules. */
    isHighRiskRule: t.boolean({ resolve: (r) => /^0[23]\d\d$/.test(r.ruleId) }),
    system: t.exposeString('system'),
    roleProfile: t.exposeString('roleProfile'),
    roleProfileDescription: t.exposeString('roleProfileDescription'),
    compositeBusinessRole: t.exposeString('compositeBusinessRole'),
    compositeRoleDescription: t.exposeString('compositeRoleDescription'),
    businessProcess: t.exposeString('businessProcess'),
    businessProcessDescription: t.exposeString('businessProcessDescription'),
    function: t.exposeString('function'),
    functionDescription: t.exposeString('functionDescription'),
    action: t.exposeString('action'),
    actionDescription: t.exposeString('actionDescription'),
    resource: t.exposeString('resource'),
    resourceDescription: t.exposeString('resourceDescription'),
    resourceExtn: t.exposeString('resourceExtn'),
    resourceExtnDesc: t.exposeString('resourceExtnDesc'),
    valueFrom: t.exposeString('valueFrom'),
    valueTo: t.exposeString('valueTo'),
    mitigationControl: t.exposeString('mitigationControl'),
    mitigationControlDescription: t.exposeString('mitigationControlDescription'),
    executionCount: t.exposeInt('executionCount', { nullable: true }),
    lastExecutedOn: t.expose('lastExecutedOn', { type: 'DateTime', nullable: true }),
    aiSuggestedCategory: t.exposeString('aiSuggestedCategory', { nullable: true }),
    aiCategoryConfidence: t.exposeFloat('aiCategoryConfidence', { nullable: true }),
    aiCategoryAccepted: t.exposeBoolean('aiCategoryAccepted', { nullable: true }),
    /** The viewer's own decision in the active period, if any. */
    myDecision: t.field({
      type: DecisionValueEnum,
      nullable: true,
      resolve: async (r, _args, ctx) => {
        const row = r as WithDecision;
        if (row.decision !== undefined) return (row.decision as (typeof decisions.DECISION_VALUES)[number] | null) ?? null;
        const period = await getActivePeriod(ctx.prisma);
        if (!period) return null;
        const d = await ctx.prisma.decision.findUnique({
          where: { periodId_reviewerId_riskRowId: { periodId: period.id, reviewerId: ctx.user!.id, riskRowId: r.id } },
        });
        return d?.decision ?? null;
      },
    }),
  }),
});

const RiskFilterInput = builder.inputType('RiskFilterInput', {
  fields: (t) => ({
    search: t.string(),
    riskLevel: t.field({ type: RiskLevelEnum }),
    system: t.string(),
    userGroup: t.string(),
    roleProfile: t.string(),
    compositeRole: t.string(),
    ruleId: t.string(),
    accessRiskId: t.string(),
    userId: t.string(),
    decision: t.string({ description: 'pending, retain, remove or retain_mitigated' }),
  }),
});

const RiskPage = builder.objectRef<{ rows: RiskRow[]; total: number; page: number; limit: number }>('RiskPage').implement({
  description:
    'One page of risk rows; total counts every row matching the filter. To move to the next or previous page, ' +
    'pass endCursor as `after` or startCursor as `before` with the new page number: that page is then found by ' +
    'seeking, which stays fast however deep it is.',
  fields: (t) => ({
    rows: t.field({ type: [RiskRowNode], resolve: (p) => p.rows }),
    total: t.exposeInt('total'),
    page: t.exposeInt('page'),
    limit: t.exposeInt('limit'),
    startCursor: t.string({ nullable: true, resolve: (p) => (p.rows.length ? String(p.rows[0]!.id) : null) }),
    endCursor: t.string({ nullable: true, resolve: (p) => (p.rows.length ? String(p.rows[p.rows.length - 1]!.id) : null) }),
  }),
});


const AssignedSummary = builder
  .objectRef<{ totalAssigned: number; highRisk: number; pendingReview: number; reviewed: number }>('AssignedSummary')
  .implement({
    fields: (t) => ({
      totalAssigned: t.exposeInt('totalAssigned'),
      highRisk: t.exposeInt('highRisk'),
      pendingReview: t.exposeInt('pendingReview'),
      reviewed: t.exposeInt('reviewed'),
    }),
  });

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

const DashboardStats = builder
  .objectRef<Awaited<ReturnType<typeof dashboard.dashboardStats>>>('DashboardStats')
  .implement({
    fields: (t) => ({
      totalConflicts: t.exposeInt('totalConflicts'),
      highRiskUsers: t.exposeInt('highRiskUsers'),
      pendingReviews: t.exposeInt('pendingReviews'),
      activeReviewers: t.exposeInt('activeReviewers', { description: 'Reviewers seen in the last 15 minutes.' }),
    }),
  });

const ReviewerStatusType = builder.objectRef<ReviewerStatus>('ReviewerStatus').implement({
  fields: (t) => ({
    reviewer: t.field({ type: UserNode, resolve: (p) => p.reviewer }),
    assigned: t.exposeInt('assigned'),
    decided: t.exposeInt('decided'),
    submissionStatus: t.field({ type: SubmissionStatusEnum, nullable: true, resolve: (p) => p.submissionStatus as never }),
    submission: t.field({ type: SubmissionNode, nullable: true, description: 'The latest submission in the active period.', resolve: (p) => p.submission }),
    submitted: t.exposeInt('submittedCount'),
    approved: t.exposeInt('approvedCount'),
    lastActivity: t.expose('lastActivity', { type: 'DateTime', nullable: true }),
  }),
});

builder.queryFields((t) => {
  const riskPageArgs = () => ({
    filter: t.arg({ type: RiskFilterInput }),
    page: t.arg.int({ description: 'The page number (from 1); with after/before, the number of the page they lead to.' }),
    limit: t.arg.int(),
    after: t.arg.string({ description: 'The endCursor of the current page: the page after it.' }),
    before: t.arg.string({ description: 'The startCursor of the current page: the page before it.' }),
  });

  return {
    dashboardStats: t.field({
      type: DashboardStats,
      authScopes: { signedIn: true },
      resolve: (_root, _args, ctx) => dashboard.dashboardStats(ctx.prisma, ctx.user!),
    }),
    reviewerStatus: t.field({
      type: [ReviewerStatusType],
      description: 'Per reviewer in the active period: assigned, decided, submitted, approved, last activity.',
      authScopes: { admin: true },
      resolve: (_root, _args, ctx) => reviewerStatus(ctx.prisma),
    }),
    riskQueue: t.field({
      type: RiskPage,
      description: 'Every risk row (administrators), filtered, searched and paged.',
      authScopes: { admin: true },
      args: riskPageArgs(),
      resolve: async (_root, args, ctx) => {
        const r = await risks.listRisks(ctx.prisma, ctx.user!, args.filter ?? {}, args);
        return { rows: r.risks, total: r.total, page: r.page, limit: r.limit };
      },
    }),
    assignedRisks: t.field({
      type: RiskPage,
      description: "The viewer's assigned risk rows (reviewers), filtered, searched and paged.",
      authScopes: { reviewer: true },
      args: riskPageArgs(),
      resolve: async (_root, args, ctx) => {
        const r = await risks.listRisks(ctx.prisma, ctx.user!, args.filter ?? {}, args);
        return { rows: r.risks, total: r.total, page: r.page, limit: r.limit };
      },
    }),
    assignedSummary: t.field({
      type: AssignedSummary,
      authScopes: { reviewer: true },
      resolve: (_root, _args, ctx) => risks.assignedSummary(ctx.prisma, ctx.user!),
    }),
    riskSystems: t.stringList({
      description: 'The systems in the rows the viewer may see.',
      authScopes: { signedIn: true },
      resolve: (_root, _args, ctx) => risks.listSystems(ctx.prisma, ctx.user!),
    }),
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
        ctx.prisma.submission.findMany({ ...query, where: args.status ? { status: args.status } : {}, orderBy: [{ submittedAt: 'desc' }, { id: 'desc' }] }),
    }),
  };
});

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
