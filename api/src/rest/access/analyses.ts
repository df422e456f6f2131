// REST: access analysis runs (administrators): start one (202, run in the
// background), read its status and counts, download its conflicts as CSV in
// the risk report's columns, as CSV or XLSX (services/access/analysis.ts,
// conflicts.ts, conflicts-xlsx.ts).
import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import * as analysis from '../../services/access/analysis.js';
import { completedAnalysis, conflictsCsv } from '../../services/access/conflicts.js';
import { writeConflictsXlsx } from '../../services/access/conflicts-xlsx.js';
import * as review from '../../services/access/review.js';
import { TOTAL_ROWS_HEADER } from '../../services/reports/exports.js';
import { csvFile, sendCsvExport, totalRowsHeader } from '../replies.js';
import { idParams, isoDate, routeSchema } from '../edge.js';
import { ConflictError } from '../../core/errors.js';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const AnalysisJson = z.strictObject({
  id: z.uuid(),
  ruleSetId: z.uuid(),
  test: z.boolean().describe('A test run: its rule set version is not the active one; compared with compareTo, never sent to the review'),
  compareTo: z
    .uuid()
    .nullable()
    .describe('A test run: the latest completed run of the active version it is compared with (null: none yet, all its conflicts are added)'),
  systems: z.array(z.string()).describe('The systems analysed'),
  asOf: z.iso.date().describe('The analysis date (YYYY-MM-DD)'),
  status: z.enum(['processing', 'completed', 'failed']),
  progress: z.number().int().describe('Percent done'),
  conflicts: z.number().int().describe('(user, risk) conflicts'),
  rows: z.number().int().describe('Rows of those conflicts (conflicts.csv)'),
  users: z.number().int().describe('Users with at least one conflict'),
  exercised: z.number().int().describe('Conflicts whose every function the user ran (USAGE)'),
  added: z
    .number()
    .int()
    .describe(
      '(user, risk) pairs not in the previous completed run of the same rule set version (a first run: all); of a test run, not in compareTo (it would add them)',
    ),
  removed: z
    .number()
    .int()
    .describe(
      '(user, risk) pairs of the previous completed run of the same rule set version no longer found; of a test run, those of compareTo it would remove',
    ),
  recomputedUsers: z
    .number()
    .int()
    .nullable()
    .describe(
      'Users whose conflicts this run computed: every analysed user in a full run, only the users a new extract touched in an incremental run (null before it completes)',
    ),
  baseRunId: z.uuid().nullable().describe('The run an incremental run copied every other user from; null for a full run'),
  startedBy: z.string().nullable(),
  startedAt: isoDate(),
  finishedAt: isoDate().nullable(),
  errorMessage: z.string().nullable(),
});

/** A run as its JSON shows it: the analysis date as YYYY-MM-DD. */
function analysisJson(run: Awaited<ReturnType<typeof analysis.getAnalysis>>) {
  const { compareToId, ...rest } = run;
  return { ...rest, compareTo: compareToId, asOf: run.asOf.toISOString().slice(0, 10) };
}

const ChangeJson = z.strictObject({ userId: z.string(), riskId: z.string(), riskDescription: z.string() });
const ChangesJson = z.strictObject({
  compareTo: z.uuid().nullable().describe('The run of the active version compared with (null: none, every conflict would be added)'),
  wouldAdd: z
    .array(ChangeJson)
    .describe(`Conflicts the test run found that compareTo did not, by user then risk (at most ${analysis.MAX_CHANGES}; added counts them all)`),
  wouldRemove: z.array(ChangeJson).describe(`Conflicts of compareTo the test run did not find (at most ${analysis.MAX_CHANGES}; removed counts them all)`),
});

export function registerAnalysisRoutes(app: FastifyInstance) {
  app.post<{ Body: analysis.AnalysisInput }>(
    '/api/analyses',
    {
      config: { access: 'admin' },
      schema: routeSchema({
        summary:
          'Start an analysis of a rule set version against the current extracts (systems left out: every system with one) on a date (today unless given)',
        body: analysis.analysisInputSchema,
        reply: z.strictObject({ id: z.uuid().describe('Follow it with GET /api/analyses/{id}') }),
        replyStatus: 202,
      }),
    },
    async (req, reply) => reply.status(202).send(await analysis.startAnalysis(req.ctx.caller!, req.body)),
  );

  app.get<{ Params: { id: string } }>(
    '/api/analyses/:id',
    { config: { access: 'admin' }, schema: routeSchema({ params: idParams, reply: AnalysisJson }) },
    async (req) => analysisJson(await analysis.getAnalysis(req.ctx.caller!, req.params.id)),
  );

  app.get<{ Params: { id: string } }>(
    '/api/analyses/:id/changes',
    {
      config: { access: 'admin' },
      schema: routeSchema({
        summary:
          'What a completed test run would change against the latest completed run of the active version: the conflicts it would add and remove; 409 for a run that is not a test or has not completed',
        params: idParams,
        reply: ChangesJson,
      }),
    },
    async (req) => {
      const caller = req.ctx.caller!;
      const run = await completedAnalysis(caller, req.params.id);
      if (!run.test) throw new ConflictError('This run is not a test run: its added and removed count against the previous run of its own version');
      const [wouldAdd, wouldRemove] = await Promise.all([analysis.testChanges(caller, run, 'add'), analysis.testChanges(caller, run, 'remove')]);
      return { compareTo: run.compareToId, wouldAdd, wouldRemove };
    },
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
      const caller = req.ctx.caller!;
      const run = await completedAnalysis(caller, req.params.id);
      return sendCsvExport(reply, { name: `conflicts-${run.id}.csv`, totalRows: run.rows, lines: conflictsCsv(caller, run.id) });
    },
  );

  app.get<{ Params: { id: string } }>(
    '/api/analyses/:id/conflicts.xlsx',
    {
      config: { access: 'admin' },
      schema: routeSchema({
        summary: "A completed run's conflict rows as a workbook, in the same columns as conflicts.csv (it loads back through Data Upload); 409 while it runs",
        params: idParams,
        replyDescription: 'The workbook, streamed (one sheet; Content-Disposition names the file).',
        replyFiles: {
          [XLSX]: {
            schema: { type: 'string', format: 'binary', description: 'A header row (User ID, User Name, …, Last Executed On), then a row per conflict row' },
          },
        },
        replyHeaders: totalRowsHeader('The rows the workbook carries, known before the first byte.'),
      }),
    },
    async (req, reply) => {
      // Everything that can fail with a message fails before the first byte.
      const caller = req.ctx.caller!;
      const run = await completedAnalysis(caller, req.params.id);
      reply
        .header(TOTAL_ROWS_HEADER, String(run.rows))
        .header('content-type', XLSX)
        .header('content-disposition', `attachment; filename="conflicts-${run.id}.xlsx"`);
      const out = new PassThrough();
      writeConflictsXlsx(caller, run.id, out).catch((err: Error) => out.destroy(err));
      return reply.send(out);
    },
  );

  app.post<{ Params: { id: string }; Body: review.SendToReviewInput }>(
    '/api/analyses/:id/review',
    {
      config: { access: 'admin' },
      schema: routeSchema({
        summary:
          "Send a completed run's conflicts to the review as a data upload (append or replace; decisions carried over on replace as for a replaced file); 409 while it runs",
        params: idParams,
        body: review.sendToReviewSchema,
        reply: z.strictObject({ uploadId: z.uuid().describe('Follow it with GET /api/upload-status/{uploadId}') }),
        replyStatus: 202,
      }),
    },
    async (req, reply) => {
      const upload = await review.sendToReview(req.ctx.caller!, req.params.id, req.body);
      return reply.status(202).send({ uploadId: upload.id });
    },
  );
}
