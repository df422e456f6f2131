// REST: 'Purge All Risk Data' (SPEC §7 DELETE /api/admin/purge-risk-data).
import type { FastifyInstance, FastifySchema } from 'fastify';
import { purgeRiskData } from '../services/purge.js';

export function registerPurgeRoutes(app: FastifyInstance) {
  app.delete(
    '/api/admin/purge-risk-data',
    {
      config: { access: 'admin' },
      schema: { summary: 'Delete all risk data in one transaction (users, settings, notifications and the audit trail stay)' } as FastifySchema,
    },
    async (req) => {
      const r = await purgeRiskData(req.ctx.deps, req.ctx.actor);
      return { message: 'All user risk data has been purged successfully', purgedAt: r.purgedAt, deleted: r.deleted };
    },
  );
}
