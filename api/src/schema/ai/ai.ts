// The AI assist: a suggested category per risk id (on the composite view's risk
// groups), accepting or rejecting it, the risk profile, and usage statistics.
import { builder } from '../builder.js';
import { ValidationError } from '../../core/errors.js';
import * as ai from '../../services/ai/ai.js';
import { CompositeRiskGroupRef } from '../review/composite-view.js';

const AiSuggestion = builder.objectRef<ai.StoredSuggestion>('AiSuggestion').implement({
  description: 'The AI suggested category of a risk id (SPEC §3 aiSuggestedCategory, aiCategoryConfidence, aiProcessedAt, aiCategoryAccepted).',
  fields: (t) => ({
    category: t.exposeString('category', { description: 'The risk category the AI suggests for the access risk (e.g. Financial Fraud).' }),
    confidence: t.exposeFloat('confidence', { description: '0 to 1.' }),
    processedAt: t.expose('processedAt', { type: 'DateTime', nullable: true, description: 'When it was suggested.' }),
    accepted: t.exposeBoolean('accepted', { nullable: true, description: 'null: not decided yet.' }),
  }),
});

builder.objectFields(CompositeRiskGroupRef, (t) => ({
  aiSuggestion: t.field({
    type: AiSuggestion,
    nullable: true,
    description: 'The AI’s suggested category for the risk (null: none).',
    resolve: (g, _args, ctx) =>
      ctx
        .caller!.viewer.loader(
          'aiSuggestion',
          (ids: readonly string[]) => ai.suggestionsFor(ctx.caller!, ids),
          (id) => id,
        )
        .load(g.accessRiskId),
  }),
}));

const Categorization = builder.objectRef<ai.Categorization>('AiCategorization').implement({
  description: 'The category the AI suggests for an access risk id.',
  fields: (t) => ({
    riskId: t.exposeString('riskId', { description: 'The access risk id.' }),
    suggestedCategory: t.exposeString('suggestedCategory', { description: 'The suggested category, e.g. Financial Fraud.' }),
    confidence: t.exposeFloat('confidence', { description: 'How sure the model is, from 0 to 1.' }),
    processedAt: t.expose('processedAt', { type: 'DateTime', description: 'When the suggestion was made.' }),
    processingMs: t.exposeInt('processingMs', { description: 'How long the model took, in milliseconds (0 when cached).' }),
    cached: t.exposeBoolean('cached', { description: 'Answered from an identical earlier request: nothing was paid.' }),
  }),
});

const SuggestionDecision = builder.objectRef<ai.SuggestionDecision>('AiSuggestionDecision').implement({
  description: 'An administrator’s decision on a suggested category.',
  fields: (t) => ({
    riskId: t.exposeString('riskId', { description: 'The access risk id.' }),
    accepted: t.exposeBoolean('accepted', { description: 'Accepted (true) or rejected (false).' }),
    suggestedCategory: t.exposeString('suggestedCategory', { description: 'The category that was suggested.' }),
  }),
});

type Dimension = ai.RiskProfile['severityAssessment']['dimensions'][number];
const SeverityDimension = builder.objectRef<Dimension>('AiSeverityDimension').implement({
  description: 'One dimension of a severity assessment.',
  fields: (t) => ({
    dimension: t.exposeString('dimension', { description: 'What is weighed, e.g. Financial impact.' }),
    observation: t.exposeString('observation', { description: 'What the AI saw in the data for it.' }),
    impact: t.exposeString('impact', { description: 'How much it weighs, in the AI’s words.' }),
  }),
});
const SeverityAssessment = builder.objectRef<ai.RiskProfile['severityAssessment']>('AiSeverityAssessment').implement({
  description: 'The severity of a risk, as the AI assesses it.',
  fields: (t) => ({
    level: t.exposeString('level', { description: 'The severity the AI gives, e.g. High.' }),
    reasoning: t.exposeString('reasoning', { description: 'Why that severity.' }),
    dimensions: t.field({
      type: [SeverityDimension],
      description: 'The dimensions weighed (e.g. financial impact, detectability).',
      resolve: (s) => s.dimensions,
    }),
  }),
});
const RiskProfile = builder.objectRef<ai.RiskProfile & { rowsUsed: number; rowsTotal: number; cached: boolean }>('AiRiskProfile').implement({
  description: 'The AI’s assessment of one access risk of one user, from that user’s rows of the risk.',
  fields: (t) => ({
    accessRiskId: t.exposeString('accessRiskId', { description: 'The access risk id profiled.' }),
    riskDescription: t.exposeString('riskDescription', { description: 'The risk’s description, as in the loaded data.' }),
    riskNature: t.exposeString('riskNature', { description: 'What kind of risk this is, in the AI’s words.' }),
    functionAnalysis: t.exposeString('functionAnalysis', { description: 'How the conflicting functions combine into the risk.' }),
    severityAssessment: t.field({ type: SeverityAssessment, description: 'How severe the risk is, and why.', resolve: (p) => p.severityAssessment }),
    conclusion: t.exposeString('conclusion', { description: 'A one-paragraph summary.' }),
    recommendedActions: t.exposeStringList('recommendedActions', { description: 'What the AI recommends doing, most important first.' }),
    rowsUsed: t.exposeInt('rowsUsed', { description: 'Rows of the risk for the user that the prompt carried.' }),
    rowsTotal: t.exposeInt('rowsTotal', { description: 'Rows of the risk for the user in the loaded data.' }),
    cached: t.exposeBoolean('cached', { description: 'Answered from an identical earlier request: nothing was paid.' }),
  }),
});

const UsageDay = builder.objectRef<ai.UsageDay>('AiUsageDay').implement({
  description: 'The AI calls of one day.',
  fields: (t) => ({
    day: t.exposeString('day', { description: 'YYYY-MM-DD (UTC).' }),
    calls: t.exposeInt('calls', { description: 'Calls made that day.' }),
    failed: t.exposeInt('failed', { description: 'Of those, calls that failed.' }),
    cost: t.exposeFloat('cost', { description: 'US dollars.' }),
  }),
});
const UsageStats = builder.objectRef<ai.UsageStats>('AiUsageStats').implement({
  description: 'AI calls of the last 30 days.',
  fields: (t) => ({
    totalCalls: t.exposeInt('totalCalls', { description: 'Calls made in the 30 days.' }),
    successfulCalls: t.exposeInt('successfulCalls', { description: 'Of those, calls that answered.' }),
    failedCalls: t.exposeInt('failedCalls', { description: 'Of those, calls that failed.' }),
    totalCost: t.exposeFloat('totalCost', { description: 'US dollars.' }),
    totalTokens: t.exposeInt('totalTokens', { description: 'Model tokens used (prompt and answer), which the cost is based on.' }),
    days: t.field({ type: [UsageDay], description: 'One entry per day with calls, oldest first.', resolve: (s) => s.days }),
  }),
});

builder.queryFields((t) => ({
  aiUsageStats: t.field({
    type: UsageStats,
    description: 'The AI calls of the last 30 days and what they cost (administrators).',
    authScopes: { admin: true },
    resolve: (_root, _args, ctx) => ai.usageStats(ctx.caller!),
  }),
}));

builder.mutationFields((t) => ({
  categorizeRisk: t.field({
    type: Categorization,
    description: 'Suggests a category for a risk id and stores it on every row of that risk.',
    authScopes: { signedIn: true },
    errors: { types: [ValidationError] },
    args: { riskId: t.arg.string({ required: true, description: 'The access risk id to categorise.' }) },
    resolve: (_root, args, ctx) => ai.categorizeRisk(ctx.caller!, args),
  }),
  decideAiSuggestion: t.field({
    type: SuggestionDecision,
    description: 'Accepts or rejects the suggested category of a risk id.',
    authScopes: { signedIn: true },
    errors: { types: [ValidationError] },
    args: {
      riskId: t.arg.string({ required: true, description: 'The access risk id whose suggested category is decided.' }),
      accepted: t.arg.boolean({ required: true, description: 'true to accept the suggestion, false to reject it.' }),
    },
    resolve: (_root, args, ctx) => ai.acceptSuggestion(ctx.caller!, args.riskId, { accepted: args.accepted }),
  }),
  generateRiskProfile: t.field({
    type: RiskProfile,
    description: "A risk profile of a risk for a user, written from that user's rows of it.",
    authScopes: { signedIn: true },
    errors: { types: [ValidationError] },
    args: {
      accessRiskId: t.arg.string({ required: true, description: 'The access risk id to profile for that user.' }),
      userId: t.arg.string({ required: true, description: 'The user (id in the loaded data) whose risk is profiled.' }),
    },
    resolve: (_root, args, ctx) => ai.riskProfile(ctx.caller!, args),
  }),
}));
