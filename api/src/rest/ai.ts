// REST: the AI assist (SPEC §7 /api/ai/*).
import type { FastifyInstance, FastifySchema } from 'fastify';
import { z } from 'zod';
import * as ai from '../services/ai.js';

/** The route's summary in the document, with its inputs (the services' own schemas: one rule, one home). */
const doc = (summary: string, inputs: { body?: z.ZodType; params?: z.ZodType } = {}) => ({ summary, ...inputs }) as FastifySchema;
const RiskIdParams = z.object({ riskId: ai.riskIdField });

export function registerAiRoutes(app: FastifyInstance) {
  app.post(
    '/api/ai/categorize-risk',
    { config: { access: 'signedIn' }, schema: doc('Suggest a category for a risk id { riskId, ... } and store it on its rows: { suggestedCategory, confidence, processedAt }', { body: ai.categorizeInput }) },
    async (req) => {
      const r = await ai.categorizeRisk(req.ctx.deps, req.ctx.viewer!, req.ctx.actor, req.body);
      return { suggestedCategory: r.suggestedCategory, confidence: r.confidence, processedAt: r.processedAt, processingMs: r.processingMs, cached: r.cached };
    },
  );

  app.post<{ Params: { riskId: string } }>(
    '/api/ai/accept-suggestion/:riskId',
    { config: { access: 'signedIn' }, schema: doc('Accept or reject the suggested category of a risk id { accepted }', { body: ai.acceptInput, params: RiskIdParams }) },
    async (req) => ai.acceptSuggestion(req.ctx.deps, req.ctx.viewer!, req.ctx.actor, req.params.riskId, req.body),
  );

  app.post(
    '/api/ai/risk-profile',
    { config: { access: 'signedIn' }, schema: doc('A risk profile of a risk for a user { accessRiskId, userId }, written from their rows', { body: ai.profileInput }) },
    async (req) => ai.riskProfile(req.ctx.deps, req.ctx.viewer!, req.ctx.actor, req.body),
  );

  app.get(
    '/api/ai/usage-stats',
    { config: { access: 'admin' }, schema: doc('AI calls of the last 30 days: { totalCalls, successfulCalls, failedCalls, totalCost, totalTokens, days }') },
    async (req) => ai.usageStats(req.ctx.deps),
  );
}
