// REST: the remediation list (GET /api/remediation[?format=csv], PUT /api/remediation/{id}).
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import * as remediation from '../../services/review/remediation.js';
import { idParams, isoDate, routeSchema, text, wholeNumber } from '../edge.js';
import { csvFile, sendCsvExport, totalRowsHeader } from '../replies.js';

const ItemJson = z.strictObject({
  id: z.uuid(),
  periodId: z.uuid(),
  periodName: z.string(),
  userId: z.string(),
  userName: z.string(),
  system: z.string(),
  roleProfile: z.string(),
  compositeRole: z.string(),
  riskIds: z.string().describe('The access risk ids the removal resolves'),
  riskLevel: z.enum(['high', 'medium', 'low']),
  decidedBy: z.string(),
  approvedBy: z.string(),
  approvedAt: isoDate().nullable(),
  status: z.enum(remediation.REMEDIATION_STATUSES),
  statusNote: z.string().nullable(),
  statusSetBy: z.string().nullable(),
  statusSetAt: isoDate().nullable(),
  verifiedAt: isoDate().nullable().describe('When a later upload showed the access gone'),
  reopenedCount: z.number().int(),
});

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
    {
      config: { access: 'admin' },
      schema: routeSchema({
        summary: 'The remediation list (approved removals), as JSON or CSV',
        querystring: ListQuery,
        reply: z.strictObject({ items: z.array(ItemJson), total: z.number().int() }),
        replyFiles: csvFile('?format=csv: every item matching the filter'),
        replyHeaders: totalRowsHeader(
          '?format=csv: the items the file lists after its header line, known before the first byte (the file has no Content-Length)',
        ),
      }),
    },
    async (req, reply) => {
      const { format, limit, offset, ...filter } = req.query;
      if (format === 'csv') {
        const file = await remediation.remediationExport(req.ctx.caller!, filter);
        const stamp = new Date().toISOString().replace(/[:.]/g, '-');
        return sendCsvExport(reply, { name: `remediation-${stamp}.csv`, ...file });
      }
      const r = await remediation.listRemediation(req.ctx.caller!, filter, { limit, offset });
      return { items: r.items.map(remediation.remediationJson), total: r.total };
    },
  );

  app.put<{ Params: { id: string }; Body: z.infer<typeof StatusBody> }>(
    '/api/remediation/:id',
    {
      config: { access: 'admin' },
      schema: routeSchema({ summary: 'Sets a remediation item open, done or failed', params: idParams, body: StatusBody, reply: ItemJson }),
    },
    async (req) => remediation.remediationJson(await remediation.setRemediationStatus(req.ctx.caller!, req.params.id, req.body.status, req.body.note)),
  );
}
