// REST: the AI assist (SPEC §7 /api/ai/*).
import type { FastifyInstance, FastifySchema } from 'fastify';
import { z } from 'zod';
import * as ai from '../../services/ai/ai.js';
import { isoDate, type RouteSchema } from '../edge.js';

/** The route's summary in the document, with its inputs (the services' own schemas: one rule, one home). */
const doc = (summary: string, inputs: RouteSchema = {}) => ({ summary, ...inputs }) as FastifySchema;
const CategorizationJson = z.strictObject({
  suggestedCategory: z.enum(ai.AI_CATEGORIES),
  confidence: z.number().describe('From 0 to 1'),
  processedAt: isoDate(),
  processingMs: z.number().int().describe('How long the answer took (0 from the cache)'),
  cached: z.boolean(),
});
const ProfileJson = z.strictObject({
  accessRiskId: z.string(),
  riskDescription: z.string(),
  riskNature: z.string(),
  functionAnalysis: z.string(),
  severityAssessment: z.strictObject({
    level: z.enum(['Critical', 'High', 'Medium', 'Low']),
    reasoning: z.string(),
    dimensions: z.array(z.strictObject({ dimension: z.string(), observation: z.string(), impact: z.string() })),
  }),
  conclusion: z.string(),
  recommendedActions: z.array(z.string()),
  cached: z.boolean(),
  rowsUsed: z.number().int().describe('Rows of the user and risk the profile was written from'),
  rowsTotal: z.number().int(),
});
const UsageJson = z.strictObject({
  totalCalls: z.number().int(),
  successfulCalls: z.number().int(),
  failedCalls: z.number().int(),
  totalCost: z.number().describe('US dollars'),
  totalTokens: z.number().int(),
  days: z.array(z.strictObject({ day: z.iso.date(), calls: z.number().int(), failed: z.number().int(), cost: z.number() })).describe('Per day (UTC)'),
});
const RiskIdParams = z.object({ riskId: ai.riskIdField });

export function registerAiRoutes(app: FastifyInstance) {
  app.post(
    '/api/ai/categorize-risk',
    {
      config: { access: 'signedIn' },
      schema: doc('Suggest a category for a risk id { riskId, ... } and store it on its rows: { suggestedCategory, confidence, processedAt }', {
        body: ai.categorizeInput,
        reply: CategorizationJson,
      }),
    },
    async (req) => {
      const r = await ai.categorizeRisk(req.ctx.caller!, req.body);
      return { suggestedCategory: r.suggestedCategory, confidence: r.confidence, processedAt: r.processedAt, processingMs: r.processingMs, cached: r.cached };
    },
  );

  app.post<{ Params: { riskId: string } }>(
    '/api/ai/accept-suggestion/:riskId',
    {
      config: { access: 'signedIn' },
      schema: doc('Accept or reject the suggested category of a risk id { accepted }', {
        body: ai.acceptInput,
        params: RiskIdParams,
        reply: z.strictObject({ riskId: z.string(), accepted: z.boolean(), suggestedCategory: z.string() }),
      }),
    },
    async (req) => ai.acceptSuggestion(req.ctx.caller!, req.params.riskId, req.body),
  );

  app.post(
    '/api/ai/risk-profile',
    {
      config: { access: 'signedIn' },
      schema: doc('A risk profile of a risk for a user { accessRiskId, userId }, written from their rows', { body: ai.profileInput, reply: ProfileJson }),
    },
    async (req) => ai.riskProfile(req.ctx.caller!, req.body),
  );

  app.get(
    '/api/ai/usage-stats',
    {
      config: { access: 'admin' },
      schema: doc('AI calls of the last 30 days: { totalCalls, successfulCalls, failedCalls, totalCost, totalTokens, days }', { reply: UsageJson }),
    },
    async (req) => ai.usageStats(req.ctx.caller!),
  );
}
