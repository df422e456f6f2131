// REST: dashboard figures, and the risk queue's CSV export.
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import * as dashboard from '../services/dashboard.js';
import * as risks from '../services/risks.js';

export function registerDashboardRoutes(app: FastifyInstance) {
  app.get('/api/dashboard/stats', { config: { access: 'signedIn' } }, async (req) => dashboard.dashboardStats(req.ctx.prisma, req.ctx.user!));

  // Export Results (the filtered queue, with the viewer's own decisions) and the
  // dashboard's risk report (SPEC §7 /api/reports/risk-report; for administrators
  // with every reviewer's decisions): CSV, UTF-8 with BOM so Excel reads accents, streamed.
  const exportCsv = (everyReviewer: boolean) => async (req: FastifyRequest<{ Querystring: risks.RiskFilter }>, reply: FastifyReply) => {
    // Validate the filter before the first byte goes out, so bad input is a 400, not a broken file.
    risks.validateFilter(req.query);
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    async function* body() {
      yield '\uFEFF';
      yield* risks.exportRisksCsv(req.ctx.deps, req.ctx.user!, req.query, { everyReviewer });
    }
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="risk-export-${stamp}.csv"`)
      .send(Readable.from(body()));
  };
  app.get<{ Querystring: risks.RiskFilter }>('/api/risks/export', { config: { access: 'signedIn' } }, exportCsv(false));
  app.get<{ Querystring: risks.RiskFilter }>('/api/reports/risk-report', { config: { access: 'signedIn' } }, exportCsv(true));
}
