// Bulk categorisation (beyond the spec): an administrator has
// every uncategorised risk id of the current data categorised by a background
// job, one risk id at a time, with a cost estimate before it starts, a spend cap
// from settings, live progress (pub/sub) and resumption after a restart (the
// run's state is its row and the rows still uncategorised).
import type { AiBulkRun, PrismaClient } from '../../generated/prisma/client.js';
import { Prisma } from '../../generated/prisma/client.js';
import type { Config } from '../../config.js';
import type { JobQueue } from '../../db/queue.js';
import { JOBS } from '../../db/queue.js';
import type { PubSub } from '../../pubsub.js';
import { AiNotConfiguredError, AiServiceError, ConflictError } from '../../core/errors.js';
import { recordAudit } from '../../core/audit.js';
import { isUuid, type Actor } from '../../core/types.js';
import type { Caller } from '../caller.js';
import { LIVE_ROWS } from '../live-rows.js';
import { categorizeRiskId } from './ai.js';
import { costOf } from './ai-provider.js';
import { AI_SPEND_CAP_KEY, readSetting, requireAdminSession } from '../identity/settings.js';

export interface BulkDeps {
  prisma: PrismaClient;
  config: Config;
  pubsub: PubSub;
  jobs: JobQueue;
}

/** Tokens of one categorisation when no call has been made yet to average over. */
const TYPICAL_CALL = { promptTokens: 350, completionTokens: 25 };
/** A run whose worker sent no heartbeat this long is taken over (a restart). */
const STALE_MS = 60_000;

export interface BulkEstimate {
  uncategorized: number;
  estimatedCostUsd: number;
  perCallUsd: number;
  spendCapUsd: number | null;
}

export interface BulkProgress {
  runId: string;
  status: AiBulkRun['status'];
  total: number;
  done: number;
  failed: number;
  costUsd: number;
  spendCapUsd: number | null;
  error: string | null;
}

export function progressOf(r: AiBulkRun): BulkProgress {
  return {
    runId: r.id,
    status: r.status,
    total: r.total,
    done: r.done,
    failed: r.failed,
    costUsd: Number(r.costUsd),
    spendCapUsd: r.spendCapUsd == null ? null : Number(r.spendCapUsd),
    error: r.error,
  };
}

/** What one categorisation costs: the average of recent successful ones, else a typical call at the model's price. */
async function perCallCost(deps: BulkDeps): Promise<number> {
  const [r] = await deps.prisma.$queryRaw<{ avg: Prisma.Decimal | null }[]>`
    SELECT avg(cost_usd) AS avg FROM ai_usage WHERE operation = 'categorize-risk' AND success AND total_tokens > 0
       AND created_at >= now() - interval '30 days'`;
  const avg = r?.avg == null ? 0 : Number(r.avg);
  return avg > 0 ? avg : costOf(deps.config, deps.config.OPENAI_MODEL, TYPICAL_CALL);
}

async function spendCap(deps: BulkDeps): Promise<number | null> {
  const v = await readSetting(deps.prisma, deps.config, AI_SPEND_CAP_KEY);
  return v == null ? null : Number(v);
}

const UNCATEGORIZED = Prisma.sql`FROM risk_rows r WHERE ${LIVE_ROWS} AND r.ai_suggested_category IS NULL`;

export async function estimateBulk(caller: Caller): Promise<BulkEstimate> {
  const { deps } = caller;
  const [c] = await deps.prisma.$queryRaw<{ n: bigint }[]>`SELECT count(DISTINCT r.access_risk_id) AS n ${UNCATEGORIZED}`;
  const uncategorized = Number(c?.n ?? 0);
  const perCallUsd = await perCallCost(deps);
  return { uncategorized, perCallUsd, estimatedCostUsd: Math.round(uncategorized * perCallUsd * 1e6) / 1e6, spendCapUsd: await spendCap(deps) };
}

export async function latestBulkRun(caller: Caller): Promise<AiBulkRun | null> {
  return caller.deps.prisma.aiBulkRun.findFirst({ orderBy: { createdAt: 'desc' } });
}

/** Runs by their ids, in the order asked (null for an id of no run, or not a uuid): node(id:) reads a run back. */
export async function bulkRunsById(caller: Caller, ids: readonly string[]): Promise<(BulkProgress | null)[]> {
  const wanted = ids.filter(isUuid);
  if (!wanted.length) return ids.map(() => null);
  const byId = new Map((await caller.deps.prisma.aiBulkRun.findMany({ where: { id: { in: wanted } } })).map((r) => [r.id, progressOf(r)]));
  return ids.map((id) => byId.get(id) ?? null);
}

/** Starts a run (one at a time) and queues its job. */
export async function startBulk(caller: Caller): Promise<AiBulkRun> {
  const { deps, actor } = caller;
  const me = requireAdminSession(actor, 'Bulk categorisation can be started');
  if (!(await readSetting(deps.prisma, deps.config, 'openai_api_key'))) {
    throw new AiNotConfiguredError('No OpenAI API key is configured. An administrator can add one in Admin Settings.');
  }
  const estimate = await estimateBulk(caller);
  const run = await deps.prisma.$transaction(async (tx) => {
    if (await tx.aiBulkRun.count({ where: { status: 'running' } })) throw new ConflictError('A bulk categorisation is already running');
    const created = await tx.aiBulkRun.create({
      data: {
        total: estimate.uncategorized,
        estimatedCostUsd: new Prisma.Decimal(estimate.estimatedCostUsd.toFixed(6)),
        spendCapUsd: estimate.spendCapUsd == null ? null : new Prisma.Decimal(estimate.spendCapUsd.toFixed(6)),
        startedById: me.id,
        status: estimate.uncategorized === 0 ? 'completed' : 'running',
        finishedAt: estimate.uncategorized === 0 ? new Date() : null,
      },
    });
    await recordAudit(tx, actor, { action: 'ai_bulk.started', entityType: 'AiBulkRun', entityId: created.id, after: estimate });
    return created;
  });
  if (run.status === 'running') await deps.jobs.boss.send(JOBS.aiBulkCategorize, { runId: run.id, startedBy: me.id }, { expireInSeconds: 6 * 3600 });
  deps.pubsub.publish('ai-bulk:progress', progressOf(run));
  return run;
}

/** After a restart: a run still 'running' gets a job again (its worker waits until the old heartbeat is stale). */
export async function resumeBulkRuns(deps: BulkDeps): Promise<void> {
  const running = await deps.prisma.aiBulkRun.findMany({ where: { status: 'running' } });
  for (const r of running) await deps.jobs.boss.send(JOBS.aiBulkCategorize, { runId: r.id, startedBy: r.startedById }, { expireInSeconds: 6 * 3600 });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Claims the run: fresh (no heartbeat since it was created by this job) or abandoned (heartbeat stale). */
async function claim(deps: BulkDeps, runId: string, token: Date): Promise<boolean> {
  for (;;) {
    const run = await deps.prisma.aiBulkRun.findUnique({ where: { id: runId } });
    if (!run || run.status !== 'running') return false;
    const fresh = run.done === 0 && run.failed === 0 && run.updatedAt.getTime() === run.createdAt.getTime();
    if (fresh || Date.now() - run.updatedAt.getTime() > STALE_MS) {
      const n = await deps.prisma.aiBulkRun.updateMany({ where: { id: runId, status: 'running', updatedAt: run.updatedAt }, data: { updatedAt: token } });
      if (n.count === 1) return true;
    }
    await sleep(5_000);
  }
}

/**
 * The job: categorises the uncategorised risk ids one at a time until none is
 * left, the spend cap would be passed, or the key is refused (then the run
 * fails with the reason). A risk id that fails is counted and skipped.
 */
export async function runBulk(deps: BulkDeps, runId: string, startedBy: string | null): Promise<void> {
  let heartbeat = new Date();
  if (!(await claim(deps, runId, heartbeat))) return;
  const user = startedBy ? await deps.prisma.user.findUnique({ where: { id: startedBy } }) : null;
  const actor: Actor = { user };
  const skipped: string[] = [];
  const finish = async (status: AiBulkRun['status'], error: string | null = null) => {
    const run = await deps.prisma.aiBulkRun.update({ where: { id: runId }, data: { status, error, finishedAt: new Date(), updatedAt: new Date() } });
    deps.pubsub.publish('ai-bulk:progress', progressOf(run));
  };
  for (;;) {
    const run = await deps.prisma.aiBulkRun.findUnique({ where: { id: runId } });
    // Another worker took it over, or it ended.
    if (!run || run.status !== 'running' || run.updatedAt.getTime() !== heartbeat.getTime()) return;
    const [next] = await deps.prisma.$queryRaw<{ id: string }[]>`
      SELECT r.access_risk_id AS id ${UNCATEGORIZED} AND NOT (r.access_risk_id = ANY(${skipped}::text[])) ORDER BY r.access_risk_id LIMIT 1`;
    if (!next) return finish('completed');
    const cap = run.spendCapUsd == null ? null : Number(run.spendCapUsd);
    if (cap != null && Number(run.costUsd) + (await perCallCost(deps)) > cap) return finish('capped', `The spend cap of $${cap.toFixed(4)} was reached`);
    let cost = 0;
    let failed = 0;
    try {
      cost = (await categorizeRiskId(deps, actor, next.id)).cost;
    } catch (err) {
      if (err instanceof AiNotConfiguredError || (err instanceof AiServiceError && err.reason === 'invalid_key')) return finish('failed', err.message);
      skipped.push(next.id);
      failed = 1;
    }
    heartbeat = new Date();
    const updated = await deps.prisma.aiBulkRun.update({
      where: { id: runId },
      data: {
        done: { increment: 1 - failed },
        failed: { increment: failed },
        costUsd: { increment: new Prisma.Decimal(cost.toFixed(6)) },
        updatedAt: heartbeat,
      },
    });
    deps.pubsub.publish('ai-bulk:progress', progressOf(updated));
  }
}
