// The access engine's workers (services/access/): an extract's load and an
// analysis run, each job one at a time per instance, publishing progress as
// they go (services/access/progress.ts). Both services end what they were
// given 'completed' or 'failed' themselves, and skip what is no longer
// 'processing', so a job retried after an instance stopped mid-way starts
// over cleanly instead of loading or counting twice.
import type { AppDeps } from '../context.js';
import { JOBS } from '../db/queue.js';
import { timedJob } from '../core/metrics.js';
import { loadExtract } from '../services/access/extracts.js';
import { runAnalysis } from '../services/access/analysis.js';
import { publishingProgress } from '../services/access/progress.js';

export async function startAccessWorkers(deps: AppDeps, opts: { pollingIntervalSeconds: number }) {
  const { boss } = deps.jobs;
  await boss.createQueue(JOBS.accessExtract);
  await boss.createQueue(JOBS.accessAnalysis);
  const work = { pollingIntervalSeconds: opts.pollingIntervalSeconds, batchSize: 1 };
  await boss.work<{ extractId: string }>(JOBS.accessExtract, work, async ([job]) => {
    const id = job!.data.extractId;
    await timedJob(JOBS.accessExtract, () => publishingProgress(deps, 'extract', id, () => loadExtract(deps, id)));
  });
  await boss.work<{ runId: string }>(JOBS.accessAnalysis, work, async ([job]) => {
    const id = job!.data.runId;
    await timedJob(JOBS.accessAnalysis, () => publishingProgress(deps, 'analysis', id, () => runAnalysis(deps, id)));
  });
}
