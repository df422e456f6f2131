// REST: the remediation list (GET /api/remediation[?format=csv], PUT /api/remediation/{id}).
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import * as remediation from '../services/remediation.js';
import { idParams, routeSchema, text, wholeNumber } from './edge.js';

const ListQuery = z.object({
  periodId: text('periodId', 100).optional(),
  status: z.enum(remediation.REMEDIATION_STATUSES, { error: 'status must be open, done, failed or verified' }).optional(),
  format: z.enum(['json', 'csv'], { error: 'format must be json or csv' }).optional(),
  limit: wholeNumber('limit', 1, 500).optional(),
  offset: wholeNumber('offset', 0, 10_000_000).optional(),
});
const StatusBody = z.object({
  status: z.enum(remediation.SETTABLE_STATUSES, { error: 'status must be open, done or failed' }),
  note: text('note', remediation.MAX_NOTE_LENGTH).nullish(),
});

export function registerRemediationRoutes(app: FastifyInstance) {
  app.get<{ Querystring: z.infer<typeof ListQuery> }>(
    '/api/remediation',
    { config: { access: 'admin' }, schema: routeSchema({ summary: 'The remediation list (approved removals), as JSON or CSV', querystring: ListQuery }) },
    async (req, reply) => {
      const { format, limit, offset, ...filter } = req.query;
      if (format === 'csv') {
        const first = remediation.remediationCsv(req.ctx.prisma, filter);
        // A bad filter fails before the first byte (a 400, not a broken file).
        const head = await first.next();
        const stamp = new Date().toISOString().replace(/[:.]/g, '-');
        async function* body() {
          yield '\uFEFF';
          if (!head.done) yield head.value;
          yield* first;
        }
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="remediation-${stamp}.csv"`)
          .send(Readable.from(body()));
      }
      const r = await remediation.listRemediation(req.ctx.prisma, filter, { limit, offset });
      return { items: r.items.map(remediation.remediationJson), total: r.total };
    },
  );

  app.put<{ Params: { id: string }; Body: z.infer<typeof StatusBody> }>(
    '/api/remediation/:id',
    { config: { access: 'admin' }, schema: routeSchema({ summary: 'Sets a remediation item open, done or failed', params: idParams, body: StatusBody }) },
    async (req) => remediation.remediationJson(await remediation.setRemediationStatus(req.ctx.prisma, req.ctx.actor, req.params.id, req.body.status, req.body.note)),
  );
}
