// The upload worker: loads queued uploads one at a time per instance, and
// runs the reaper (services/uploads/upload-load.ts) so no load whose worker died stays
// 'processing'.
import type { AppDeps } from '../context.js';
import { JOBS } from '../db/queue.js';
import { loadUpload, reapInterrupted } from '../services/uploads/upload-load.js';
import { timedJob } from '../core/metrics.js';

export async function startIngestWorker(deps: AppDeps, opts: { pollingIntervalSeconds: number; staleSeconds: number }) {
  const { boss } = deps.jobs;
  await boss.createQueue(JOBS.ingestUpload);
  const reap = () => reapInterrupted(deps, opts.staleSeconds);
  await reap();
  const timer = setInterval(() => reap().catch((e) => deps.log(`reaper: ${(e as Error).message}`)), Math.max(5, opts.staleSeconds / 2) * 1000);
  timer.unref();
  await boss.work<{ uploadId: string }>(JOBS.ingestUpload, { pollingIntervalSeconds: opts.pollingIntervalSeconds, batchSize: 1 }, async ([job]) => {
    await timedJob(JOBS.ingestUpload, () => loadUpload(deps, job!.data.uploadId));
  });
  return { stop: () => clearInterval(timer) };
}
