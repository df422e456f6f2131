// REST: access rule sets (administrators). Uploading a .zip makes the next
// version of its name; the first version of a name is active, a later one
// waits until it is activated (services/access/rule-sets.ts). A version
// downloads back as a .zip in the layout it was uploaded in
// (services/access/rule-set-file.ts).
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import * as ruleSets from '../../services/access/rule-sets.js';
import { ruleSetFiles, zipArchive } from '../../services/access/rule-set-file.js';
import { ValidationError } from '../../core/errors.js';
import { receiveMultipart } from '../uploads/uploads.js';
import { discardReceived } from '../../services/uploads/uploads.js';
import { idParams, isoDate, routeSchema, text } from '../edge.js';

export const RuleSetJson = z.strictObject({
  id: z.uuid(),
  name: z.string(),
  version: z.number().int().describe('1 for the first upload of a name, then one more per upload'),
  active: z.boolean().describe('The version of its name that counts (one per name)'),
  risks: z.number().int(),
  functions: z.number().int(),
  actions: z.number().int().describe('Enabled function actions'),
  permissions: z.number().int().describe('Enabled function permissions'),
  uploadedBy: z.string().nullable(),
  uploadedAt: isoDate(),
});

const RuleSetForm = z.object({
  file: z.string().meta({
    format: 'binary',
    description: 'A .zip of CSV files: risks, risk_functions, functions, function_actions, function_permissions, and optionally business_processes',
  }),
  name: text('name', ruleSets.MAX_RULE_SET_NAME)
    .optional()
    .meta({ description: "The rule set's name (an existing name makes a new version); left out, the file's name without .zip" }),
});

export function registerRuleSetRoutes(app: FastifyInstance) {
  app.post(
    '/api/rule-sets',
    {
      config: { access: 'admin' },
      schema: routeSchema({ summary: 'Upload a rule set: the next version of its name', multipartBody: RuleSetForm, reply: RuleSetJson, replyStatus: 201 }),
    },
    async (req, reply) => {
      const { file, fields } = await receiveMultipart(req, reply);
      try {
        if (!file) throw new ValidationError('file: no file was sent; add the .zip in a field named file', 'file');
        const set = await ruleSets.uploadRuleSet(req.ctx.caller!, req.ctx.deps.storage.source(file.key), file.originalName, fields.name);
        return reply.status(201).send(set);
      } finally {
        await discardReceived(req.ctx.deps.storage, file);
      }
    },
  );

  app.get(
    '/api/rule-sets',
    { config: { access: 'admin' }, schema: routeSchema({ reply: z.array(RuleSetJson).describe('By name, newest version first') }) },
    async (req) => ruleSets.listRuleSets(req.ctx.caller!),
  );

  app.put<{ Params: { id: string } }>(
    '/api/rule-sets/:id/activate',
    { config: { access: 'admin' }, schema: routeSchema({ summary: 'Make this version the active one of its name', params: idParams, reply: RuleSetJson }) },
    async (req) => ruleSets.activateRuleSet(req.ctx.caller!, req.params.id),
  );

  app.get<{ Params: { id: string } }>(
    '/api/rule-sets/:id/file',
    {
      config: { access: 'admin' },
      schema: routeSchema({
        summary: 'Download a version as a .zip of CSV files in the layout of an upload (it uploads again as a new version with the same counts)',
        params: idParams,
        replyDescription: 'The .zip (Content-Disposition names it after the rule set and version).',
        replyFiles: {
          'application/zip': {
            schema: {
              type: 'string',
              format: 'binary',
              description: 'risks, risk_functions, functions, function_actions, function_permissions and business_processes (when the version has any), as CSV',
            },
          },
        },
      }),
    },
    async (req, reply) => {
      const { name, version, files } = await ruleSetFiles(req.ctx.caller!, req.params.id);
      const safe =
        name
          .replace(/[^A-Za-z0-9._-]+/g, '-')
          .replace(/^-+|-+$/g, '')
          .slice(0, 60) || 'rule-set';
      return reply
        .header('content-type', 'application/zip')
        .header('content-disposition', `attachment; filename="${safe}-v${version}.zip"`)
        .send(zipArchive(files));
    },
  );
}
