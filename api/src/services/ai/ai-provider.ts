// The AI provider, in one place: the OpenAI SDK against OPENAI_BASE_URL with
// the stored key, a timeout and the SDK's retries (429s wait as Retry-After
// says); each answer checked by a zod schema; every call recorded in ai_usage
// (tokens, cost from the configured price table, success or the error); an
// identical request answered from ai_response_cache instead of being paid twice.
import crypto from 'node:crypto';
import OpenAI from 'openai';
import { zodResponseFormat } from 'openai/helpers/zod';
import type { z } from 'zod';
import { Prisma, type PrismaClient } from '../../generated/prisma/client.js';
import type { Config } from '../../config.js';
import { AiNotConfiguredError, AiServiceError } from '../../core/errors.js';
import type { Actor, DbClient } from '../../core/types.js';
import type { Caller } from '../caller.js';
import { OPENAI_API_KEY, readSetting } from '../identity/settings.js';

export interface AiDeps {
  prisma: PrismaClient;
  config: Config;
}

export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
}

/** Dollars for these tokens at the model's configured price (unknown model: 0, tokens still recorded). */
export function costOf(config: Config, model: string, u: TokenUsage): number {
  const price = config.aiPrices[model];
  if (!price) return 0;
  return (u.promptTokens * price.input + u.completionTokens * price.output) / 1_000_000;
}

interface UsageRecord {
  operation: string;
  model: string;
  usage: TokenUsage;
  success: boolean;
  error?: string | null;
}

async function recordUsage(db: DbClient, config: Config, actor: Actor, r: UsageRecord) {
  await db.aiUsage.create({
    data: {
      userId: actor.user?.id ?? null,
      operation: r.operation,
      model: r.model,
      promptTokens: r.usage.promptTokens,
      completionTokens: r.usage.completionTokens,
      totalTokens: r.usage.promptTokens + r.usage.completionTokens,
      costUsd: new Prisma.Decimal(costOf(config, r.model, r.usage).toFixed(6)),
      success: r.success,
      error: r.error ? r.error.slice(0, 1000) : null,
    },
  });
}

const NO_KEY = 'No OpenAI API key is configured. An administrator can add one in Admin Settings.';

/** The SDK client with the stored key; throws AiNotConfiguredError when there is none. */
async function clientFor(deps: AiDeps): Promise<OpenAI> {
  const apiKey = await readSetting(deps.prisma, deps.config, OPENAI_API_KEY);
  if (!apiKey) throw new AiNotConfiguredError(NO_KEY);
  return new OpenAI({
    apiKey,
    baseURL: deps.config.OPENAI_BASE_URL,
    timeout: deps.config.OPENAI_TIMEOUT_SECONDS * 1000,
    maxRetries: deps.config.OPENAI_MAX_RETRIES,
  });
}

/** A provider failure as a person reads it. */
export function explain(config: Config, err: unknown): AiServiceError | AiNotConfiguredError {
  if (err instanceof AiServiceError || err instanceof AiNotConfiguredError) return err;
  if (err instanceof OpenAI.AuthenticationError || err instanceof OpenAI.PermissionDeniedError) {
    return new AiServiceError('Invalid API Key: the AI provider refused the configured key. An administrator can update it in Admin Settings.', 'invalid_key');
  }
  if (err instanceof OpenAI.RateLimitError) {
    return new AiServiceError('The AI service is receiving too many requests (rate limit reached). Please wait a minute and try again.', 'rate_limited');
  }
  if (err instanceof OpenAI.APIConnectionTimeoutError) {
    return new AiServiceError(`The AI service did not answer within ${config.OPENAI_TIMEOUT_SECONDS} seconds. Please try again later.`, 'timeout');
  }
  if (err instanceof OpenAI.APIConnectionError) return new AiServiceError('The AI service could not be reached. Please try again later.', 'unreachable');
  if (err instanceof OpenAI.APIError) {
    return new AiServiceError(`The AI service answered with an error (HTTP ${err.status ?? 'unknown'}). Please try again later.`, 'provider_error');
  }
  return new AiServiceError('The AI request failed unexpectedly. Please try again later.', 'provider_error');
}

export interface ModelRequest<T> {
  /** What the call is for (ai_usage.operation): categorize-risk, risk-profile. */
  operation: string;
  /** The name of the JSON schema sent as the response format. */
  formatName: string;
  /** The shape asked of the model (sent as the response format). */
  format: z.ZodType;
  /** The full check of the answer (ranges, lengths): an answer outside it is an error. */
  check: z.ZodType<T>;
  system: string;
  prompt: string;
}

export interface ModelAnswer<T> {
  value: T;
  /** Answered from the cache: nothing was paid. */
  cached: boolean;
  model: string;
  /** What the call cost in dollars (0 from the cache). */
  cost: number;
  /** Writes the usage row and the cache entry; run it in the transaction that stores the result. */
  commit(tx: DbClient): Promise<void>;
}

function requestHash(model: string, r: ModelRequest<unknown>): string {
  return crypto
    .createHash('sha256')
    .update(JSON.stringify([r.operation, model, r.formatName, r.system, r.prompt]))
    .digest('hex');
}

/**
 * Asks the model, or the cache for an identical request. A failure (no key,
 * refused key, rate limit after the SDK's retries, timeout, an answer the check
 * refuses) is recorded as a failed call, in its own write, and thrown as an
 * error a person understands; nothing else is written.
 */
export async function askModel<T>(deps: AiDeps, actor: Actor, r: ModelRequest<T>): Promise<ModelAnswer<T>> {
  const model = deps.config.OPENAI_MODEL;
  const hash = requestHash(model, r);
  const hit = await deps.prisma.aiResponseCache.findUnique({ where: { requestHash: hash } });
  if (hit) {
    const again = r.check.safeParse(hit.response);
    if (again.success) return { value: again.data, cached: true, model, cost: 0, commit: async () => {} };
  }
  let usage: TokenUsage = { promptTokens: 0, completionTokens: 0 };
  try {
    const client = await clientFor(deps);
    const completion = await client.chat.completions.create({
      model,
      temperature: 0,
      messages: [
        { role: 'system', content: r.system },
        { role: 'user', content: r.prompt },
      ],
      response_format: zodResponseFormat(r.format, r.formatName),
    });
    usage = { promptTokens: completion.usage?.prompt_tokens ?? 0, completionTokens: completion.usage?.completion_tokens ?? 0 };
    const content = completion.choices[0]?.message?.content ?? '';
    let parsed: unknown;
    try {
      parsed = JSON.parse(content);
    } catch {
      throw new AiServiceError('The AI service gave an answer that was not in the expected format. Nothing was stored; please try again.', 'malformed');
    }
    const checked = r.check.safeParse(parsed);
    if (!checked.success) {
      const issue = checked.error.issues[0];
      const where = issue?.path.length ? ` (${issue.path.join('.')})` : '';
      throw new AiServiceError(`The AI service gave an answer outside what is allowed${where}. Nothing was stored; please try again.`, 'malformed');
    }
    return {
      value: checked.data,
      cached: false,
      model,
      cost: costOf(deps.config, model, usage),
      async commit(tx) {
        await recordUsage(tx, deps.config, actor, { operation: r.operation, model, usage, success: true });
        await tx.aiResponseCache.upsert({
          where: { requestHash: hash },
          create: { requestHash: hash, operation: r.operation, model, response: checked.data as Prisma.InputJsonValue },
          update: { response: checked.data as Prisma.InputJsonValue, createdAt: new Date() },
        });
      },
    };
  } catch (err) {
    const e = explain(deps.config, err);
    await recordUsage(deps.prisma, deps.config, actor, { operation: r.operation, model, usage, success: false, error: e.message });
    throw e;
  }
}

export interface KeyValidation {
  isValid: boolean;
  error: string | null;
}

/** A real, free call with the stored key (the model list); recorded like any call. */
export async function validateStoredKey(caller: Caller): Promise<KeyValidation> {
  const { deps, actor } = caller;
  const model = deps.config.OPENAI_MODEL;
  try {
    const client = await clientFor(deps);
    await client.models.list();
    await recordUsage(deps.prisma, deps.config, actor, { operation: 'validate-key', model, usage: { promptTokens: 0, completionTokens: 0 }, success: true });
    return { isValid: true, error: null };
  } catch (err) {
    const e = explain(deps.config, err);
    await recordUsage(deps.prisma, deps.config, actor, {
      operation: 'validate-key',
      model,
      usage: { promptTokens: 0, completionTokens: 0 },
      success: false,
      error: e.message,
    });
    return { isValid: false, error: e instanceof AiServiceError && e.reason === 'invalid_key' ? 'The API key is not valid' : e.message };
  }
}
