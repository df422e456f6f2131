// Administrators' settings (SPEC §2 Admin Settings): the OpenAI API key, kept
// encrypted at rest (AES-256-GCM under APP_SECRET, or a secret generated once
// into DATA_DIR), never returned; only whether it is set and when it changed.
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { z } from 'zod';
import type { User } from '../../generated/prisma/client.js';
import type { Config } from '../../config.js';
import { ForbiddenError, ValidationError } from '../../core/errors.js';
import { recordAudit } from '../../core/audit.js';
import { parseOrThrow } from '../../core/validation.js';
import { deriveKey, open, seal } from '../../core/secret-box.js';
import type { Actor, DbClient } from '../../core/types.js';
import type { Caller } from '../caller.js';

export const OPENAI_API_KEY = 'openai_api_key';
/** Bulk categorisation stops before its spend would pass this many dollars. */
export const AI_SPEND_CAP_KEY = 'ai_bulk_spend_cap_usd';
/** The prefix every OpenAI API key starts with (SPEC §5). */
export const OPENAI_KEY_PREFIX = 'sk-';
export const MAX_SETTING_VALUE_LENGTH = 500;
/** "true": a removal needs a justification comment (a mitigation always does). Default "false". */
export const REQUIRE_REMOVAL_COMMENT_KEY = 'review.requireRemovalComment';
/** "false": decisions by filter (bulk) are refused. Default "true". */
export const ALLOW_BULK_APPROVAL_KEY = 'review.allowBulkApproval';
/** How many whole years an evidence bundle is kept after its close before the retention job deletes it. Default 7 (SEC Rule 2-06, SOX §802). */
export const EVIDENCE_RETENTION_KEY = 'evidence.retentionYears';
export const DEFAULT_EVIDENCE_RETENTION_YEARS = 7;
const REVIEW_RULE_DEFAULTS: Record<string, boolean> = { [REQUIRE_REMOVAL_COMMENT_KEY]: false, [ALLOW_BULK_APPROVAL_KEY]: true };

/** The settings this page may write, and whether each is a secret. */
const KNOWN_SETTINGS: Record<string, { encrypted: boolean; description: string }> = {
  [OPENAI_API_KEY]: { encrypted: true, description: 'OpenAI API key for the AI assist' },
  [AI_SPEND_CAP_KEY]: { encrypted: false, description: 'Spend cap of a bulk AI categorisation, in US dollars' },
  [REQUIRE_REMOVAL_COMMENT_KEY]: { encrypted: false, description: 'A removal needs a justification comment' },
  [ALLOW_BULK_APPROVAL_KEY]: { encrypted: false, description: 'Reviewers may decide every item matching a filter at once' },
  [EVIDENCE_RETENTION_KEY]: { encrypted: false, description: 'Years an evidence bundle is kept after its close' },
};

export interface SettingStatus {
  settingKey: string;
  hasValue: boolean;
  updatedAt: Date | null;
}

const keys = new Map<string, Buffer>();

/** The encryption key: APP_SECRET when set, else a secret generated once into DATA_DIR/app-secret. */
export function secretKey(config: Config): Buffer {
  const cacheKey = config.APP_SECRET ? `env:${config.APP_SECRET}` : `dir:${config.dataDir}`;
  let key = keys.get(cacheKey);
  if (key) return key;
  let secret = config.APP_SECRET;
  if (!secret) {
    const file = path.join(config.dataDir, 'app-secret');
    if (!fs.existsSync(file)) {
      fs.mkdirSync(config.dataDir, { recursive: true });
      try {
        fs.writeFileSync(file, crypto.randomBytes(32).toString('base64url'), { mode: 0o600, flag: 'wx' });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
    }
    secret = fs.readFileSync(file, 'utf8').trim();
  }
  key = deriveKey(secret);
  keys.set(cacheKey, key);
  return key;
}

/** An administrator acting in a signed-in session (changing settings, purging): never an API token. */
export function requireAdminSession(actor: Actor, what: string): User {
  const u = actor.user;
  if (!u || u.role !== 'admin' || u.passwordResetRequired) throw new ForbiddenError('Only administrators can do this');
  if (!actor.sessionId) throw new ForbiddenError(`${what} only when signed in, not with an API token`);
  return u;
}

/** Whether a known setting has a value and when it changed (Admin Settings). */
export function getSettingStatus(caller: Caller, settingKey: string): Promise<SettingStatus> {
  return settingStatusIn(caller.deps.prisma, settingKey);
}

async function settingStatusIn(db: DbClient, settingKey: string): Promise<SettingStatus> {
  if (!(settingKey in KNOWN_SETTINGS)) throw new ValidationError(`Unknown setting: ${settingKey.slice(0, 100)}`, 'settingKey');
  const row = await db.adminSetting.findUnique({ where: { settingKey }, select: { settingValue: true, updatedAt: true } });
  return { settingKey, hasValue: Boolean(row?.settingValue), updatedAt: row?.updatedAt ?? null };
}

export const saveInput = z.object({
  settingKey: z.string({ error: 'settingKey must be text' }).max(100),
  settingValue: z
    .string({ error: 'settingValue must be text' })
    .max(MAX_SETTING_VALUE_LENGTH, `settingValue is too long (${MAX_SETTING_VALUE_LENGTH} characters at most)`),
  description: z.string({ error: 'description must be text' }).max(500).nullish(),
  isEncrypted: z.boolean({ error: 'isEncrypted must be true or false' }).nullish(),
});

/** Writes a known setting (secrets always encrypted, whatever isEncrypted says); audited without the value. */
export async function saveSetting(caller: Caller, input: unknown): Promise<SettingStatus> {
  const { actor } = caller;
  const { prisma, config } = caller.deps;
  const me = requireAdminSession(actor, 'Settings can be changed');
  const data = parseOrThrow(saveInput, input);
  const known = KNOWN_SETTINGS[data.settingKey];
  if (!known) throw new ValidationError(`Unknown setting: ${data.settingKey}`, 'settingKey');
  const value = data.settingValue.trim();
  if (data.settingKey === OPENAI_API_KEY) {
    if (!value) throw new ValidationError('Please enter an API key', 'settingValue');
    if (!value.startsWith(OPENAI_KEY_PREFIX)) throw new ValidationError("OpenAI API keys should start with 'sk-'", 'settingValue');
    if (/\s/.test(value)) throw new ValidationError('An API key contains no spaces', 'settingValue');
  }
  if (data.settingKey === AI_SPEND_CAP_KEY) {
    const n = Number(value);
    if (!value || !Number.isFinite(n) || n <= 0 || n > 100_000)
      throw new ValidationError('The spend cap must be a number of dollars above 0 and at most 100,000', 'settingValue');
  }
  if (data.settingKey === EVIDENCE_RETENTION_KEY && !/^(?:[1-9]|[1-9]\d)$/.test(value)) {
    throw new ValidationError('The retention of evidence bundles must be a whole number of years from 1 to 99', 'settingValue');
  }
  if (data.settingKey in REVIEW_RULE_DEFAULTS && value !== 'true' && value !== 'false') {
    throw new ValidationError(`${data.settingKey} must be "true" or "false"`, 'settingValue');
  }
  const stored = known.encrypted ? seal(secretKey(config), value, data.settingKey) : value;
  return prisma.$transaction(async (tx) => {
    const before = await settingStatusIn(tx, data.settingKey);
    const row = await tx.adminSetting.upsert({
      where: { settingKey: data.settingKey },
      create: {
        settingKey: data.settingKey,
        settingValue: stored,
        description: data.description ?? known.description,
        isEncrypted: known.encrypted,
        updatedById: me.id,
      },
      update: {
        settingValue: stored,
        description: data.description ?? known.description,
        isEncrypted: known.encrypted,
        updatedById: me.id,
        updatedAt: new Date(),
      },
    });
    await recordAudit(tx, actor, {
      action: 'setting.updated',
      entityType: 'AdminSetting',
      entityId: data.settingKey,
      before: { hasValue: before.hasValue },
      after: {
        hasValue: true,
        encrypted: known.encrypted,
        ...(data.settingKey in REVIEW_RULE_DEFAULTS || data.settingKey === EVIDENCE_RETENTION_KEY ? { value } : {}),
      },
    });
    return { settingKey: row.settingKey, hasValue: true, updatedAt: row.updatedAt };
  });
}

/** A setting's plain value for the server's own use (secrets decrypted); null when unset or unreadable. */
export async function readSetting(db: DbClient, config: Config, settingKey: string): Promise<string | null> {
  const row = await db.adminSetting.findUnique({ where: { settingKey } });
  if (!row?.settingValue) return null;
  return row.isEncrypted ? open(secretKey(config), row.settingValue, settingKey) : row.settingValue;
}

/** The review rules administrators set (Admin Settings), with their defaults when unset. */
export interface ReviewRules {
  requireRemovalComment: boolean;
  allowBulkApproval: boolean;
}

export async function reviewRules(db: DbClient): Promise<ReviewRules> {
  const rows = await db.adminSetting.findMany({
    where: { settingKey: { in: Object.keys(REVIEW_RULE_DEFAULTS) } },
    select: { settingKey: true, settingValue: true },
  });
  const value = (key: string) => {
    const v = rows.find((r) => r.settingKey === key)?.settingValue;
    return v === 'true' ? true : v === 'false' ? false : REVIEW_RULE_DEFAULTS[key]!;
  };
  return { requireRemovalComment: value(REQUIRE_REMOVAL_COMMENT_KEY), allowBulkApproval: value(ALLOW_BULK_APPROVAL_KEY) };
}

/** Saves the given review rules (each through saveSetting: checked and audited). */
export async function saveReviewRules(
  caller: Caller,
  rules: { requireRemovalComment?: boolean | null; allowBulkApproval?: boolean | null },
): Promise<SettingStatus[]> {
  requireAdminSession(caller.actor, 'Settings can be changed');
  const out: SettingStatus[] = [];
  const pairs: [string, boolean | null | undefined][] = [
    [REQUIRE_REMOVAL_COMMENT_KEY, rules.requireRemovalComment],
    [ALLOW_BULK_APPROVAL_KEY, rules.allowBulkApproval],
  ];
  for (const [settingKey, v] of pairs) {
    if (v !== null && v !== undefined) out.push(await saveSetting(caller, { settingKey, settingValue: String(v) }));
  }
  return out;
}

/** How many years evidence bundles are kept (Admin Settings, `evidence.retentionYears`; default 7). */
export async function evidenceRetentionYears(db: DbClient): Promise<number> {
  const row = await db.adminSetting.findUnique({ where: { settingKey: EVIDENCE_RETENTION_KEY }, select: { settingValue: true } });
  const years = Number(row?.settingValue);
  return Number.isInteger(years) && years >= 1 ? years : DEFAULT_EVIDENCE_RETENTION_YEARS;
}
