// REST: 'Purge All Risk Data' (SPEC §7 DELETE /api/admin/purge-risk-data).
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { purgeRiskData } from '../../services/uploads/purge.js';
import { isoDate, routeSchema } from '../edge.js';

const count = z.number().int();

export function registerPurgeRoutes(app: FastifyInstance) {
  app.delete(
    '/api/admin/purge-risk-data',
    {
      config: { access: 'admin' },
      schema: routeSchema({
        summary: 'Delete all risk data in one transaction (users, settings, notifications and the audit trail stay)',
        reply: z.strictObject({
          message: z.string(),
          purgedAt: isoDate(),
          deleted: z
            .strictObject({
              riskRows: count,
              uploads: count,
              decisions: count,
              submissions: count,
              assignments: count,
              analysisResults: count,
              simulations: count,
              aiRiskProfiles: count,
            })
            .describe('Rows deleted per table'),
        }),
      }),
    },
    async (req) => {
      const r = await purgeRiskData(req.ctx.caller!);
      return { message: 'All user risk data has been purged successfully', purgedAt: r.purgedAt, deleted: r.deleted };
    },
  );
}
