// REST: Admin Settings (SPEC §7 /api/admin/settings*, /api/admin/validate-openai-key).
import type { FastifyInstance, FastifyRequest, FastifySchema } from 'fastify';
import { z } from 'zod';
import * as settings from '../../services/identity/settings.js';
import { isoDate, text, type RouteSchema } from '../edge.js';
import { validateStoredKey } from '../../services/ai/ai-provider.js';

const doc = (summary: string, inputs: RouteSchema = {}) => ({ summary, ...inputs }) as FastifySchema;
const StatusJson = z.strictObject({ hasValue: z.boolean(), updatedAt: isoDate().nullable() });
/** Who may change a setting is settled before the input is read: an API token never does, whatever it sends. */
const adminSessionFirst = async (req: FastifyRequest) => {
  settings.requireAdminSession(req.ctx.actor, 'Settings can be changed');
};
const SettingKeyParams = z.object({ settingKey: text('settingKey', 100).min(1, 'settingKey is required') });

export function registerSettingsRoutes(app: FastifyInstance) {
  app.get<{ Params: { settingKey: string } }>(
    '/api/admin/settings/:settingKey',
    {
      config: { access: 'admin' },
      schema: doc('Whether a setting has a value and when it changed (never the value): { hasValue, updatedAt }', {
        params: SettingKeyParams,
        reply: StatusJson,
      }),
    },
    async (req) => {
      const s = await settings.getSettingStatus(req.ctx.caller!, req.params.settingKey);
      return { hasValue: s.hasValue, updatedAt: s.updatedAt };
    },
  );

  app.post(
    '/api/admin/settings',
    {
      config: { access: 'admin' },
      preValidation: adminSessionFirst,
      schema: doc('Store a setting { settingKey, settingValue, description, isEncrypted }; secrets are encrypted at rest', {
        body: settings.saveInput,
        reply: StatusJson.extend({ settingKey: z.string() }),
      }),
    },
    async (req) => {
      const s = await settings.saveSetting(req.ctx.caller!, req.body);
      return { settingKey: s.settingKey, hasValue: s.hasValue, updatedAt: s.updatedAt };
    },
  );

  app.post(
    '/api/admin/validate-openai-key',
    {
      config: { access: 'admin' },
      schema: doc('Check the stored OpenAI API key with a real, free call to the provider: { isValid, error }', {
        reply: z.strictObject({ isValid: z.boolean(), error: z.string().nullable() }),
      }),
    },
    async (req) => validateStoredKey(req.ctx.caller!),
  );
}
