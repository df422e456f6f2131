// The bulk AI categorisation worker (services/ai/ai-bulk.ts): one run at a time per
// instance; runs left 'running' by a stopped instance are queued again at start.
import type { AppDeps } from '../context.js';
import { JOBS } from '../db/queue.js';
import { resumeBulkRuns, runBulk } from '../services/ai/ai-bulk.js';

export async function startAiBulkWorker(deps: AppDeps, opts: { pollingIntervalSeconds: number }) {
  const { boss } = deps.jobs;
  await boss.createQueue(JOBS.aiBulkCategorize);
  await boss.work<{ runId: string; startedBy: string | null }>(
    JOBS.aiBulkCategorize,
    { pollingIntervalSeconds: opts.pollingIntervalSeconds, batchSize: 1 },
    async ([job]) => {
      await runBulk(deps, job!.data.runId, job!.data.startedBy);
    },
  );
  await resumeBulkRuns(deps);
}
