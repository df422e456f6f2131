// REST: access analysis runs (administrators): start one (202, run in the
// background), read its status and counts, download its conflicts as CSV in
// the risk report's columns (services/access/analysis.ts, conflicts.ts).
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import * as analysis from '../../services/access/analysis.js';
import { completedAnalysis, conflictsCsv } from '../../services/access/conflicts.js';
import * as review from '../../services/access/review.js';
import { csvFile, sendCsvExport, totalRowsHeader } from '../replies.js';
import { idParams, isoDate, routeSchema } from '../edge.js';

const AnalysisJson = z.strictObject({
  id: z.uuid(),
  ruleSetId: z.uuid(),
  systems: z.array(z.string()).describe('The systems analysed'),
  asOf: z.iso.date().describe('The analysis date (YYYY-MM-DD)'),
  status: z.enum(['processing', 'completed', 'failed']),
  progress: z.number().int().describe('Percent done'),
  conflicts: z.number().int().describe('(user, risk) conflicts'),
  rows: z.number().int().describe('Rows of those conflicts (conflicts.csv)'),
  users: z.number().int().describe('Users with at least one conflict'),
  exercised: z.number().int().describe('Conflicts whose every function the user ran (USAGE)'),
  added: z.number().int().describe('(user, risk) pairs not in the previous completed run of the same rule set version (a first run: all)'),
  removed: z.number().int().describe('(user, risk) pairs of the previous completed run of the same rule set version no longer found'),
  recomputedUsers: z.number().int().nullable().describe('Users whose conflicts this run computed: every analysed user in a full run, only the users a new extract touched in an incremental run (null before it completes)'),
  baseRunId: z.uuid().nullable().describe('The run an incremental run copied every other user from; null for a full run'),
  startedBy: z.string().nullable(),
  startedAt: isoDate(),
  finishedAt: isoDate().nullable(),
  errorMessage: z.string().nullable(),
});

/** A run as its JSON shows it: the analysis date as YYYY-MM-DD. */
function analysisJson(run: Awaited<ReturnType<typeof analysis.getAnalysis>>) {
  return { ...run, asOf: run.asOf.toISOString().slice(0, 10) };
}

export function registerAnalysisRoutes(app: FastifyInstance) {
  app.post<{ Body: analysis.AnalysisInput }>(
    '/api/analyses',
    {
      config: { access: 'admin' },
      schema: routeSchema({
        summary: 'Start an analysis of a rule set version against the current extracts (systems left out: every system with one) on a date (today unless given)',
        body: analysis.analysisInputSchema,
        reply: z.strictObject({ id: z.uuid().describe('Follow it with GET /api/analyses/{id}') }),
        replyStatus: 202,
      }),
    },
    async (req, reply) => reply.status(202).send(await analysis.startAnalysis(req.ctx.deps, req.ctx.actor, req.body)),
  );

  app.get<{ Params: { id: string } }>('/api/analyses/:id', { config: { access: 'admin' }, schema: routeSchema({ params: idParams, reply: AnalysisJson }) }, async (req) =>
    analysisJson(await analysis.getAnalysis(req.ctx, req.params.id)),
  );

  app.get<{ Params: { id: string } }>(
    '/api/analyses/:id/conflicts.csv',
    {
      config: { access: 'admin' },
      schema: routeSchema({
        summary: "A completed run's conflict rows in the risk report's columns (they load back through Data Upload); 409 while it runs",
        params: idParams,
        replyDescription: 'The CSV, streamed (UTF-8 with a byte-order mark; Content-Disposition names the file).',
        replyFiles: csvFile('A header line (User ID, User Name, …, Last Executed On), then a line per conflict row'),
        replyHeaders: totalRowsHeader('The rows the file carries, known before the first byte: lines received / this = progress.'),
      }),
    },
    async (req, reply) => {
      const run = await completedAnalysis(req.ctx, req.params.id);
      return sendCsvExport(reply, { name: `conflicts-${run.id}.csv`, totalRows: run.rows, lines: conflictsCsv(req.ctx.deps, run.id) });
    },
  );

  app.post<{ Params: { id: string }; Body: review.SendToReviewInput }>(
    '/api/analyses/:id/review',
    {
      config: { access: 'admin' },
      schema: routeSchema({
        summary: "Send a completed run's conflicts to the review as a data upload (append or replace; decisions carried over on replace as for a replaced file); 409 while it runs",
        params: idParams,
        body: review.sendToReviewSchema,
        reply: z.strictObject({ uploadId: z.uuid().describe('Follow it with GET /api/upload-status/{uploadId}') }),
        replyStatus: 202,
      }),
    },
    async (req, reply) => {
      const upload = await review.sendToReview(req.ctx.deps, req.ctx.actor, req.params.id, req.body);
      return reply.status(202).send({ uploadId: upload.id });
    },
  );
}
