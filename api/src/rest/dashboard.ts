// REST: dashboard figures (SPEC §7 /api/dashboard/stats).
import type { FastifyInstance } from 'fastify';
import * as dashboard from '../services/dashboard.js';

export function registerDashboardRoutes(app: FastifyInstance) {
  app.get('/api/dashboard/stats', { config: { access: 'signedIn' } }, async (req) => dashboard.dashboardStats(req.ctx.prisma, req.ctx.viewer!));
  app.get<{ Querystring: { range?: string } }>('/api/dashboard/trend', { config: { access: 'signedIn' } }, async (req) =>
    dashboard.dashboardTrend(req.ctx.prisma, req.ctx.viewer!, req.query.range ?? '30d'),
  );
  app.get('/api/dashboard/categories', { config: { access: 'signedIn' } }, async (req) => dashboard.riskCategories(req.ctx.prisma, req.ctx.viewer!));
}
