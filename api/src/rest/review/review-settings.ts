// REST: the review settings (fallback reviewers, business process owners) and
// the rows nobody but the fallback reviewers holds ('Unassigned conflicts').
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import * as coverage from '../../services/review/coverage.js';
import * as settings from '../../services/review/review-settings.js';
import { routeSchema, wholeNumber } from '../edge.js';

const SettingsJson = z.strictObject({
  fallbackReviewerIds: z.array(z.uuid()).describe('Active reviewers who receive every in-scope row that no assignment criterion gives to anyone'),
  processOwners: z.record(z.string(), z.array(z.uuid())).describe('The owners of each business process, by user id'),
});
const UnassignedJson = z.strictObject({
  total: z.number().int().describe('Live rows no reviewer holds: they go to the fallback reviewers, or to nobody'),
  nobody: z.number().int().describe('Of those, the rows nobody can review (the dashboard’s Unassigned conflicts)'),
  rows: z.array(
    z.strictObject({
      id: z.number().int(),
      userId: z.string(),
      userName: z.string(),
      accessRiskId: z.string(),
      riskDescription: z.string(),
      riskLevel: z.string(),
      system: z.string(),
      roleProfile: z.string(),
      reason: z
        .enum(['self-review', 'unassigned'])
        .describe("'self-review': routed away from reviewers whose own access it is; 'unassigned': no criterion matches it"),
      route: z.enum(['fallback', 'nobody']).describe('Who reviews it: the fallback reviewers, or nobody'),
    }),
  ),
});
const PageQuery = z.object({ limit: wholeNumber('limit', 1, 500).optional(), offset: wholeNumber('offset', 0, 1_000_000_000).optional() });

export function registerReviewSettingsRoutes(app: FastifyInstance) {
  app.get(
    '/api/review-settings',
    { config: { access: 'admin' }, schema: routeSchema({ summary: 'The fallback reviewers and the business process owners', reply: SettingsJson }) },
    async (req) => settings.getReviewSettings(req.ctx.caller!),
  );

  app.put<{ Body: settings.ReviewSettingsInput }>(
    '/api/review-settings',
    {
      config: { access: 'admin' },
      schema: routeSchema({
        summary: 'Sets the fallback reviewers (active reviewers) and the business process owners; a field left out keeps its value',
        body: settings.reviewSettingsSchema,
        reply: SettingsJson,
      }),
    },
    async (req) => settings.updateReviewSettings(req.ctx.caller!, req.body),
  );

  app.get<{ Querystring: z.infer<typeof PageQuery> }>(
    '/api/unassigned-conflicts',
    {
      config: { access: 'admin' },
      schema: routeSchema({
        summary: 'The rows no assignment gives to a reviewer who may review them, in row order',
        querystring: PageQuery,
        reply: UnassignedJson,
      }),
    },
    async (req) => {
      const r = await coverage.listUnassigned(req.ctx.caller!, {
        limit: req.query.limit as number | undefined,
        offset: req.query.offset as number | undefined,
      });
      return { ...r, rows: r.rows.map((row) => ({ ...row, id: Number(row.id) })) };
    },
  );
}
