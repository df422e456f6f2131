// REST: bulk AI categorisation (beyond SPEC §7): the estimate and latest run, and starting one.
import type { FastifyInstance, FastifySchema } from 'fastify';
import * as bulk from '../services/ai-bulk.js';

const doc = (summary: string) => ({ summary }) as FastifySchema;

export function registerAiBulkRoutes(app: FastifyInstance) {
  app.get(
    '/api/ai/bulk-categorize',
    { config: { access: 'admin' }, schema: doc('Uncategorised risk ids with the estimated cost and spend cap, and the latest bulk run: { estimate, run }') },
    async (req) => {
      const run = await bulk.latestBulkRun(req.ctx.prisma);
      return { estimate: await bulk.estimateBulk(req.ctx.deps), run: run ? bulk.progressOf(run) : null };
    },
  );

  app.post(
    '/api/ai/bulk-categorize',
    { config: { access: 'admin' }, schema: doc('Start categorising every uncategorised risk id in the background (one run at a time)') },
    async (req, reply) => reply.status(202).send({ run: bulk.progressOf(await bulk.startBulk(req.ctx.deps, req.ctx.actor)) }),
  );
}
