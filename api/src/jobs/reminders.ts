// The deadline job (services/review/reminders.ts): pg-boss keeps its schedule in the
// database, so it survives restarts and runs on one instance at a time; each
// run sends the reminders and escalations due at the time it runs, and what
// was sent is recorded, so a run after a restart sends nothing twice.
import type { AppDeps } from '../context.js';
import { JOBS } from '../db/queue.js';
import { tickReminders } from '../services/review/reminders.js';
import { timedJob } from '../core/metrics.js';

/** Every 15 minutes: reminders are per day, escalations come within a quarter of an hour of the end. */
export const DEADLINES_CRON = '*/15 * * * *';

export async function startDeadlineWorker(deps: AppDeps, opts: { pollingIntervalSeconds: number; now?: () => Date }) {
  const { boss } = deps.jobs;
  const now = opts.now ?? (() => new Date());
  await boss.createQueue(JOBS.periodDeadlines);
  await boss.schedule(JOBS.periodDeadlines, DEADLINES_CRON, {}, { retryLimit: 2, retryDelay: 60 });
  await boss.work(JOBS.periodDeadlines, { pollingIntervalSeconds: opts.pollingIntervalSeconds, batchSize: 1 }, async () => {
    await timedJob(JOBS.periodDeadlines, () => tickReminders(deps, now()));
  });
}
