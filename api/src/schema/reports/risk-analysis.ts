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

export const AnalysisStatusEnum = enumOf('AnalysisStatus', {
  description: 'Whether a user (or one of their risks) still carries a high-risk rule in a kept role.',
  values: ANALYSIS_STATUSES,
  descriptions: {
    red: 'Yes: a kept role carries a high-risk rule (02NN, 03NN).',
    green: 'No: every high-risk rule is in a removed role.',
  },
});

const RiskBreakdown = builder.objectRef<analysis.RiskBreakdownEntry>('RiskBreakdownEntry').implement({
  description: 'One risk id of an analysis.',
  fields: (t) => ({
    riskId: t.exposeString('riskId', { description: 'The access risk id.' }),
    status: t.expose('status', { type: AnalysisStatusEnum, description: 'Red or green.' }),
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
  id: { description: 'The stored analysis’ global id, as node(id:) reads it back.', resolve: (r) => r.id },
  isTypeOf: (v) => typeof v === 'object' && v !== null && 'riskBreakdown' in v && 'userStatus' in v,
  loadMany: (ids, ctx) => analysis.resultsById(ctx.caller!, ids),
  fields: (t) => ({
    analysisId: t.exposeString('id', { description: 'The stored analysis’ id (the REST id; `id` is the global one).' }),
    userId: t.exposeString('userId', { description: 'The user id analysed.' }),
    userStatus: t.expose('userStatus', { type: AnalysisStatusEnum, description: 'The user’s status: red if any risk is red.' }),
    riskBreakdown: t.field({ type: [RiskBreakdown], description: 'Each risk id with its status.', resolve: (r) => r.riskBreakdown }),
    redCount: t.exposeInt('redCount', { description: 'How many of the risk ids are red.' }),
    mitigatedCount: t.exposeInt('mitigatedCount', { description: 'Of the red risk ids, how many are red but mitigated.' }),
    totalRisks: t.exposeInt('totalRisks', { description: 'The user’s access risk ids.' }),
    timestamp: t.expose('timestamp', { type: 'DateTime', description: 'When it was run.' }),
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
        .caller!.viewer.loader(
          'analysis.latest',
          async (ids: readonly string[]) => {
            const byUser = new Map((await analysis.latestResults(ctx.caller!, ids)).map((r) => [r.userId, r]));
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
    userId: t.string({ description: 'The user id (defaults to the analysed user).' }),
    compositeBusinessRole: t.string({ required: true, description: 'The composite role (empty for directly assigned roles).' }),
    decision: t.field({ type: DecisionValueEnum, required: true, description: 'The decision to assume for it.' }),
  }),
});

builder.queryFields((t) => ({
  latestRiskAnalyses: t.field({
    type: [RiskAnalysis],
    description: `The viewer's latest stored analysis per user (of the given users, when set), newest first: a list bounded at ${analysis.MAX_LATEST} users, not a connection.`,
    authScopes: { signedIn: true },
    args: { userIds: t.arg.stringList({ description: `At most ${analysis.MAX_LATEST}.` }) },
    resolve: (_root, args, ctx) => analysis.latestResults(ctx.caller!, args.userIds),
  }),
}));

builder.mutationFields((t) => ({
  runRiskAnalysis: t.field({
    type: RiskAnalysis,
    description: "Analyses one user's risks with the given role decisions over the saved ones (baseline vs simulation), and stores the result.",
    authScopes: { signedIn: true },
    errors: { types: [ValidationError] },
    args: {
      userId: t.arg.string({ required: true, description: 'The user id in the source system.' }),
      roleDecisions: t.arg({ type: [AnalysisRoleDecisionInput], description: 'Decisions to assume instead of the saved ones.' }),
    },
    resolve: (_root, args, ctx) => analysis.analyseUser(ctx.caller!, args),
  }),
}));
