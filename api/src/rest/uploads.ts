// REST: uploads (SPEC §7 /api/upload, /api/upload-status/{id}, /api/uploads).
// The request body streams to a file under DATA_DIR/uploads; it is never held
// in memory. Over 2 GB is refused with 413 as soon as the size is known.
import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import * as uploads from '../services/uploads.js';
import { PayloadTooLargeError, ValidationError } from '../core/errors.js';
import { z } from 'zod';
import { idParams, routeSchema, text } from './edge.js';
import * as preview from '../services/upload-preview.js';
import * as profiles from '../services/mapping-profiles.js';
import type { FastifyRequest } from 'fastify';

/** The first file of a multipart request, streamed to a temporary file (its fields beside it). */
async function receiveMultipart(req: FastifyRequest): Promise<{ file: uploads.ReceivedFile | undefined; fields: Record<string, string> }> {
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
        file = await uploads.receiveFile(req.ctx.config.uploadsDir, part.file, part.filename);
      } else {
        fields[part.fieldname] = String(part.value);
      }
    }
  } catch (err) {
    if (file) await fs.promises.rm(file.tempPath, { force: true });
    throw err;
  }
  return { file, fields };
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
  saveProfileAs: text('saveProfileAs', profiles.MAX_PROFILE_NAME).optional().meta({ description: 'Save the mapping as a profile of this name (replacing one of the same name)' }),
});

/** multipart/form-data: the file and the options the service checks (services/uploads.ts). */
const UploadForm = uploads.optionsSchema.extend({
  file: z.string().meta({ format: 'binary', description: 'The .csv, .xlsx or .xls file (2 GB at most); only the first file is read' }),
});

export async function registerUploadRoutes(app: FastifyInstance) {
  await app.register(multipart, {
    limits: { fileSize: uploads.MAX_UPLOAD_BYTES, files: 1, fields: 20, fieldSize: 1024 },
    throwFileSizeLimit: false,
  });

  app.post('/api/upload', { config: { access: 'admin' }, schema: routeSchema({ multipartBody: UploadForm }) }, async (req, reply) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > uploads.MAX_UPLOAD_BYTES + 1024 * 1024) {
      // Answer now and drop the connection rather than read 2 GB we will not keep.
      reply.header('connection', 'close');
      throw new PayloadTooLargeError(uploads.TOO_LARGE);
    }
    const { file, fields } = await receiveMultipart(req);
    try {
      if (!file) throw new ValidationError('No file was sent: add it in a field named file');
      const u = await uploads.acceptUpload(req.ctx.deps, req.ctx.actor, file, {
        uploadMode: fields.uploadMode as 'append' | 'replace' | undefined,
        skipDuplicates: fields.skipDuplicates as never,
        batchSize: fields.batchSize as never,
        emailNotification: fields.emailNotification as never,
      });
      if (u.status === 'failed') return reply.status(400).send({ message: u.errorMessage, uploadId: u.id, status: u.status });
      return reply.status(202).send({ uploadId: u.id, status: u.status });
    } finally {
      // Whatever was not handed over (abort, refusal, error) is removed.
      if (file) await fs.promises.rm(file.tempPath, { force: true });
    }
  });

  app.post(
    '/api/upload/preview',
    { config: { access: 'admin' }, schema: routeSchema({ summary: 'Preview a file before loading it: layout, column mapping, first rows, problems', multipartBody: z.object({ file: UploadForm.shape.file }) }) },
    async (req) => {
      const { file } = await receiveMultipart(req);
      try {
        if (!file) throw new ValidationError('No file was sent: add it in a field named file');
        return await preview.createPreview(req.ctx.deps, file);
      } finally {
        if (file) await fs.promises.rm(file.tempPath, { force: true });
      }
    },
  );

  const AgainBody = z.object({ columnMapping: ColumnMappingBody.optional(), ...LayoutBody });
  app.post<{ Params: { id: string }; Body: z.infer<typeof AgainBody> }>(
    '/api/upload/preview/:id',
    { config: { access: 'admin' }, schema: routeSchema({ summary: 'The preview again, with the columns mapped as sent, from the sheet and header row sent', params: idParams, body: AgainBody }) },
    async (req) => preview.previewAgain(req.ctx.deps, req.params.id, req.body),
  );

  app.post<{ Params: { id: string }; Body: z.infer<typeof StartBody> }>(
    '/api/upload/preview/:id/start',
    { config: { access: 'admin' }, schema: routeSchema({ summary: 'Start Upload: load the previewed file with this mapping', params: idParams, body: StartBody }) },
    async (req, reply) => {
      const { columnMapping, saveProfileAs, sheet, headerRow, ...options } = req.body;
      const u = await preview.startPreviewed(req.ctx.deps, req.ctx.actor, req.params.id, { options, columnMapping, saveProfileAs, sheet, headerRow });
      return reply.status(202).send({ uploadId: u.id, status: u.status });
    },
  );

  app.get('/api/mapping-profiles', { config: { access: 'admin' } }, async (req) => (await profiles.listProfiles(req.ctx.prisma)).map(profiles.profileJson));

  app.delete<{ Params: { id: string } }>(
    '/api/mapping-profiles/:id',
    { config: { access: 'admin' }, schema: routeSchema({ summary: 'Delete a column-mapping profile', params: idParams }) },
    async (req, reply) => {
      await profiles.deleteProfile(req.ctx.prisma, req.ctx.actor, req.params.id);
      return reply.status(204).send();
    },
  );

  app.get<{ Params: { id: string } }>('/api/upload-status/:id', { config: { access: 'admin' }, schema: routeSchema({ params: idParams }) }, async (req) => {
    return uploads.uploadStatusJson(await uploads.getUpload(req.ctx.prisma, req.params.id));
  });

  app.get('/api/uploads', { config: { access: 'admin' } }, async (req) => (await uploads.listUploads(req.ctx.prisma)).map(uploads.uploadJson));

  app.get<{ Params: { id: string } }>('/api/uploads/:id', { config: { access: 'admin' }, schema: routeSchema({ params: idParams }) }, async (req) =>
    uploads.uploadJson(await uploads.getUpload(req.ctx.prisma, req.params.id)),
  );

  app.post<{ Params: { id: string } }>('/api/uploads/:id/retry', { config: { access: 'admin' }, schema: routeSchema({ params: idParams }) }, async (req, reply) => {
    const u = await uploads.retryUpload(req.ctx.deps, req.ctx.actor, req.params.id);
    return reply.status(202).send({ uploadId: u.id, status: u.status });
  });
}
