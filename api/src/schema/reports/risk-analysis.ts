// Risk analysis in GraphQL (SPEC §4 'User analysis status'): run one user's
// analysis with role decisions over the saved ones, and read the viewer's
// latest stored result per user. The rule is services/reports/risk-analysis.ts's.
import { builder } from '../builder.js';
import { enumOf } from '../enums.js';
import { ValidationError } from '../../core/errors.js';
import * as analysis from '../../services/reports/risk-analysis.js';
import { ANALYSIS_STATUSES } from '../../services/risk-rules.js';
import { DecisionValueEnum } from '../review/decisions.js';
import { CompositeUserRef } from '../review/composite-view.js';

export const AnalysisStatusEnum = enumOf('AnalysisStatus', { values: ANALYSIS_STATUSES });

const RiskBreakdown = builder.objectRef<analysis.RiskBreakdownEntry>('RiskBreakdownEntry').implement({
  fields: (t) => ({
    riskId: t.exposeString('riskId'),
    status: t.expose('status', { type: AnalysisStatusEnum }),
    mitigated: t.boolean({
      description: 'Red but mitigated: every red row under this risk is kept under a mitigating control (RETAIN_MITIGATED).',
      resolve: (e) => e.mitigated ?? false,
    }),
  }),
});

/** A stored analysis is a Node; node(id:) reads back only the caller's own, of a user they still see. */
const RiskAnalysis = builder.node(builder.objectRef<analysis.AnalysisResult>('RiskAnalysis'), {
  description:
    "A user's analysis: red when a kept role under any of their risks carries a high-risk rule (02NN, 03NN). Stored per analyst: each caller reads back only their own.",
  id: { resolve: (r) => r.id },
  isTypeOf: (v) => typeof v === 'object' && v !== null && 'riskBreakdown' in v && 'userStatus' in v,
  loadMany: (ids, ctx) => analysis.resultsById(ctx.prisma, ctx.viewer!, ids),
  fields: (t) => ({
    analysisId: t.exposeString('id'),
    userId: t.exposeString('userId'),
    userStatus: t.expose('userStatus', { type: AnalysisStatusEnum }),
    riskBreakdown: t.field({ type: [RiskBreakdown], resolve: (r) => r.riskBreakdown }),
    redCount: t.exposeInt('redCount', { description: 'How many of the risk ids are red.' }),
    mitigatedCount: t.exposeInt('mitigatedCount', { description: 'Of the red risk ids, how many are red but mitigated.' }),
    totalRisks: t.exposeInt('totalRisks'),
    timestamp: t.expose('timestamp', { type: 'DateTime' }),
  }),
});

// The composite-role view shows each user's latest analysis (a list of users asks once).
builder.objectFields(CompositeUserRef, (t) => ({
  latestAnalysis: t.field({
    type: RiskAnalysis,
    nullable: true,
    description: "The viewer's latest stored analysis of this user, if any.",
    resolve: (u, _args, ctx) =>
      ctx
        .viewer!.loader(
          'analysis.latest',
          async (ids: readonly string[]) => {
            const byUser = new Map((await analysis.latestResults(ctx.prisma, ctx.viewer!, ids)).map((r) => [r.userId, r]));
            return ids.map((id) => byUser.get(id) ?? null);
          },
          String,
        )
        .load(u.userId),
  }),
}));

const AnalysisRoleDecisionInput = builder.inputType('AnalysisRoleDecisionInput', {
  description: "A decision on one of the analysed user's composite roles ('' for the directly assigned roles), applied over the saved ones.",
  fields: (t) => ({
    userId: t.string(),
    compositeBusinessRole: t.string({ required: true }),
    decision: t.field({ type: DecisionValueEnum, required: true }),
  }),
});

builder.queryFields((t) => ({
  latestRiskAnalyses: t.field({
    type: [RiskAnalysis],
    description: `The viewer's latest stored analysis per user (of the given users, when set), newest first: a list bounded at ${analysis.MAX_LATEST} users, not a connection.`,
    authScopes: { signedIn: true },
    args: { userIds: t.arg.stringList({ description: `At most ${analysis.MAX_LATEST}.` }) },
    resolve: (_root, args, ctx) => analysis.latestResults(ctx.prisma, ctx.viewer!, args.userIds),
  }),
}));

builder.mutationFields((t) => ({
  runRiskAnalysis: t.field({
    type: RiskAnalysis,
    description: "Analyses one user's risks with the given role decisions over the saved ones (baseline vs simulation), and stores the result.",
    authScopes: { signedIn: true },
    errors: { types: [ValidationError] },
    args: {
      userId: t.arg.string({ required: true }),
      roleDecisions: t.arg({ type: [AnalysisRoleDecisionInput] }),
    },
    resolve: (_root, args, ctx) => analysis.analyseUser(ctx.prisma, ctx.actor, ctx.viewer!, args),
  }),
}));
