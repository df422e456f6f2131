// The AI assist: a suggested category per risk id (on the composite view's risk
// groups), accepting or rejecting it, the risk profile, and usage statistics.
import { builder } from '../builder.js';
import { ValidationError } from '../../core/errors.js';
import * as ai from '../../services/ai/ai.js';
import { CompositeRiskGroupRef } from '../review/composite-view.js';

const AiSuggestion = builder.objectRef<ai.StoredSuggestion>('AiSuggestion').implement({
  description: 'The AI suggested category of a risk id (SPEC §3 aiSuggestedCategory, aiCategoryConfidence, aiProcessedAt, aiCategoryAccepted).',
  fields: (t) => ({
    category: t.exposeString('category'),
    confidence: t.exposeFloat('confidence', { description: '0 to 1.' }),
    processedAt: t.expose('processedAt', { type: 'DateTime', nullable: true }),
    accepted: t.exposeBoolean('accepted', { nullable: true, description: 'null: not decided yet.' }),
  }),
});

builder.objectFields(CompositeRiskGroupRef, (t) => ({
  aiSuggestion: t.field({
    type: AiSuggestion,
    nullable: true,
    resolve: (g, _args, ctx) =>
      ctx.viewer!.loader('aiSuggestion', (ids: readonly string[]) => ai.suggestionsFor(ctx.prisma, ids), (id) => id).load(g.accessRiskId),
  }),
}));

const Categorization = builder.objectRef<ai.Categorization>('AiCategorization').implement({
  fields: (t) => ({
    riskId: t.exposeString('riskId'),
    suggestedCategory: t.exposeString('suggestedCategory'),
    confidence: t.exposeFloat('confidence'),
    processedAt: t.expose('processedAt', { type: 'DateTime' }),
    processingMs: t.exposeInt('processingMs'),
    cached: t.exposeBoolean('cached', { description: 'Answered from an identical earlier request: nothing was paid.' }),
  }),
});

const SuggestionDecision = builder.objectRef<ai.SuggestionDecision>('AiSuggestionDecision').implement({
  fields: (t) => ({
    riskId: t.exposeString('riskId'),
    accepted: t.exposeBoolean('accepted'),
    suggestedCategory: t.exposeString('suggestedCategory'),
  }),
});

type Dimension = ai.RiskProfile['severityAssessment']['dimensions'][number];
const SeverityDimension = builder.objectRef<Dimension>('AiSeverityDimension').implement({
  fields: (t) => ({ dimension: t.exposeString('dimension'), observation: t.exposeString('observation'), impact: t.exposeString('impact') }),
});
const SeverityAssessment = builder.objectRef<ai.RiskProfile['severityAssessment']>('AiSeverityAssessment').implement({
  fields: (t) => ({
    level: t.exposeString('level'),
    reasoning: t.exposeString('reasoning'),
    dimensions: t.field({ type: [SeverityDimension], resolve: (s) => s.dimensions }),
  }),
});
const RiskProfile = builder.objectRef<ai.RiskProfile & { rowsUsed: number; rowsTotal: number; cached: boolean }>('AiRiskProfile').implement({
  fields: (t) => ({
    accessRiskId: t.exposeString('accessRiskId'),
    riskDescription: t.exposeString('riskDescription'),
    riskNature: t.exposeString('riskNature'),
    functionAnalysis: t.exposeString('functionAnalysis'),
    severityAssessment: t.field({ type: SeverityAssessment, resolve: (p) => p.severityAssessment }),
    conclusion: t.exposeString('conclusion'),
    recommendedActions: t.exposeStringList('recommendedActions'),
    rowsUsed: t.exposeInt('rowsUsed', { description: 'Rows of the risk for the user that the prompt carried.' }),
    rowsTotal: t.exposeInt('rowsTotal'),
    cached: t.exposeBoolean('cached'),
  }),
});

const UsageDay = builder.objectRef<ai.UsageDay>('AiUsageDay').implement({
  fields: (t) => ({
    day: t.exposeString('day', { description: 'YYYY-MM-DD (UTC).' }),
    calls: t.exposeInt('calls'),
    failed: t.exposeInt('failed'),
    cost: t.exposeFloat('cost', { description: 'US dollars.' }),
  }),
});
const UsageStats = builder.objectRef<ai.UsageStats>('AiUsageStats').implement({
  description: 'AI calls of the last 30 days.',
  fields: (t) => ({
    totalCalls: t.exposeInt('totalCalls'),
    successfulCalls: t.exposeInt('successfulCalls'),
    failedCalls: t.exposeInt('failedCalls'),
    totalCost: t.exposeFloat('totalCost', { description: 'US dollars.' }),
    totalTokens: t.exposeInt('totalTokens'),
    days: t.field({ type: [UsageDay], resolve: (s) => s.days }),
  }),
});

builder.queryFields((t) => ({
  aiUsageStats: t.field({
    type: UsageStats,
    authScopes: { admin: true },
    resolve: (_root, _args, ctx) => ai.usageStats(ctx.deps),
  }),
}));

builder.mutationFields((t) => ({
  categorizeRisk: t.field({
    type: Categorization,
    description: 'Suggests a category for a risk id and stores it on every row of that risk.',
    authScopes: { signedIn: true },
    errors: { types: [ValidationError] },
    args: { riskId: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => ai.categorizeRisk(ctx.deps, ctx.viewer!, ctx.actor, args),
  }),
  decideAiSuggestion: t.field({
    type: SuggestionDecision,
    description: 'Accepts or rejects the suggested category of a risk id.',
    authScopes: { signedIn: true },
    errors: { types: [ValidationError] },
    args: { riskId: t.arg.string({ required: true }), accepted: t.arg.boolean({ required: true }) },
    resolve: (_root, args, ctx) => ai.acceptSuggestion(ctx.deps, ctx.viewer!, ctx.actor, args.riskId, { accepted: args.accepted }),
  }),
  generateRiskProfile: t.field({
    type: RiskProfile,
    description: "A risk profile of a risk for a user, written from that user's rows of it.",
    authScopes: { signedIn: true },
    errors: { types: [ValidationError] },
    args: { accessRiskId: t.arg.string({ required: true }), userId: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => ai.riskProfile(ctx.deps, ctx.viewer!, ctx.actor, args),
  }),
}));
