// The run an analysis run is compared with, one rule for its added / removed
// counts (analysis.ts) and its new / resolved / unchanged lists (changes.ts):
// of a test run, compareTo (the active version's run it was started beside);
// of any other run, its previous real run, which is also the base an
// incremental run copies its untouched users from.
import type { DbClient } from '../../core/types.js';
import type { Caller } from '../caller.js';

export type RunRef = { id: string; ruleSetId: string; startedAt: Date; test: boolean; compareToId: string | null };

/**
 * The previous real run of a run's rule set version: the newest other
 * completed run that is not a test, started no later; null for a first run.
 * With what an incremental run needs of it (its systems, extracts and date).
 */
export function previousRealRun(db: DbClient, run: Pick<RunRef, 'id' | 'ruleSetId' | 'startedAt'>) {
  return db.accessAnalysisRun.findFirst({
    where: { ruleSetId: run.ruleSetId, status: 'completed', test: false, startedAt: { lte: run.startedAt }, NOT: { id: run.id } },
    orderBy: [{ startedAt: 'desc' }, { finishedAt: 'desc' }],
    select: { id: true, systems: true, extractIds: true, asOf: true },
  });
}

/** The run a run is compared with, given its previous real run: of a test run compareTo, of any other that previous run. */
export function comparedRunId(run: Pick<RunRef, 'test' | 'compareToId'>, previous: { id: string } | null): string | null {
  return run.test ? run.compareToId : (previous?.id ?? null);
}

/** The run a run is compared with (comparedRunId), read. */
export async function comparedRunOf(caller: Caller, run: RunRef): Promise<string | null> {
  return comparedRunId(run, run.test ? null : await previousRealRun(caller.deps.prisma, run));
}
