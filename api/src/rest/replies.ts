// The JSON of successful answers shared by several routes, as a client
// receives it (dates as ISO-8601 strings): declared as `reply` in the routes'
// schemas, published in /api/openapi.json and checked against every real answer
// while the API tests run (rest/reply-check.ts).
import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { isoDate } from './edge.js';
import { TOTAL_ROWS_HEADER } from '../services/reports/exports.js';
import { STAGE_PASS_ON, STAGE_REVIEWER_TYPES } from '../services/stages/stage-plan.js';

export const str = (description: string) => z.string().describe(description);
export const int = (description: string) => z.number().int().describe(description);

/** { success: true } and what else the route adds. */
export const Success = z.strictObject({ success: z.literal(true) });

/** core/types.ts publicUser. */
export const UserJson = z.strictObject({
  id: z.uuid(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  role: z.enum(['admin', 'reviewer']),
  isActive: z.boolean().describe('Deactivated users cannot sign in'),
  passwordResetRequired: z.boolean().describe('The user must change the password before anything else'),
  createdAt: isoDate(),
  lastLoginAt: isoDate().nullable(),
});
export const UserAnswer = z.strictObject({ user: UserJson });

/** A person named in an answer (reviewer, recipient, uploader). */
export const PersonJson = z.strictObject({ id: z.uuid(), firstName: z.string(), lastName: z.string(), email: z.string() });

/** A review period (Prisma ReviewPeriod). */
/** A period's stage as it was created (services/stages/stage-plan.ts). */
export const StagePlanJson = z.strictObject({
  name: z.string(),
  reviewers: z
    .strictObject({ type: z.enum(STAGE_REVIEWER_TYPES), userIds: z.array(z.uuid()).optional().describe('For users: who reviews') })
    .describe('criteria (as today), users (a fixed list) or processOwner (the owners of each business process)'),
  passOn: z.enum(STAGE_PASS_ON).describe("Which of the stage before's decisions reach this stage"),
  endDate: isoDate().nullable().describe("The stage's deadline"),
});

export const PeriodJson = z.strictObject({
  id: z.uuid(),
  name: z.string(),
  description: z.string().nullable(),
  startDate: isoDate(),
  endDate: isoDate().nullable(),
  status: z.enum(['active', 'closed']),
  createdById: z.uuid().nullable(),
  createdAt: isoDate(),
  closedAt: isoDate().nullable(),
  reminderDaysBefore: z.array(z.number().int()).describe('Days before the end date at which reviewers with pending items are reminded'),
  defaultDecisionAtClose: z.enum(['pending', 'retain', 'remove']).describe('What undecided rows become when the period closes'),
  stages: z.array(StagePlanJson).nullable().describe('The review stages; null: one stage (reviewers by criteria), then the approval'),
});

/** A submission of a reviewer's decisions (Prisma Submission). */
export const SubmissionJson = z.strictObject({
  id: z.uuid(),
  status: z.enum(['submitted', 'recalled', 'approved', 'returned']),
  periodId: z.uuid(),
  reviewerId: z.uuid(),
  decisionCount: z.number().int(),
  submittedAt: isoDate(),
  recalledAt: isoDate().nullable(),
  reviewedById: z.uuid().nullable(),
  reviewedAt: isoDate().nullable(),
  reviewComment: z.string().nullable(),
});

/** POST /api/upload, /api/uploads/{id}/retry, the preview's start: the upload accepted. */
export const UploadAccepted = z.strictObject({
  uploadId: z.uuid().describe('Follow it with GET /api/upload-status/{id}'),
  status: z.enum(['processing', 'completed', 'failed']),
});

/** /api/openapi.json: an OpenAPI 3.1 document (its own schema is the OpenAPI specification's). */
export const OpenApiJson = z.looseObject({
  openapi: z.string(),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.record(z.string(), z.unknown())),
  components: z.record(z.string(), z.unknown()),
});

/** A CSV file streamed as the answer (UTF-8 with a byte-order mark). */
export const csvFile = (description: string) => ({ 'text/csv': { schema: { type: 'string', description } } });

/**
 * The X-Total-Rows header every streamed export sends before its first byte
 * (the file has no Content-Length), as its route schema declares it.
 */
export const totalRowsHeader = (description: string) => ({ 'X-Total-Rows': { description, schema: { type: 'integer' } } });

/**
 * Streams a CSV export: UTF-8 with a byte-order mark (so Excel reads accents),
 * named by Content-Disposition, with X-Total-Rows announcing its rows.
 */
export function sendCsvExport(reply: FastifyReply, file: { name: string; totalRows: number; lines: AsyncIterable<string | Buffer> }) {
  async function* body() {
    yield '\uFEFF';
    yield* file.lines;
  }
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${file.name}"`)
    .header(TOTAL_ROWS_HEADER, String(file.totalRows))
    .send(Readable.from(body()));
}
