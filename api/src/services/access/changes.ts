// What changed in a run against the run it is compared with: its (user,
// risk) conflicts that are new (not in that run), unchanged (in both) and
// resolved (in that run, not in this one). A resolved conflict is read from
// the compared run, with that run's rows: this run no longer has them. Which
// run that is has one rule (compared-run.ts), shared with the run's added /
// removed counts. A run with none has every conflict new and none resolved
// or unchanged.
import type { Caller } from '../caller.js';
import { comparedRunOf, type RunRef } from './compared-run.js';
import { countConflicts, type ConflictFilter } from './conflicts.js';

export const CONFLICT_CHANGES = ['new', 'resolved', 'unchanged'] as const;
export type ConflictChange = (typeof CONFLICT_CHANGES)[number];

/**
 * Where the conflicts of one kind of change are read: the run whose
 * conflicts they are (null: there are none) and the filter that picks them.
 */
export function changeScope(
  runId: string,
  previousId: string | null,
  change: ConflictChange,
  filter: ConflictFilter,
): { runId: string | null; filter: ConflictFilter } {
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
export async function changeCounts(caller: Caller, run: RunRef): Promise<ChangeCounts> {
  const previousId = await comparedRunOf(caller, run);
  const count = async (change: ConflictChange) => {
    const scope = changeScope(run.id, previousId, change, {});
    return scope.runId ? countConflicts(caller, scope.runId, scope.filter) : 0;
  };
  const [n, resolved, unchanged] = await Promise.all([count('new'), count('resolved'), count('unchanged')]);
  return { previousId, new: n, resolved, unchanged };
}
