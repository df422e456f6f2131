// REST: bulk AI categorisation (beyond SPEC §7): the estimate and latest run, and starting one.
import type { FastifyInstance, FastifySchema } from 'fastify';
import { z } from 'zod';
import * as bulk from '../../services/ai/ai-bulk.js';

const doc = (summary: string, reply: z.ZodType, replyStatus?: number) => ({ summary, reply, replyStatus }) as FastifySchema;
const ProgressJson = z.strictObject({
  runId: z.uuid(),
  status: z.enum(['running', 'completed', 'capped', 'failed']).describe('capped: stopped at the spend cap'),
  total: z.number().int(),
  done: z.number().int(),
  failed: z.number().int(),
  costUsd: z.number(),
  spendCapUsd: z.number().nullable(),
  error: z.string().nullable(),
});
const EstimateJson = z.strictObject({
  uncategorized: z.number().int().describe('Risk ids without a category'),
  estimatedCostUsd: z.number(),
  perCallUsd: z.number(),
  spendCapUsd: z.number().nullable(),
});

export function registerAiBulkRoutes(app: FastifyInstance) {
  app.get(
    '/api/ai/bulk-categorize',
    {
      config: { access: 'admin' },
      schema: doc(
        'Uncategorised risk ids with the estimated cost and spend cap, and the latest bulk run: { estimate, run }',
        z.strictObject({ estimate: EstimateJson, run: ProgressJson.nullable() }),
      ),
    },
    async (req) => {
      const run = await bulk.latestBulkRun(req.ctx.caller!);
      return { estimate: await bulk.estimateBulk(req.ctx.caller!), run: run ? bulk.progressOf(run) : null };
    },
  );

  app.post(
    '/api/ai/bulk-categorize',
    {
      config: { access: 'admin' },
      schema: doc('Start categorising every uncategorised risk id in the background (one run at a time)', z.strictObject({ run: ProgressJson }), 202),
    },
    async (req, reply) => reply.status(202).send({ run: bulk.progressOf(await bulk.startBulk(req.ctx.caller!)) }),
  );
}
