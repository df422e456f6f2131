// REST: dashboard figures (SPEC §7 /api/dashboard/stats).
import type { FastifyInstance } from 'fastify';
import * as dashboard from '../services/dashboard.js';

export function registerDashboardRoutes(app: FastifyInstance) {
  app.get('/api/dashboard/stats', { config: { access: 'signedIn' } }, async (req) => dashboard.dashboardStats(req.ctx.prisma, req.ctx.viewer!));
}
