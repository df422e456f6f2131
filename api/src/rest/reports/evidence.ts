// REST: the auditor evidence of a review period (GET /api/reports/evidence?periodId=…&format=xlsx|csv).
import { PassThrough, Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ValidationError } from '../../core/errors.js';
import { routeSchema, text } from '../edge.js';
import { csvFile, totalRowsHeader } from '../replies.js';
import { TOTAL_ROWS_HEADER } from '../../services/reports/exports.js';
import { periodEvidence } from '../../services/reports/period-evidence.js';
import { EVIDENCE_FORMATS, evidenceCsv, evidenceFileName, writeEvidenceXlsx, type EvidenceFormat } from '../../services/reports/evidence-export.js';

const CONTENT_TYPE: Record<EvidenceFormat, string> = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv; charset=utf-8',
};

const EvidenceQuery = z.object({
  periodId: text('periodId', 100).optional().describe('The review period (required)'),
  format: z.enum(EVIDENCE_FORMATS, { error: 'format must be xlsx or csv' }).optional().describe('xlsx (default) or csv'),
});

export function registerEvidenceRoutes(app: FastifyInstance) {
  app.get<{ Querystring: { periodId?: string; format?: string } }>(
    '/api/reports/evidence',
    {
      config: { access: 'admin' },
      schema: routeSchema({
        querystring: EvidenceQuery,
        replyDescription: 'The evidence file of the period (Content-Disposition names it), streamed',
        replyHeaders: totalRowsHeader('The final decisions the file lists (its Decisions sheet or lines), known before the first byte'),
        replyFiles: {
          'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': {
            schema: { type: 'string', format: 'binary', description: '?format=xlsx (default)' },
          },
          ...csvFile('?format=csv'),
        },
      }),
    },
    async (req, reply) => {
      const format = (req.query.format ?? 'xlsx') as EvidenceFormat;
      if (!EVIDENCE_FORMATS.includes(format)) throw new ValidationError('format must be xlsx or csv', 'format');
      if (!req.query.periodId) throw new ValidationError('periodId is required', 'periodId');
      // Everything that can fail with a message fails before the first byte.
      const evidence = await periodEvidence(req.ctx.caller!, req.query.periodId);
      reply
        .header(TOTAL_ROWS_HEADER, String(evidence.scope.summary.decisions))
        .header('content-type', CONTENT_TYPE[format])
        .header('content-disposition', `attachment; filename="${evidenceFileName(evidence, format)}"`);
      if (format === 'csv') {
        async function* body() {
          yield '\uFEFF';
          yield* evidenceCsv(evidence);
        }
        return reply.send(Readable.from(body()));
      }
      const out = new PassThrough();
      writeEvidenceXlsx(evidence, out).catch((err: Error) => out.destroy(err));
      return reply.send(out);
    },
  );
}
