// The evidence bundles' jobs (services/evidence/evidence-bundle.ts): writing a
// bundle, sent by the close in its own transaction (so it exists exactly when
// the close committed) and picked up within the polling interval, so a close's
// bundle is downloadable within a minute; retried on failure, and a job failed
// for good marks the bundle 'failed' with its reason. At start the bundles
// still 'writing' are sent again (an instance may have stopped mid-way: the
// writer records a bundle once, whoever finishes first). And the daily
// retention run that deletes bundles past `evidence.retentionYears`.
import type { AppDeps } from '../context.js';
import { JOBS } from '../db/queue.js';
import { timedJob } from '../core/metrics.js';
import { bundleFailed, unwrittenBundles, writeBundle } from '../services/evidence/evidence-bundle.js';
import { expireBundles } from '../services/evidence/evidence-bundles.js';

/** Daily at 02:30 UTC. */
export const EVIDENCE_RETENTION_CRON = '30 2 * * *';
const FAILED_QUEUE = `${JOBS.evidenceBundle}.failed`;

export async function startEvidenceWorkers(deps: AppDeps, opts: { pollingIntervalSeconds: number }) {
  const { boss } = deps.jobs;
  await boss.createQueue(FAILED_QUEUE);
  const options = { name: JOBS.evidenceBundle, retryLimit: 3, retryDelay: 15, expireInSeconds: 3600, deadLetter: FAILED_QUEUE };
  await boss.createQueue(JOBS.evidenceBundle, options);
  await boss.updateQueue(JOBS.evidenceBundle, options);
  const work = { pollingIntervalSeconds: opts.pollingIntervalSeconds, batchSize: 1 };
  await boss.work<{ periodId: string; version: number }>(JOBS.evidenceBundle, work, async ([job]) => {
    const { periodId, version } = job!.data;
    await timedJob(JOBS.evidenceBundle, () => writeBundle(deps, periodId, version));
  });
  await boss.work<{ periodId: string; version: number }>(FAILED_QUEUE, work, async ([job]) => {
    const { periodId, version } = job!.data;
    deps.log(`evidence bundle ${periodId} v${version}: failed for good`);
    await bundleFailed(deps.prisma, periodId, version, 'the writer failed several times; see the server log');
  });
  for (const b of await unwrittenBundles(deps.prisma)) await boss.send(JOBS.evidenceBundle, b, { retryLimit: 3, retryDelay: 15 });
  await boss.createQueue(JOBS.evidenceRetention);
  await boss.schedule(JOBS.evidenceRetention, EVIDENCE_RETENTION_CRON, {}, { tz: 'UTC', retryLimit: 2, retryDelay: 60 });
  await boss.work(JOBS.evidenceRetention, work, async () => {
    await timedJob(JOBS.evidenceRetention, () => expireBundles(deps, new Date()).then(() => undefined));
  });
}
