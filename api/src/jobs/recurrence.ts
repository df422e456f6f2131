// The recurrence job (services/recurrence/tick.ts): pg-boss keeps its schedule
// in the database, so it survives restarts and runs on one instance at a time;
// each run creates the periods whose date has come, or marks them waiting.
import type { AppDeps } from '../context.js';
import { JOBS } from '../db/queue.js';
import { tickRecurrence } from '../services/recurrence/tick.js';
import { timedJob } from '../core/metrics.js';

/** Every 5 minutes: a period due at midnight opens within minutes, and within minutes of the close it waited for. */
export const RECURRENCE_CRON = '*/5 * * * *';

export async function startRecurrenceWorker(deps: AppDeps, opts: { pollingIntervalSeconds: number; now?: () => Date }) {
  const { boss } = deps.jobs;
  const now = opts.now ?? (() => new Date());
  await boss.createQueue(JOBS.periodRecurrence);
  await boss.schedule(JOBS.periodRecurrence, RECURRENCE_CRON, {}, { retryLimit: 2, retryDelay: 60 });
  await boss.work(JOBS.periodRecurrence, { pollingIntervalSeconds: opts.pollingIntervalSeconds, batchSize: 1 }, async () => {
    await timedJob(JOBS.periodRecurrence, () => tickRecurrence(deps, now()));
  });
}
