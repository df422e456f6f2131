// Analysis runs: a rule set version against the current extract of each
// system on a date (today, UTC, unless given), run by a job (jobs/access.ts)
// in one transaction (analysis-sql.ts), so a run's conflicts appear whole or
// not at all. One run at a time per rule set (409). Added / removed count
// (user, risk) pairs against the previous completed run of the same rule set
// version (a first run: all added).
// A run of a version that is not the active one of its name is a test run:
// it is compared with the latest completed run of the active version (its
// added / removed are what the version would add or remove), it is never a
// previous run of anything, and it cannot be sent to the review, so trying a
// rule change touches nothing reviewers see.
// A run that only a new extract of one system separates from the previous
// real run of its version recomputes only the users the new extract touches
// and shares the others' conflicts and rows with the runs holding them
// (incremental.ts); it says how many it recomputed. Its counts are read from
// its users (access_run_users), not from the shared rows.
import { z } from 'zod';
import { Prisma } from '../../generated/prisma/client.js';
import type { AppDeps } from '../deps.js';
import type { Caller } from '../caller.js';
import { actorLabel, recordAudit } from '../../core/audit.js';
import { ConflictError, NotFoundError, ValidationError } from '../../core/errors.js';
import { JOBS, onTransaction } from '../../db/queue.js';
import { ANALYSIS_CONFLICTS_SQL, analysisStatements } from './analysis-sql.js';
import { comparedRunId, previousRealRun } from './compared-run.js';
import { currentExtracts } from './extracts.js';
import {
  ADDED_REMOVED_SQL,
  INCREMENTAL_MERGE_SQL,
  RECOMPUTED_ALL_SQL,
  RECOMPUTED_TOUCHED_SQL,
  RUN_CONFLICTS,
  alsoInRun,
  incrementalBase,
  touchedUsersSql,
} from './incremental.js';
import { UUID, getRuleSet } from './rule-sets.js';

export type AnalysisDeps = Pick<AppDeps, 'prisma' | 'db'>;

export const analysisInputSchema = z.object({
  ruleSetId: z.string({ error: 'ruleSetId is required' }).regex(UUID, 'ruleSetId must be a rule set id'),
  systems: z.array(z.string().min(1).max(40), { error: 'systems must be a list of system names' }).max(500).optional(),
  asOf: z
    .string({ error: 'asOf must be a date (YYYY-MM-DD)' })
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'asOf must be a date (YYYY-MM-DD)')
    .refine(
      (s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s),
      'asOf must be a real date (YYYY-MM-DD)',
    )
    .optional(),
});
export type AnalysisInput = z.infer<typeof analysisInputSchema>;

const RUN = {
  id: true,
  ruleSetId: true,
  test: true,
  compareToId: true,
  systems: true,
  asOf: true,
  status: true,
  progress: true,
  conflicts: true,
  rows: true,
  users: true,
  exercised: true,
  added: true,
  removed: true,
  recomputedUsers: true,
  baseRunId: true,
  startedBy: true,
  startedAt: true,
  finishedAt: true,
  errorMessage: true,
} as const;

/** Creates a run (status 'processing') with the extracts it will use, and queues it. */
export async function startAnalysis(caller: Caller, input: AnalysisInput): Promise<{ id: string }> {
  const { deps, actor } = caller;
  // The rule set is named by a field of the request, not by its path: one that does not exist is a 400 naming it.
  const ruleSet = await getRuleSet(caller, input.ruleSetId).catch((e: unknown) => {
    throw e instanceof NotFoundError ? new ValidationError(`ruleSetId: no rule set has the id ${input.ruleSetId}`, 'ruleSetId') : e;
  });
  const systems = input.systems ? [...new Set(input.systems)] : undefined;
  const extracts = await currentExtracts(deps, systems);
  const missing = (systems ?? []).filter((s) => !extracts.some((x) => x.system === s));
  if (missing.length) throw new ValidationError(`systems: no loaded extract of ${missing.join(', ')}`, 'systems');
  if (!extracts.length) throw new ValidationError('systems: no system has a loaded extract yet', 'systems');
  const asOf = input.asOf ?? new Date().toISOString().slice(0, 10);
  return deps.prisma.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${'access-analysis:' + input.ruleSetId}))`;
    if (await tx.accessAnalysisRun.count({ where: { ruleSetId: input.ruleSetId, status: 'processing' } })) {
      throw new ConflictError('An analysis of this rule set is already running; wait for it to finish');
    }
    // Read under the lock, so the comparison is the active version's latest run at this moment.
    const compareTo = ruleSet.active ? null : await activeVersionRun(tx, ruleSet.name);
    const run = await tx.accessAnalysisRun.create({
      data: {
        ruleSetId: input.ruleSetId,
        test: !ruleSet.active,
        compareToId: compareTo?.id ?? null,
        systems: extracts.map((x) => x.system),
        extractIds: extracts.map((x) => x.id),
        asOf: new Date(`${asOf}T00:00:00Z`),
        startedBy: actorLabel(actor),
      },
      select: { id: true },
    });
    await deps.jobs.boss.send(JOBS.accessAnalysis, { runId: run.id }, { db: onTransaction(tx) });
    await recordAudit(tx, actor, {
      action: 'access.analysis.started',
      entityType: 'access_analysis_run',
      entityId: run.id,
      after: { ruleSetId: input.ruleSetId, test: !ruleSet.active, systems: extracts.map((x) => x.system), asOf },
    });
    return run;
  });
}

/** Runs a queued analysis; a failure ends it 'failed' with nothing of it kept. */
export async function runAnalysis(deps: AnalysisDeps, runId: string): Promise<void> {
  const run = await deps.prisma.accessAnalysisRun.findUnique({ where: { id: runId } });
  if (!run || run.status !== 'processing') return;
  const asOf = run.asOf.toISOString().slice(0, 10);
  try {
    await deps.prisma.$transaction(
      async (tx) => {
        await tx.accessRunUser.deleteMany({ where: { runId } });
        await tx.accessConflictRow.deleteMany({ where: { runId } });
        await tx.accessConflict.deleteMany({ where: { runId } });
        // The previous real run of the version is the base an incremental run shares its untouched users
        // from; added / removed count against the compared run, as the change lists do.
        const previous = await previousRealRun(tx, run);
        const previousId = comparedRunId(run, previous);
        const base = incrementalBase(run, previous);
        if (base) {
          await tx.$executeRawUnsafe(touchedUsersSql(base.oldExtract, base.newExtract));
          await tx.$executeRawUnsafe('ANALYZE access_t_touched');
        }
        for (const statement of analysisStatements({ runId, ruleSetId: run.ruleSetId, extractIds: run.extractIds, asOf, touchedOnly: Boolean(base) }))
          await tx.$executeRawUnsafe(statement);
        await tx.$executeRawUnsafe(ANALYSIS_CONFLICTS_SQL, runId);
        const [recomputed] = base
          ? await tx.$queryRawUnsafe<{ n: number }[]>(RECOMPUTED_TOUCHED_SQL, base.baseRunId)
          : await tx.$queryRawUnsafe<{ n: number }[]>(RECOMPUTED_ALL_SQL);
        // What follows joins the run's users by key, a few probes each: nested loops are right again.
        await tx.$executeRawUnsafe('SET LOCAL enable_nestloop = on');
        if (base)
          for (const statement of INCREMENTAL_MERGE_SQL)
            await tx.$executeRawUnsafe(statement, ...[runId, base.baseRunId].slice(0, statement.includes('$2') ? 2 : 1));
        const [counts] = await tx.$queryRawUnsafe<{ conflicts: number; rows: number; users: number; exercised: number }[]>(
          `SELECT coalesce(sum(conflicts), 0)::int AS conflicts, coalesce(sum(rows), 0)::int AS rows, count(*)::int AS users,
                  coalesce(sum(exercised), 0)::int AS exercised
             FROM access_run_users WHERE run_id = $1::uuid`,
          runId,
        );
        const [changed] = await tx.$queryRawUnsafe<{ added: number; removed: number }[]>(ADDED_REMOVED_SQL, runId, previousId);
        const c = { ...counts!, ...changed! };
        await tx.accessAnalysisRun.update({
          where: { id: runId },
          data: { ...c, recomputedUsers: recomputed!.n, baseRunId: base?.baseRunId ?? null, status: 'completed', progress: 100, finishedAt: new Date() },
        });
      },
      { timeout: 30 * 60_000, maxWait: 60_000 },
    );
  } catch (e) {
    await deps.prisma.accessAnalysisRun.update({
      where: { id: runId },
      data: { status: 'failed', finishedAt: new Date(), errorMessage: `The analysis failed: ${(e as Error).message}` },
    });
  }
}

export async function getAnalysis(caller: Caller, id: string) {
  const run = UUID.test(id) ? await caller.deps.prisma.accessAnalysisRun.findUnique({ where: { id }, select: RUN }) : null;
  if (!run) throw new NotFoundError(`No analysis ${id}`);
  return run;
}

type Tx = Parameters<Parameters<AnalysisDeps['prisma']['$transaction']>[0]>[0];

/** The latest completed run (not a test) of the active version of the rule set name, if any. */
async function activeVersionRun(tx: Tx, name: string) {
  return tx.accessAnalysisRun.findFirst({
    where: { status: 'completed', test: false, ruleSet: { name, active: true } },
    orderBy: [{ startedAt: 'desc' }, { finishedAt: 'desc' }],
    select: { id: true },
  });
}

/** A (user, risk) a test run would add or remove against the run it is compared with. */
export interface ConflictChange {
  userId: string;
  riskId: string;
  riskDescription: string;
}

/** Changes listed per side at most (the run's added / removed count them all). */
export const MAX_CHANGES = 500;

/**
 * What a test run would change: the (user, risk) conflicts it found that the
 * run it is compared with did not (add) and the reverse (remove), by user then
 * risk; empty lists for a run that is not a test or has not completed.
 */
export async function testChanges(
  caller: Caller,
  run: { id: string; test: boolean; status: string; compareToId: string | null },
  side: 'add' | 'remove',
  limit = MAX_CHANGES,
): Promise<ConflictChange[]> {
  if (!run.test || run.status !== 'completed') return [];
  const [from, against] = side === 'add' ? [run.id, run.compareToId] : [run.compareToId, run.id];
  if (!from) return [];
  const other = against ? Prisma.sql`AND NOT ${alsoInRun(against)}` : Prisma.empty;
  return caller.deps.prisma.$queryRaw<ConflictChange[]>`
    SELECT c.user_id AS "userId", c.risk_id AS "riskId", coalesce(k.description, '') AS "riskDescription"
       FROM ${Prisma.raw(RUN_CONFLICTS)}
       JOIN access_analysis_runs r ON r.id = m.run_id
       LEFT JOIN access_risks k ON k.rule_set_id = r.rule_set_id AND k.risk_id = c.risk_id
      WHERE m.run_id = ${from}::uuid ${other}
      ORDER BY c.user_id, c.risk_id LIMIT ${Math.max(1, Math.min(Math.trunc(limit), MAX_CHANGES))}`;
}
