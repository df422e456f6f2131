// Admin Settings: whether the OpenAI API key is set (never the key), storing and validating it.
import { builder } from '../builder.js';
import { ValidationError } from '../../core/errors.js';
import * as settings from '../../services/identity/settings.js';
import { validateStoredKey, type KeyValidation } from '../../services/ai/ai-provider.js';

const SettingStatus = builder.objectRef<settings.SettingStatus>('AdminSettingStatus').implement({
  description: 'Whether a setting has a value and when it last changed; the value itself never leaves the server.',
  fields: (t) => ({
    settingKey: t.exposeString('settingKey', { description: 'Which setting, e.g. openai_api_key.' }),
    hasValue: t.exposeBoolean('hasValue', { description: 'The setting has a stored value (the value itself never leaves the server).' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', nullable: true, description: 'When the value last changed (null: never set).' }),
  }),
});

const KeyValidationRef = builder.objectRef<KeyValidation>('OpenAiKeyValidation').implement({
  description: 'Whether OpenAI accepted a key.',
  fields: (t) => ({
    isValid: t.exposeBoolean('isValid', { description: 'OpenAI accepted the key.' }),
    error: t.exposeString('error', { nullable: true, description: 'Why it was refused (null when valid).' }),
  }),
});

builder.queryFields((t) => ({
  openAiKeyStatus: t.field({
    type: SettingStatus,
    description: 'Whether an OpenAI API key is configured (Admin Settings).',
    authScopes: { admin: true },
    resolve: (_root, _args, ctx) => settings.getSettingStatus(ctx.caller!, settings.OPENAI_API_KEY),
  }),
  evidenceRetentionYears: t.int({
    description: 'How many years evidence bundles are kept after their close (Admin Settings; default 7).',
    authScopes: { admin: true },
    resolve: (_root, _args, ctx) => settings.evidenceRetentionYears(ctx.caller!.deps.prisma),
  }),
}));

builder.mutationFields((t) => ({
  saveOpenAiKey: t.field({
    type: SettingStatus,
    description: "Stores the OpenAI API key, encrypted at rest. It must start with 'sk-'.",
    authScopes: { admin: true },
    errors: { types: [ValidationError] },
    args: { apiKey: t.arg.string({ required: true, description: 'The OpenAI API key; stored encrypted, never returned.' }) },
    resolve: (_root, args, ctx) => settings.saveSetting(ctx.caller!, { settingKey: settings.OPENAI_API_KEY, settingValue: args.apiKey, isEncrypted: true }),
  }),
  saveAiSpendCap: t.field({
    type: SettingStatus,
    description: 'The spend cap of a bulk AI categorisation: a number of US dollars, as text (e.g. "2.50").',
    authScopes: { admin: true },
    errors: { types: [ValidationError] },
    args: { amountUsd: t.arg.string({ required: true, description: 'The most the AI features may spend in a month, in US dollars (empty: no cap).' }) },
    resolve: (_root, args, ctx) => settings.saveSetting(ctx.caller!, { settingKey: settings.AI_SPEND_CAP_KEY, settingValue: args.amountUsd }),
  }),
  saveReviewRules: t.field({
    type: [SettingStatus],
    description: 'The review rules (review.requireRemovalComment, review.allowBulkApproval); an omitted one is left as it is.',
    authScopes: { admin: true },
    errors: { types: [ValidationError] },
    args: {
      requireRemovalComment: t.arg.boolean({ description: 'true: a removal needs a justification comment; left out: unchanged.' }),
      allowBulkApproval: t.arg.boolean({
        description: 'true: reviewers and administrators may decide every item matching a filter at once; left out: unchanged.',
      }),
    },
    resolve: (_root, args, ctx) => settings.saveReviewRules(ctx.caller!, args),
  }),
  saveEvidenceRetention: t.field({
    type: SettingStatus,
    description:
      'How many whole years (1 to 99) an evidence bundle is kept after its close; the daily retention job deletes older ones, each deletion audited.',
    authScopes: { admin: true },
    errors: { types: [ValidationError] },
    args: { years: t.arg.int({ required: true, description: 'Years to keep each bundle (default 7).' }) },
    resolve: (_root, args, ctx) => settings.saveSetting(ctx.caller!, { settingKey: settings.EVIDENCE_RETENTION_KEY, settingValue: String(args.years) }),
  }),
  validateOpenAiKey: t.field({
    type: KeyValidationRef,
    description: 'Checks the stored key with a real, free call to the provider.',
    authScopes: { admin: true },
    resolve: (_root, _args, ctx) => validateStoredKey(ctx.caller!),
  }),
}));
