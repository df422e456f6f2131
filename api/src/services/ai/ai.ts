// The AI assist (SPEC §1, §3, §7): a suggested category for a risk id, stored on
// every row of that risk with when it was made; the reviewer's accept/reject;
// a risk profile written from the real rows of that risk for that user; the
// usage statistics of the last 30 days. The provider itself is ai-provider.ts.
import { consumeRate } from '../identity/rate-limits.js';
import { z } from 'zod';
import { Prisma } from '../../generated/prisma/client.js';
import { NotFoundError } from '../../core/errors.js';
import { recordAudit } from '../../core/audit.js';
import { parseOrThrow } from '../../core/validation.js';
import { DAY_MS, type Actor } from '../../core/types.js';
import type { Caller } from '../caller.js';
import { askModel, type AiDeps } from './ai-provider.js';

export const AI_CATEGORIES = ['Access Control', 'Data Privacy', 'Financial', 'Operational'] as const;
export type AiCategory = (typeof AI_CATEGORIES)[number];
/** Distinct functions, rule ids and systems a category prompt lists at most. */
const MAX_LISTED = 25;
/** Characters of any one value carried into a prompt. */
const MAX_VALUE = 300;
export const USAGE_DAYS = 30;

export const riskIdField = z
  .string({ error: 'riskId must be text' })
  .trim()
  .min(1, 'riskId is required')
  .max(200, 'riskId is too long (200 characters at most)');
const hint = (name: string) =>
  z
    .unknown()
    .refine((v) => v == null || typeof v === 'string' || (Array.isArray(v) && v.every((x) => typeof x === 'string')), `${name} must be text`)
    .optional();

export const categorizeInput = z.object({
  riskId: riskIdField,
  // SPEC §7 sends these; the prompt is built from the stored rows of the risk instead, so they are only checked.
  riskDescription: hint('riskDescription'),
  functions: hint('functions'),
  riskLevel: hint('riskLevel'),
  ruleId: hint('ruleId'),
  system: hint('system'),
});

const categoryFormat = z.object({ category: z.enum(AI_CATEGORIES), confidence: z.number() });
const categoryCheck = z.object({ category: z.enum(AI_CATEGORIES), confidence: z.number().min(0).max(1) });

export interface Categorization {
  riskId: string;
  suggestedCategory: AiCategory;
  confidence: number;
  processedAt: Date;
  /** How long the answer took (0 when it came from the cache). */
  processingMs: number;
  cached: boolean;
  rowsUpdated: number;
}

const clip = (s: string) => (s.length > MAX_VALUE ? `${s.slice(0, MAX_VALUE)}…` : s);

/** Whether the caller may see any row of this risk id (else it does not exist for them). */
async function requireVisibleRisk(caller: Caller, riskId: string) {
  const scope = await caller.viewer.scope();
  const [row] = await caller.deps.prisma.$queryRaw<{ n: bigint }[]>`
    SELECT count(*) AS n FROM (SELECT 1 FROM risk_rows r WHERE r.access_risk_id = ${riskId} AND ${scope.visible} LIMIT 1) x`;
  if (!row || Number(row.n) === 0) throw new NotFoundError(`No risk ${riskId} was found`);
}

async function categoryPrompt(deps: AiDeps, riskId: string): Promise<string> {
  const rows = await deps.prisma.$queryRaw<{ kind: string; value: string }[]>`
    (SELECT 'description' AS kind, risk_description AS value FROM risk_rows WHERE access_risk_id = ${riskId} AND risk_description <> '' ORDER BY id LIMIT 1)
    UNION ALL (SELECT DISTINCT 'level', risk_level::text FROM risk_rows WHERE access_risk_id = ${riskId} LIMIT 3)
    UNION ALL (SELECT DISTINCT 'function', function || CASE WHEN function_description <> '' THEN ' — ' || function_description ELSE '' END
               FROM risk_rows WHERE access_risk_id = ${riskId} AND function <> '' ORDER BY 2 LIMIT ${MAX_LISTED})
    UNION ALL (SELECT DISTINCT 'rule', rule_id FROM risk_rows WHERE access_risk_id = ${riskId} AND rule_id <> '' ORDER BY 2 LIMIT ${MAX_LISTED})
    UNION ALL (SELECT DISTINCT 'system', system FROM risk_rows WHERE access_risk_id = ${riskId} ORDER BY 2 LIMIT ${MAX_LISTED})`;
  const of = (kind: string) => rows.filter((r) => r.kind === kind).map((r) => clip(r.value));
  return [
    `Risk ID: ${riskId}`,
    `Risk description: ${of('description')[0] ?? '(none)'}`,
    `Risk level: ${of('level').join(', ')}`,
    `Functions: ${of('function').join('; ') || '(none)'}`,
    `Rule IDs: ${of('rule').join(', ') || '(none)'}`,
    `Systems: ${of('system').join(', ')}`,
  ].join('\n');
}

const CATEGORY_SYSTEM =
  'You classify segregation-of-duties access risks for an access review. Answer with one category: ' +
  'Access Control, Data Privacy, Financial or Operational, and your confidence between 0 and 1.';

/** Suggests a category for a risk id and stores it on every row of that risk (SPEC §7 POST /api/ai/categorize-risk). */
export async function categorizeRisk(caller: Caller, input: unknown): Promise<Categorization> {
  const { riskId } = parseOrThrow(categorizeInput, input);
  await consumeRate(caller.deps, 'ai', caller.actor.user.id);
  await requireVisibleRisk(caller, riskId);
  return categorizeRiskId(caller.deps, caller.actor, riskId);
}

/** The suggestion for a risk id the caller may see (or the bulk job, for every one), stored on all its rows with the usage row. */
export async function categorizeRiskId(deps: AiDeps, actor: Actor, riskId: string): Promise<Categorization & { cost: number }> {
  const started = Date.now();
  const answer = await askModel(deps, actor, {
    operation: 'categorize-risk',
    formatName: 'risk_category',
    format: categoryFormat,
    check: categoryCheck,
    system: CATEGORY_SYSTEM,
    prompt: await categoryPrompt(deps, riskId),
  });
  const processingMs = answer.cached ? 0 : Date.now() - started;
  const processedAt = new Date();
  const rowsUpdated = await deps.prisma.$transaction(async (tx) => {
    const n = await tx.$executeRaw`
      UPDATE risk_rows SET ai_suggested_category = ${answer.value.category}, ai_category_confidence = ${answer.value.confidence},
             ai_processed_at = ${processedAt}, ai_category_accepted = NULL
       WHERE access_risk_id = ${riskId}`;
    await answer.commit(tx);
    return n;
  });
  return {
    riskId,
    suggestedCategory: answer.value.category,
    confidence: answer.value.confidence,
    processedAt,
    processingMs,
    cached: answer.cached,
    rowsUpdated,
    cost: answer.cost,
  };
}

export const acceptInput = z.object({ accepted: z.boolean({ error: 'accepted must be true or false' }) });

export interface SuggestionDecision {
  riskId: string;
  accepted: boolean;
  suggestedCategory: string;
}

/** Accepts or rejects the suggestion on the rows of a risk id (SPEC §7 POST /api/ai/accept-suggestion/{riskId}). */
export async function acceptSuggestion(caller: Caller, riskIdRaw: unknown, input: unknown): Promise<SuggestionDecision> {
  const riskId = parseOrThrow(riskIdField, riskIdRaw);
  const { accepted } = parseOrThrow(acceptInput, input);
  await requireVisibleRisk(caller, riskId);
  return caller.deps.prisma.$transaction(async (tx) => {
    const [row] = await tx.$queryRaw<{ category: string | null }[]>`
      SELECT ai_suggested_category AS category FROM risk_rows WHERE access_risk_id = ${riskId} AND ai_suggested_category IS NOT NULL LIMIT 1`;
    if (!row?.category) throw new NotFoundError(`Risk ${riskId} has no AI suggestion to accept or reject`);
    await tx.$executeRaw`UPDATE risk_rows SET ai_category_accepted = ${accepted} WHERE access_risk_id = ${riskId} AND ai_suggested_category IS NOT NULL`;
    await recordAudit(tx, caller.actor, {
      action: accepted ? 'ai_suggestion.accepted' : 'ai_suggestion.rejected',
      entityType: 'AccessRisk',
      entityId: riskId,
      after: { suggestedCategory: row.category, accepted },
    });
    return { riskId, accepted, suggestedCategory: row.category };
  });
}

// ------------------------------------------------------------ risk profile
const text = (max: number) => z.string().max(max);
const profileFormat = z.object({
  accessRiskId: z.string(),
  riskDescription: z.string(),
  riskNature: z.string(),
  functionAnalysis: z.string(),
  severityAssessment: z.object({
    level: z.enum(['Critical', 'High', 'Medium', 'Low']),
    reasoning: z.string(),
    dimensions: z.array(z.object({ dimension: z.string(), observation: z.string(), impact: z.string() })),
  }),
  conclusion: z.string(),
  recommendedActions: z.array(z.string()),
});
const profileCheck = z.object({
  accessRiskId: text(200),
  riskDescription: text(4000),
  riskNature: text(4000).min(1),
  functionAnalysis: text(4000).min(1),
  severityAssessment: z.object({
    level: z.enum(['Critical', 'High', 'Medium', 'Low']),
    reasoning: text(4000),
    dimensions: z.array(z.object({ dimension: text(200), observation: text(1000), impact: text(200) })).max(12),
  }),
  conclusion: text(4000).min(1),
  recommendedActions: z.array(text(1000)).min(1).max(12),
});
export type RiskProfile = z.infer<typeof profileCheck>;

export const profileInput = z.object({
  accessRiskId: riskIdField,
  userId: z.string({ error: 'userId must be text' }).trim().min(1, 'userId is required').max(200),
  riskDescription: hint('riskDescription'),
});

const PROFILE_SYSTEM =
  'You write risk profiles of segregation-of-duties access risks for reviewers who are not auditors. ' +
  'Use only the rows given; be concrete and brief. Severity level is Critical, High, Medium or Low.';

interface ProfileRow {
  function: string;
  function_description: string;
  action: string;
  action_description: string;
  role_profile: string;
  composite_business_role: string;
  system: string;
  business_process: string;
  rule_id: string;
  risk_description: string;
  risk_level: string;
  user_name: string;
}

/** A risk profile from the real rows of that risk for that user, at most AI_PROFILE_MAX_ROWS of them (SPEC §7 POST /api/ai/risk-profile). */
export async function riskProfile(caller: Caller, input: unknown): Promise<RiskProfile & { cached: boolean; rowsUsed: number; rowsTotal: number }> {
  const { deps, actor } = caller;
  const { accessRiskId, userId } = parseOrThrow(profileInput, input);
  await consumeRate(deps, 'ai', actor.user.id);
  const scope = await caller.viewer.scope();
  const max = deps.config.AI_PROFILE_MAX_ROWS;
  const rows = await deps.prisma.$queryRaw<ProfileRow[]>`
    SELECT r.function, r.function_description, r.action, r.action_description, r.role_profile, r.composite_business_role,
           r.system, r.business_process, r.rule_id, r.risk_description, r.risk_level::text AS risk_level, r.user_name
      FROM risk_rows r WHERE r.access_risk_id = ${accessRiskId} AND r.user_id = ${userId} AND ${scope.visible}
     ORDER BY r.id LIMIT ${max + 1}`;
  if (!rows.length) throw new NotFoundError(`No rows of risk ${accessRiskId} for user ${userId} were found`);
  const [{ n }] = (await deps.prisma.$queryRaw<{ n: bigint }[]>`
    SELECT count(*) AS n FROM risk_rows r WHERE r.access_risk_id = ${accessRiskId} AND r.user_id = ${userId} AND ${scope.visible}`) as [{ n: bigint }];
  const used = rows.slice(0, max);
  const first = used[0]!;
  const lines = used.map(
    (r, i) =>
      `${i + 1}. function ${clip(r.function)} (${clip(r.function_description)}); action ${clip(r.action)} (${clip(r.action_description)}); ` +
      `role ${clip(r.role_profile)}${r.composite_business_role ? ` via composite ${clip(r.composite_business_role)}` : ''}; system ${clip(r.system)}; ` +
      `process ${clip(r.business_process)}; rule ${clip(r.rule_id)}`,
  );
  const prompt = [
    `Risk ID: ${accessRiskId}`,
    `Risk description: ${clip(first.risk_description)}`,
    `Risk level: ${first.risk_level}`,
    `User: ${clip(first.user_name)} (${userId})`,
    `Rows (${used.length} of ${Number(n)}):`,
    ...lines,
  ].join('\n');
  const answer = await askModel(deps, actor, {
    operation: 'risk-profile',
    formatName: 'risk_profile',
    format: profileFormat,
    check: profileCheck,
    system: PROFILE_SYSTEM,
    prompt,
  });
  const profile = { ...answer.value, accessRiskId };
  await deps.prisma.$transaction(async (tx) => {
    await tx.aiRiskProfile.create({ data: { accessRiskId, profile: profile as Prisma.InputJsonValue, model: answer.model, createdById: actor.user.id } });
    await answer.commit(tx);
  });
  return { ...profile, cached: answer.cached, rowsUsed: used.length, rowsTotal: Number(n) };
}

// ------------------------------------------------------------ usage
export interface UsageDay {
  day: string;
  calls: number;
  failed: number;
  cost: number;
}

export interface UsageStats {
  totalCalls: number;
  successfulCalls: number;
  failedCalls: number;
  totalCost: number;
  totalTokens: number;
  days: UsageDay[];
}

/** Calls of the last 30 days (SPEC §2, §7 GET /api/ai/usage-stats), with the calls and cost per day (UTC). */
export async function usageStats(caller: Caller): Promise<UsageStats> {
  const since = new Date(Date.now() - USAGE_DAYS * DAY_MS);
  const rows = await caller.deps.prisma.$queryRaw<{ day: string; calls: bigint; ok: bigint; cost: Prisma.Decimal | null; tokens: bigint | null }[]>`
    SELECT to_char(date_trunc('day', created_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS day, count(*) AS calls,
           count(*) FILTER (WHERE success) AS ok, sum(cost_usd) AS cost, sum(total_tokens) AS tokens
      FROM ai_usage WHERE created_at >= ${since} GROUP BY 1 ORDER BY 1`;
  const days = rows.map((r) => ({ day: r.day, calls: Number(r.calls), failed: Number(r.calls) - Number(r.ok), cost: Number(r.cost ?? 0) }));
  const sum = (f: (r: (typeof rows)[number]) => number) => rows.reduce((a, r) => a + f(r), 0);
  const totalCalls = sum((r) => Number(r.calls));
  const successfulCalls = sum((r) => Number(r.ok));
  return {
    totalCalls,
    successfulCalls,
    failedCalls: totalCalls - successfulCalls,
    totalCost: Math.round(sum((r) => Number(r.cost ?? 0)) * 1e6) / 1e6,
    totalTokens: sum((r) => Number(r.tokens ?? 0)),
    days,
  };
}

// ------------------------------------------------------------ stored suggestions
export interface StoredSuggestion {
  category: string;
  confidence: number;
  processedAt: Date | null;
  accepted: boolean | null;
}

/** The stored suggestion of each risk id (null when none), in the order asked. */
export async function suggestionsFor(caller: Caller, riskIds: readonly string[]): Promise<(StoredSuggestion | null)[]> {
  const rows = await caller.deps.prisma.$queryRaw<
    { id: string; category: string; confidence: number | null; processed_at: Date | null; accepted: boolean | null }[]
  >`
    SELECT DISTINCT ON (access_risk_id) access_risk_id AS id, ai_suggested_category AS category, ai_category_confidence AS confidence,
           ai_processed_at AS processed_at, ai_category_accepted AS accepted
      FROM risk_rows WHERE access_risk_id = ANY(${[...riskIds]}::text[]) AND ai_suggested_category IS NOT NULL
     ORDER BY access_risk_id, ai_processed_at DESC NULLS LAST`;
  const byId = new Map(rows.map((r) => [r.id, { category: r.category, confidence: r.confidence ?? 0, processedAt: r.processed_at, accepted: r.accepted }]));
  return riskIds.map((id) => byId.get(id) ?? null);
}
