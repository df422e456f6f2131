// The upload worker: loads queued uploads one at a time per instance, and
// fails loads whose worker died (no heartbeat) so none stays 'processing'.
import type { AppDeps } from '../context.js';
import { JOBS } from './queue.js';
import { ingestUpload, loadingHere, purgeDeadRows } from '../ingest/pipeline.js';
import { failInterrupted } from '../services/uploads.js';

export async function startIngestWorker(deps: AppDeps, opts: { pollingIntervalSeconds: number; staleSeconds: number }) {
  const { boss } = deps.jobs;
  await boss.createQueue(JOBS.ingestUpload);
  const reap = async () => {
    const failed = await failInterrupted(deps.prisma, opts.staleSeconds, loadingHere);
    if (failed.length) {
      deps.log(`marked ${failed.length} interrupted upload(s) failed`);
      await purgeDeadRows(deps);
    }
  };
  await reap();
  const timer = setInterval(() => reap().catch((e) => deps.log(`reaper: ${(e as Error).message}`)), Math.max(5, opts.staleSeconds / 2) * 1000);
  timer.unref();
  await boss.work<{ uploadId: string }>(JOBS.ingestUpload, { pollingIntervalSeconds: opts.pollingIntervalSeconds, batchSize: 1 }, async ([job]) => {
    await ingestUpload(deps, job!.data.uploadId);
  });
  return { stop: () => clearInterval(timer) };
}
