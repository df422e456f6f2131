// REST: risk analysis (SPEC §7 /api/risk-analysis/*).
import type { FastifyInstance } from 'fastify';
import * as analysis from '../../services/reports/risk-analysis.js';
import { z } from 'zod';
import { isoDate, routeSchema } from '../edge.js';

const STATUS = z.enum(['red', 'green']).describe('red: a high-risk rule still holds');
const Breakdown = z.array(
  z.strictObject({
    riskId: z.string(),
    status: STATUS,
    mitigated: z.boolean().optional().describe('Red, but every red row is kept under a mitigating control'),
  }),
);
const AnalysisJson = z.strictObject({
  id: z.uuid(),
  userId: z.string(),
  userStatus: STATUS,
  riskBreakdown: Breakdown,
  redCount: z.number().int(),
  mitigatedCount: z.number().int(),
  totalRisks: z.number().int(),
  timestamp: isoDate(),
});

export function registerRiskAnalysisRoutes(app: FastifyInstance) {
  app.post(
    '/api/risk-analysis/baseline-vs-simulation',
    { config: { access: 'signedIn' }, schema: routeSchema({ body: analysis.analysisInputSchema, reply: z.strictObject({ analysis: AnalysisJson }) }) },
    async (req) => ({
      analysis: await analysis.analyseUser(req.ctx.caller!, req.body),
    }),
  );

  // The latest result per user, keyed by user id.
  app.get(
    '/api/risk-analysis/latest-results',
    {
      config: { access: 'signedIn' },
      schema: routeSchema({
        reply: z.record(z.string(), z.strictObject({ status: STATUS, timestamp: isoDate(), riskBreakdown: Breakdown })).describe('By user id'),
      }),
    },
    async (req) => {
      const results = await analysis.latestResults(req.ctx.caller!);
      return Object.fromEntries(results.map((r) => [r.userId, { status: r.userStatus, timestamp: r.timestamp, riskBreakdown: r.riskBreakdown }]));
    },
  );
}
