// REST: uploads (SPEC §7 /api/upload, /api/upload-status/{id}, /api/uploads).
// The request body streams into the store (DATA_DIR/uploads, or STORAGE_URL); it is never held
// in memory. Over 2 GB is refused with 413 as soon as the size is known: a
// declared length beyond the file limit and the most a form adds to it, else
// the moment the file passes 2 GB; the connection is then closed, so the rest
// of the body is not read.
import type { FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import * as uploads from '../../services/uploads/uploads.js';
import { AppError, errorBody, PayloadTooLargeError, ValidationError } from '../../core/errors.js';
import { assertCleanStrings } from '../../core/validation.js';
import { z } from 'zod';
import { idParams, isoDate, routeSchema, text } from '../edge.js';
import { PersonJson, UploadAccepted } from '../replies.js';
import * as preview from '../../services/uploads/upload-preview.js';
import * as profiles from '../../services/uploads/mapping-profiles.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { uploadJson, uploadStatusJson } from './upload-json.js';

/** The most a multipart form adds to its file: 20 fields of 1 KB, each part's headers, the boundaries. */
const MAX_FORM_OVERHEAD = 64 * 1024;

/** Refused at once, and the connection closed so that the rest of the body is not read. */
function tooLarge(reply: FastifyReply): never {
  reply.header('connection', 'close');
  throw new PayloadTooLargeError(uploads.TOO_LARGE);
}

/** The first file of a multipart request, streamed to a temporary file (its fields beside it). */
export async function receiveMultipart(
  req: FastifyRequest,
  reply: FastifyReply,
): Promise<{ file: uploads.ReceivedFile | undefined; fields: Record<string, string> }> {
  if (Number(req.headers['content-length'] ?? 0) > uploads.MAX_UPLOAD_BYTES + MAX_FORM_OVERHEAD) tooLarge(reply);
  if (!req.isMultipart()) throw new ValidationError('Send the file as multipart/form-data, in a field named file');
  const fields: Record<string, string> = {};
  let file: uploads.ReceivedFile | undefined;
  try {
    for await (const part of req.parts()) {
      if (part.type === 'file') {
        if (file) {
          // Several files selected: only the first is uploaded (SPEC §2).
          part.file.resume();
          continue;
        }
        file = await uploads.receiveFile(req.ctx.deps.storage, part.file, part.filename);
      } else {
        fields[part.fieldname] = String(part.value);
      }
    }
    // The form's text fields get the edge check JSON bodies get (rest/http.ts registerInputHygiene).
    assertCleanStrings(fields);
  } catch (err) {
    await uploads.discardReceived(req.ctx.deps.storage, file);
    if (err instanceof PayloadTooLargeError) tooLarge(reply);
    // The rest of the body may be unread (the file could not be stored): it is
    // read and dropped first, since a client still sending takes a close as a
    // reset and never sees the answer; the connection is closed with the answer.
    await dropRestOfBody(req);
    reply.header('connection', 'close');
    throw unreadableForm(err);
  }
  return { file, fields };
}

/** How long a refused body is read and dropped before the answer goes anyway. */
const DROP_BODY_MS = 30_000;

/** Reads the rest of a request's body into nothing (never stored), for at most DROP_BODY_MS. */
async function dropRestOfBody(req: FastifyRequest): Promise<void> {
  const raw = req.raw;
  if (raw.readableEnded || raw.destroyed) return;
  await new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      raw.off('end', done).off('close', done).off('error', done);
      resolve();
    };
    const timer = setTimeout(done, DROP_BODY_MS);
    raw.on('end', done).on('close', done).on('error', done);
    raw.unpipe();
    raw.resume();
  });
}

/**
 * A body the multipart parser cannot read (no boundary, cut off, malformed part
 * headers: plain Errors without a status) is the client's: a 400 saying so.
 * Errors with a status, ours, and system errors (a full disk) stay as they are.
 */
function unreadableForm(err: unknown): unknown {
  const e = err as { statusCode?: unknown; code?: unknown; message?: unknown } | null;
  if (!(err instanceof Error) || err instanceof AppError || e?.statusCode !== undefined || typeof e?.code === 'string') return err;
  return new ValidationError(`The request body is not readable multipart/form-data: ${err.message}`, 'file');
}

const ColumnMappingBody = z
  .array(z.object({ header: text('header', 500), field: text('field', 100).nullable().optional() }))
  .max(500)
  .meta({ description: "Each source column's header and the field it loads into (null: not loaded); columns not listed map by the header dictionary" });

/** Where the header is, when the administrator chose it (else found). */
const LayoutBody = {
  sheet: text('sheet', 255).optional().meta({ description: "The workbook's sheet to read (by name); left out, the sheet whose header is recognisable" }),
  headerRow: z.number().int().optional().meta({ description: 'The row holding the header (1-based, as the layout numbers rows); left out, the row found' }),
};

const StartBody = z.object({
  ...LayoutBody,
  uploadMode: z.enum(['append', 'replace']).optional(),
  skipDuplicates: z.boolean().optional(),
  batchSize: z.number().int().optional(),
  emailNotification: z.boolean().optional(),
  columnMapping: ColumnMappingBody.optional(),
  saveProfileAs: text('saveProfileAs', profiles.MAX_PROFILE_NAME)
    .optional()
    .meta({ description: 'Save the mapping as a profile of this name (replacing one of the same name)' }),
});

const LayoutJson = z
  .strictObject({
    format: z.enum(['CSV', 'XLSX', 'XLS']),
    encoding: z.string().optional(),
    delimiter: z.string().optional(),
    sheet: z.string().optional(),
    sheets: z.array(z.string()).optional(),
    headerRow: z.number().int().describe('The row (from 1) that holds the header'),
    decimalSeparator: z.enum(['.', ',']),
    profile: z.string().optional().describe('The saved column mapping applied, if any'),
  })
  .describe('What was found in the file');
const PreviewJson = z.strictObject({
  previewId: z.uuid().describe('For POST /api/upload/preview/{id} and …/start'),
  originalName: z.string(),
  sizeBytes: z.number().int(),
  mappableFields: z.array(z.strictObject({ field: z.string(), label: z.string() })).describe('The fields a column can load into'),
  layout: LayoutJson,
  columns: z.array(z.strictObject({ header: z.string(), field: z.string().nullable().describe('null: not loaded'), suggestion: z.string().nullable() })),
  fields: z.array(z.string()).describe('The stored fields the sample rows show'),
  rows: z.array(z.strictObject({ row: z.number().int(), values: z.array(z.string().nullable()) })).describe('The first rows, as they would be stored'),
  problems: z.array(z.string()),
  warnings: z.array(z.string()),
  refusal: z.string().nullable().describe('Why the file cannot be loaded with this mapping, or null'),
});
const statusFields = {
  status: z.enum(['processing', 'completed', 'failed']),
  statusLabel: z.string().describe('Processing, Completed, Completed with warnings or Failed'),
  recordCount: z.number().int(),
  errorMessage: z.string().nullable(),
  warnings: z.array(z.string()),
  rowsProcessed: z.number().int(),
  bytesProcessed: z.number().int(),
  sizeBytes: z.number().int(),
  duplicatesSkipped: z.number().int(),
};
const UploadJson = z.strictObject({
  ...statusFields,
  id: z.uuid(),
  originalName: z.string(),
  fileName: z.string(),
  sourceLayout: z.unknown().describe('What was found in the file (format, sheet, header row, encoding, …), once read'),
  mode: z.enum(['append', 'replace']),
  skipDuplicates: z.boolean(),
  batchSize: z.number().int(),
  emailNotification: z.boolean(),
  columnMapping: z.unknown().describe('Source header -> field, as mapped'),
  unknownColumns: z.array(z.string()),
  live: z.boolean().describe('Its rows are the data everyone sees'),
  createdAt: isoDate(),
  startedAt: isoDate().nullable(),
  completedAt: isoDate().nullable(),
  uploadedBy: PersonJson.nullable(),
});

/** multipart/form-data: the file and the options the service checks (services/uploads/uploads.ts). */
const UploadForm = uploads.optionsSchema.extend({
  file: z.string().meta({ format: 'binary', description: 'The .csv, .xlsx or .xls file (2 GB at most); only the first file is read' }),
});

export async function registerUploadRoutes(app: FastifyInstance) {
  await app.register(multipart, {
    limits: { fileSize: uploads.MAX_UPLOAD_BYTES, files: 1, fields: 20, fieldSize: 1024 },
    throwFileSizeLimit: false,
  });

  app.post(
    '/api/upload',
    { config: { access: 'admin' }, schema: routeSchema({ multipartBody: UploadForm, reply: UploadAccepted, replyStatus: 202 }) },
    async (req, reply) => {
      const { file, fields } = await receiveMultipart(req, reply);
      try {
        if (!file) throw new ValidationError('No file was sent: add it in a field named file');
        const u = await uploads.acceptUpload(req.ctx.caller!, file, {
          uploadMode: fields.uploadMode as 'append' | 'replace' | undefined,
          skipDuplicates: fields.skipDuplicates as never,
          batchSize: fields.batchSize as never,
          emailNotification: fields.emailNotification as never,
        });
        if (u.status === 'failed')
          return reply.status(400).send({ ...errorBody(400, u.errorMessage ?? 'The upload failed'), uploadId: u.id, status: u.status });
        return reply.status(202).send({ uploadId: u.id, status: u.status });
      } finally {
        // Whatever was not handed over (abort, refusal, error) is removed.
        await uploads.discardReceived(req.ctx.deps.storage, file);
      }
    },
  );

  app.post(
    '/api/upload/preview',
    {
      config: { access: 'admin' },
      schema: routeSchema({
        summary: 'Preview a file before loading it: layout, column mapping, first rows, problems',
        multipartBody: z.object({ file: UploadForm.shape.file }),
        reply: PreviewJson,
      }),
    },
    async (req, reply) => {
      const { file } = await receiveMultipart(req, reply);
      try {
        if (!file) throw new ValidationError('No file was sent: add it in a field named file');
        return await preview.createPreview(req.ctx.caller!, file);
      } finally {
        await uploads.discardReceived(req.ctx.deps.storage, file);
      }
    },
  );

  const AgainBody = z.object({ columnMapping: ColumnMappingBody.optional(), ...LayoutBody });
  app.post<{ Params: { id: string }; Body: z.infer<typeof AgainBody> }>(
    '/api/upload/preview/:id',
    {
      config: { access: 'admin' },
      schema: routeSchema({
        summary: 'The preview again, with the columns mapped as sent, from the sheet and header row sent',
        params: idParams,
        body: AgainBody,
        reply: PreviewJson,
      }),
    },
    async (req) => preview.previewAgain(req.ctx.caller!, req.params.id, req.body),
  );

  app.post<{ Params: { id: string }; Body: z.infer<typeof StartBody> }>(
    '/api/upload/preview/:id/start',
    {
      config: { access: 'admin' },
      schema: routeSchema({
        summary: 'Start Upload: load the previewed file with this mapping',
        params: idParams,
        body: StartBody,
        reply: UploadAccepted,
        replyStatus: 202,
      }),
    },
    async (req, reply) => {
      const { columnMapping, saveProfileAs, sheet, headerRow, ...options } = req.body;
      const u = await preview.startPreviewed(req.ctx.caller!, req.params.id, { options, columnMapping, saveProfileAs, sheet, headerRow });
      return reply.status(202).send({ uploadId: u.id, status: u.status });
    },
  );

  app.get(
    '/api/mapping-profiles',
    {
      config: { access: 'admin' },
      schema: routeSchema({
        reply: z.array(
          z.strictObject({
            id: z.uuid(),
            name: z.string(),
            columns: z.array(z.strictObject({ header: z.string(), field: z.string().nullable() })),
            updatedAt: isoDate(),
          }),
        ),
      }),
    },
    async (req) => (await profiles.listProfiles(req.ctx.caller!)).map(profiles.profileJson),
  );

  app.delete<{ Params: { id: string } }>(
    '/api/mapping-profiles/:id',
    {
      config: { access: 'admin' },
      schema: routeSchema({ summary: 'Delete a column-mapping profile', params: idParams, replyStatus: 204, replyDescription: 'Deleted (no content)' }),
    },
    async (req, reply) => {
      await profiles.deleteProfile(req.ctx.caller!, req.params.id);
      return reply.status(204).send();
    },
  );

  app.get<{ Params: { id: string } }>(
    '/api/upload-status/:id',
    { config: { access: 'admin' }, schema: routeSchema({ params: idParams, reply: z.strictObject(statusFields) }) },
    async (req) => {
      return uploadStatusJson(await uploads.getUpload(req.ctx.caller!, req.params.id));
    },
  );

  app.get('/api/uploads', { config: { access: 'admin' }, schema: routeSchema({ reply: z.array(UploadJson).describe('Newest first') }) }, async (req) =>
    (await uploads.listUploads(req.ctx.caller!)).map(uploadJson),
  );

  app.get<{ Params: { id: string } }>(
    '/api/uploads/:id',
    { config: { access: 'admin' }, schema: routeSchema({ params: idParams, reply: UploadJson }) },
    async (req) => uploadJson(await uploads.getUpload(req.ctx.caller!, req.params.id)),
  );

  app.post<{ Params: { id: string } }>(
    '/api/uploads/:id/retry',
    { config: { access: 'admin' }, schema: routeSchema({ params: idParams, reply: UploadAccepted, replyStatus: 202 }) },
    async (req, reply) => {
      const u = await uploads.retryUpload(req.ctx.caller!, req.params.id);
      return reply.status(202).send({ uploadId: u.id, status: u.status });
    },
  );
}
