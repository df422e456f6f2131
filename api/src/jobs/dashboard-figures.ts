// The dashboard figures' job (services/kept/scope-figures.ts warmDashboardFigures):
// works out every scope's figures not kept yet, so that nobody's first
// dashboard counts over every row it sees (~1 s at 1M rows), and refreshes the
// shared items a change of sight made stale in the active period (its 'pending', All Reviews). Sent by a change
// of what reviewers see, in its transaction (services/kept/dispatcher.ts
// 'sight-changed': the touched reviewers' scopes have new keys), and run
// daily just before midnight UTC ('new high-risk users' are kept per day: the
// run keeps the coming day's). The
// queue is 'stately': at most one job waits and one runs, so a burst of
// changes makes one or two runs, not one each.
import type { AppDeps } from '../context.js';
import { JOBS } from '../db/queue.js';
import { freshSharedItems, periodsWithDecisions, sightChangesSettled, warmDashboardFigures } from '../services/kept/index.js';
import { timedJob } from '../core/metrics.js';

/**
 * Just before 00:00 UTC, when the day in the keys of 'new high-risk users'
 * changes: the run keeps the next day's too (services/kept/scope-figures.ts NEXT_DAY_AHEAD_MS),
 * so a read just after midnight finds them kept.
 */
export const DASHBOARD_FIGURES_CRON = '55 23 * * *';

/**
 * One run of the job, as of `at` (the figures' keys of that day): the figures
 * per scope, then the shared items of the active period if it has decisions,
 * when stale (a change of what reviewers see keeps them itself,
 * services/kept/shared-items.ts keepSharedItemsAfter, unless a refresh was running then):
 * refreshed here, ~25 s at 1M rows, instead of by the first All Reviews read,
 * which would wait for it; the administrator's 'pending' counts live until
 * then. Not every period's: each
 * is a refresh of its own (26 periods of the browser tests' database took
 * 7-8 s, and on PGlite, in process, the server answers nothing meanwhile);
 * a closed period's items are refreshed by the All Reviews read that needs them.
 */
export async function runDashboardFigures(deps: Pick<AppDeps, 'prisma'>, at: Date): Promise<void> {
  // A change that found a job waiting sent none and may not have committed yet: its commit must be seen.
  await sightChangesSettled(deps.prisma);
  await warmDashboardFigures(deps.prisma, at);
  await freshSharedItems(deps.prisma, await periodsWithDecisions(deps.prisma, { activeOnly: true }));
}

export async function startDashboardFiguresWorker(deps: AppDeps, opts: { pollingIntervalSeconds: number }) {
  const { boss } = deps.jobs;
  await boss.createQueue(JOBS.dashboardFigures, { name: JOBS.dashboardFigures, policy: 'stately', retryLimit: 2, retryDelay: 30 });
  await boss.schedule(JOBS.dashboardFigures, DASHBOARD_FIGURES_CRON, {}, { tz: 'UTC' });
  await boss.work(JOBS.dashboardFigures, { pollingIntervalSeconds: opts.pollingIntervalSeconds, batchSize: 1 }, async () => {
    await timedJob(JOBS.dashboardFigures, () => runDashboardFigures(deps, new Date()));
  });
}
