// REST: the risk queue, assigned risks, the systems, and the CSV exports of
// the queue and of the risk report (SPEC §7 /api/risks, /api/assigned-risks,
// /api/reports/risk-report).
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import * as risks from '../services/risks.js';
import { exportRisksCsv } from '../services/risk-export.js';
import { routeSchema, text, wholeNumber } from './edge.js';
import { consumeRate } from '../services/rate-limits.js';

/** The queue's filter (services/risks.ts checks the same bounds for GraphQL). */
const FilterQuery = z.object(
  Object.fromEntries(risks.FILTER_FIELDS.map((f) => [f, text(f, risks.MAX_FILTER_VALUE_LENGTH).optional()])) as Record<
    keyof risks.RiskFilter,
    z.ZodOptional<z.ZodString>
  >,
);
/** The filter and a page: by number, or after/before a row id (keyset). */
const PageQuery = FilterQuery.extend({
  page: wholeNumber('page', 1, risks.MAX_PAGE).optional(),
  limit: wholeNumber('limit', 1, risks.MAX_PAGE_SIZE).optional(),
  after: text('after', 40).optional(),
  before: text('before', 40).optional(),
});
type RiskQuery = z.infer<typeof PageQuery>;

export function registerRiskRoutes(app: FastifyInstance) {
  app.get<{ Querystring: RiskQuery }>('/api/risks', { config: { access: 'admin' }, schema: routeSchema({ querystring: PageQuery }) }, async (req) => {
    const r = await risks.listRisks(req.ctx.prisma, req.ctx.viewer!, req.query, req.query);
    return { risks: r.risks.map(risks.riskRowJson), total: r.total, page: r.page, limit: r.limit };
  });

  app.get<{ Querystring: RiskQuery }>('/api/assigned-risks', { config: { access: 'reviewer' }, schema: routeSchema({ querystring: PageQuery }) }, async (req) => {
    const [summary, page] = await Promise.all([
      risks.assignedSummary(req.ctx.prisma, req.ctx.viewer!),
      risks.listRisks(req.ctx.prisma, req.ctx.viewer!, req.query, { page: req.query.page, limit: req.query.limit ?? 100 }),
    ]);
    return { ...summary, risks: page.risks.map(risks.riskRowJson), total: page.total, page: page.page, limit: page.limit };
  });

  app.get('/api/risks/systems', { config: { access: 'signedIn' } }, async (req) => risks.listSystems(req.ctx.prisma, req.ctx.viewer!));

  // Export Results (the filtered queue, with the viewer's own decisions) and the
  // dashboard's risk report (SPEC §7 /api/reports/risk-report; for administrators
  // with every reviewer's decisions): CSV, UTF-8 with BOM so Excel reads accents, streamed.
  const exportCsv = (everyReviewer: boolean) => async (req: FastifyRequest<{ Querystring: risks.RiskFilter }>, reply: FastifyReply) => {
    // Validate the filter before the first byte goes out, so bad input is a 400, not a broken file.
    risks.validateFilter(req.query);
    await consumeRate(req.ctx.deps, 'export', req.ctx.user!.id);
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    async function* body() {
      yield '\uFEFF';
      yield* exportRisksCsv(req.ctx.deps, req.ctx.viewer!, req.query, { everyReviewer });
    }
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="risk-export-${stamp}.csv"`)
      .send(Readable.from(body()));
  };
  app.get<{ Querystring: risks.RiskFilter }>('/api/risks/export', { config: { access: 'signedIn' }, schema: routeSchema({ querystring: FilterQuery }) }, exportCsv(false));
  app.get<{ Querystring: risks.RiskFilter }>(
    '/api/reports/risk-report',
    { config: { access: 'signedIn' }, schema: routeSchema({ querystring: FilterQuery }) },
    exportCsv(true),
  );
}
