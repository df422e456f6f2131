// Work of the access engine that stopped for good: an extract's load or an
// analysis run whose job will not run again (its instance died and its
// retries are spent, or nothing queued it). Each is ended 'failed' with a
// message saying what to do, so none stays 'processing' for ever; an
// extract's rows and kept file go with it (no run uses a failed extract).
// Which work has stopped is the job layer's to tell (jobs/access.ts).
import type { AppDeps } from '../deps.js';
import { extractKey, removeRows } from './extracts.js';

export const EXTRACT_STOPPED = 'The load stopped before it finished; load the extract again.';
export const ANALYSIS_STOPPED = 'The analysis stopped before it finished; start it again.';

type Deps = Pick<AppDeps, 'prisma' | 'db' | 'config' | 'storage'>;

/** Ends an extract still 'processing' as failed, without its rows or file; false when it had ended already. */
export async function endStoppedExtract(deps: Deps, id: string): Promise<boolean> {
  const { count } = await deps.prisma.accessExtract.updateMany({
    where: { id, status: 'processing' },
    data: { status: 'failed', errorMessage: EXTRACT_STOPPED },
  });
  if (!count) return false;
  await removeRows(deps, id);
  await deps.storage.delete(extractKey(id));
  return true;
}

/** Ends a run still 'processing' as failed (a run writes its conflicts in one transaction: none are left); false when it had ended already. */
export async function endStoppedRun(deps: Pick<AppDeps, 'prisma'>, id: string): Promise<boolean> {
  const { count } = await deps.prisma.accessAnalysisRun.updateMany({
    where: { id, status: 'processing' },
    data: { status: 'failed', finishedAt: new Date(), errorMessage: ANALYSIS_STOPPED },
  });
  return count > 0;
}

/** The extracts and runs left 'processing': what the engine was doing when it last stopped, or is doing now elsewhere. */
export async function processingWork(deps: Pick<AppDeps, 'prisma'>): Promise<{ extracts: string[]; runs: string[] }> {
  const [extracts, runs] = await Promise.all([
    deps.prisma.accessExtract.findMany({ where: { status: 'processing' }, select: { id: true } }),
    deps.prisma.accessAnalysisRun.findMany({ where: { status: 'processing' }, select: { id: true } }),
  ]);
  return { extracts: extracts.map((x) => x.id), runs: runs.map((r) => r.id) };
}
