// REST: a system's access extract (administrators): the .zip of SAP tables is
// checked for what can be told at once (400), then loaded in the background
// (202); its status, progress and counts are read by id
// (services/access/extracts.ts).
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import * as extracts from '../../services/access/extracts.js';
import { ValidationError } from '../../core/errors.js';
import { receiveMultipart } from '../uploads/uploads.js';
import { isoDate, routeSchema, text } from '../edge.js';

const STATUS = z.enum(['processing', 'completed', 'failed']);

/** A system's name in a path, checked before the body is read. */
const system = text('system', 40).regex(
  extracts.SYSTEM_NAME,
  "system: not a system name (letters, digits, '-', '_' or '.', 40 at most, starting with a letter or digit)",
);

const ExtractJson = z.strictObject({
  id: z.uuid(),
  system: z.string(),
  status: STATUS,
  errorMessage: z.string().nullable().describe('Why it failed: the table, line (the header is line 1) and column'),
  progress: z.number().int().describe('Percent loaded'),
  users: z.number().int().describe('Distinct users of USR02'),
  roles: z.number().int().describe('Distinct roles'),
  assignments: z.number().int().describe('Rows of AGR_USERS'),
  authorizations: z.number().int().describe('Distinct (AGR_NAME, OBJECT, AUTH) of AGR_1251'),
  fileName: z.string(),
  loadedBy: z.string().nullable(),
  loadedAt: isoDate(),
  completedAt: isoDate().nullable(),
  supersededAt: isoDate().nullable().describe('When a newer extract of the system replaced it for later runs'),
});

const ExtractForm = z.object({
  file: z.string().meta({
    format: 'binary',
    description: 'A .zip of the SAP tables USR02, AGR_USERS, AGR_AGRS, AGR_1251 (USER_ADDR, AGR_TEXTS, USAGE optional): CSV, SE16 lists or XLSX',
  }),
});

export function registerExtractRoutes(app: FastifyInstance) {
  app.post<{ Params: { system: string } }>(
    '/api/systems/:system/extracts',
    {
      config: { access: 'admin' },
      schema: routeSchema({
        summary: "Load a system's access extract; it replaces the system's previous one for later analyses once loaded",
        params: z.object({ system }),
        multipartBody: ExtractForm,
        reply: z.strictObject({ id: z.uuid().describe('Follow it with GET /api/systems/{system}/extracts/{id}'), status: STATUS }),
        replyStatus: 202,
      }),
    },
    async (req, reply) => {
      const { file } = await receiveMultipart(req, reply);
      if (!file) throw new ValidationError('file: no file was sent; add the .zip in a field named file', 'file');
      // The service keeps the file or removes it, whatever happens.
      return reply.status(202).send(await extracts.startExtract(req.ctx.caller!, req.params.system, file));
    },
  );

  app.get<{ Params: { system: string; id: string } }>(
    '/api/systems/:system/extracts/:id',
    { config: { access: 'admin' }, schema: routeSchema({ params: z.object({ system, id: text('id', 100).min(1, 'id is required') }), reply: ExtractJson }) },
    async (req) => extracts.getExtract(req.ctx.caller!, req.params.system, req.params.id),
  );
}
