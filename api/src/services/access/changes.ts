// What changed in a run against the previous completed run of the same rule
// set version: its (user, risk) conflicts that are new (not in the previous
// run), unchanged (in both) and resolved (in the previous run, not in this
// one). A resolved conflict is read from the previous run, with that run's
// rows: this run no longer has them. The previous run is found as the run's
// added / removed counts found it (services/access/analysis.ts): the newest
// other completed run of the version started no later than this one. A first
// run has every conflict new and none resolved or unchanged.
import type { PrismaClient } from '../../generated/prisma/client.js';
import { countConflicts, type ConflictFilter } from './conflicts.js';

export const CONFLICT_CHANGES = ['new', 'resolved', 'unchanged'] as const;
export type ConflictChange = (typeof CONFLICT_CHANGES)[number];

type RunRef = { id: string; ruleSetId: string; startedAt: Date };

/** The previous completed run of the same rule set version, or null for a first run. */
export async function previousRunId(prisma: PrismaClient, run: RunRef): Promise<string | null> {
  const previous = await prisma.accessAnalysisRun.findFirst({
    where: { ruleSetId: run.ruleSetId, status: 'completed', startedAt: { lte: run.startedAt }, NOT: { id: run.id } },
    orderBy: [{ startedAt: 'desc' }, { finishedAt: 'desc' }],
    select: { id: true },
  });
  return previous?.id ?? null;
}

/**
 * Where the conflicts of one kind of change are read: the run whose
 * conflicts they are (null: there are none) and the filter that picks them.
 */
export function changeScope(runId: string, previousId: string | null, change: ConflictChange, filter: ConflictFilter): { runId: string | null; filter: ConflictFilter } {
  if (change === 'new') return { runId, filter: { ...filter, absentFrom: previousId } };
  if (!previousId) return { runId: null, filter };
  if (change === 'unchanged') return { runId, filter: { ...filter, presentIn: previousId } };
  return { runId: previousId, filter: { ...filter, absentFrom: runId } };
}

export interface ChangeCounts {
  previousId: string | null;
  new: number;
  resolved: number;
  unchanged: number;
}

/** How many conflicts of each kind of change a run has (counted by the same filters its lists use). */
export async function changeCounts(prisma: PrismaClient, run: RunRef): Promise<ChangeCounts> {
  const previousId = await previousRunId(prisma, run);
  const count = async (change: ConflictChange) => {
    const scope = changeScope(run.id, previousId, change, {});
    return scope.runId ? countConflicts(prisma, scope.runId, scope.filter) : 0;
  };
  const [n, resolved, unchanged] = await Promise.all([count('new'), count('resolved'), count('unchanged')]);
  return { previousId, new: n, resolved, unchanged };
}
