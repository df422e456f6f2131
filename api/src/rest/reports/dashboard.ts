// REST: dashboard figures (SPEC §7 /api/dashboard/stats).
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import * as dashboard from '../../services/dashboard.js';
import { isoDate, routeSchema, text } from '../edge.js';

const StatsJson = z.strictObject({
  totalConflicts: z.number().int(),
  highRiskUsers: z.number().int(),
  newHighRiskUsers: z.number().int(),
  pendingReviews: z.number().int(),
  activeReviewers: z.number().int(),
  unassignedConflicts: z
    .number()
    .int()
    .describe('Live rows nobody can review (no reviewer holds them and no fallback reviewer may), whether or not a period is active'),
  inactiveFallbackReviewers: z
    .array(z.string())
    .describe('Fallback reviewers named in the review settings who cannot review (deactivated, or no longer reviewers)'),
});
const TrendJson = z.strictObject({
  range: z.enum(['30d', '90d', '6m']),
  points: z.array(
    z.strictObject({
      date: isoDate().describe('The start of the bucket (a day, or a week from Monday), UTC'),
      loaded: z.number().int(),
      retained: z.number().int(),
      removed: z.number().int(),
      pending: z.number().int(),
    }),
  ),
});
const TrendQuery = z.object({ range: text('range', 10).optional().describe('30d (default), 90d or 6m') });

export function registerDashboardRoutes(app: FastifyInstance) {
  app.get('/api/dashboard/stats', { config: { access: 'signedIn' }, schema: routeSchema({ reply: StatsJson }) }, async (req) =>
    dashboard.dashboardStats(req.ctx.caller!),
  );
  app.get<{ Querystring: { range?: string } }>(
    '/api/dashboard/trend',
    { config: { access: 'signedIn' }, schema: routeSchema({ querystring: TrendQuery, reply: TrendJson }) },
    async (req) => dashboard.dashboardTrend(req.ctx.caller!, req.query.range ?? '30d'),
  );
  app.get(
    '/api/dashboard/categories',
    { config: { access: 'signedIn' }, schema: routeSchema({ reply: z.array(z.strictObject({ category: z.string(), count: z.number().int() })) }) },
    async (req) => dashboard.riskCategories(req.ctx.caller!),
  );
}
