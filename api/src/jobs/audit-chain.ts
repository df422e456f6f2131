// The daily verification of the audit trail's hash chain (services/audit/chain.ts
// checkAuditChain): pg-boss keeps the schedule in the database, so one
// instance runs it each day; a break found is told to the administrators once
// (recorded in the trail), however many runs find it again.
import type { AppDeps } from '../context.js';
import { JOBS } from '../db/queue.js';
import { checkAuditChain } from '../services/audit/chain.js';
import { timedJob } from '../core/metrics.js';

/** Daily at 02:30 UTC, away from the dashboard figures' run at 23:55. */
export const AUDIT_CHAIN_CRON = '30 2 * * *';

export async function startAuditChainWorker(deps: AppDeps, opts: { pollingIntervalSeconds: number }) {
  const { boss } = deps.jobs;
  await boss.createQueue(JOBS.auditChain);
  await boss.schedule(JOBS.auditChain, AUDIT_CHAIN_CRON, {}, { retryLimit: 2, retryDelay: 300 });
  await boss.work(JOBS.auditChain, { pollingIntervalSeconds: opts.pollingIntervalSeconds, batchSize: 1 }, async () => {
    await timedJob(JOBS.auditChain, () => checkAuditChain(deps));
  });
}
