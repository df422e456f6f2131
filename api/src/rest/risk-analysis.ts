// REST: risk analysis (SPEC §7 /api/risk-analysis/*).
import type { FastifyInstance } from 'fastify';
import * as analysis from '../services/risk-analysis.js';
import { routeSchema } from './edge.js';

export function registerRiskAnalysisRoutes(app: FastifyInstance) {
  app.post('/api/risk-analysis/baseline-vs-simulation', { config: { access: 'signedIn' }, schema: routeSchema({ body: analysis.analysisInputSchema }) }, async (req) => ({
    analysis: await analysis.analyseUser(req.ctx.prisma, req.ctx.actor, req.ctx.viewer!, req.body),
  }));

  // The latest result per user, keyed by user id.
  app.get('/api/risk-analysis/latest-results', { config: { access: 'signedIn' } }, async (req) => {
    const results = await analysis.latestResults(req.ctx.prisma, req.ctx.viewer!);
    return Object.fromEntries(results.map((r) => [r.userId, { status: r.userStatus, timestamp: r.timestamp, riskBreakdown: r.riskBreakdown }]));
  });
}
