// Background jobs on pg-boss, in the same database as everything else (PGlite
// through pg-boss's `db` option, PostgreSQL through its own pool). A job that
// fails is retried with backoff; an instance that dies mid-job leaves it to
// expire and be retried, never stuck.
import PgBoss from 'pg-boss';
import type { Database } from './client.js';
import type { DbClient } from '../core/types.js';
import type { Warn } from '../core/types.js';

export interface JobQueue {
  boss: PgBoss;
  /** Waits up to timeoutMs for running jobs; those still running are failed back to the queue (retried elsewhere). */
  stop(timeoutMs?: number): Promise<void>;
}

export async function startJobQueue(db: Database, opts: { databaseUrl?: string; pollingIntervalSeconds?: number; warn?: Warn }): Promise<JobQueue> {
  const common = {
    schema: 'pgboss',
    // Maintenance and cron scheduling run on every instance; pg-boss coordinates them.
    supervise: true,
    schedule: true,
  };
  const boss = opts.databaseUrl
    ? new PgBoss({ ...common, connectionString: opts.databaseUrl, max: 4 })
    : new PgBoss({
        ...common,
        db: {
          // Parameterless SQL may hold several statements (pg-boss's own migrations).
          async executeSql(text: string, values: unknown[]) {
            if (values?.length) return { rows: await db.sql.query(text, values) };
            const rows = await db.sql.execResults(text);
            return { rows };
          },
        },
      });
  const warn = opts.warn ?? ((m: string) => console.error(m));
  boss.on('error', (err: Error) => warn(`job queue: ${err.message}`));
  await boss.start();
  return {
    boss,
    async stop(timeoutMs = 5000) {
      await boss.stop({ graceful: timeoutMs > 0, wait: true, timeout: Math.max(1000, timeoutMs) });
    },
  };
}

/**
 * pg-boss's `db` option running its SQL on a Prisma transaction: a job sent
 * with it (`boss.send(name, data, { db: onTransaction(tx) })`) is inserted by
 * that transaction, so it exists when the transaction commits and not at all
 * when it rolls back, and no worker can fetch it before the commit. Objects
 * (the job's data) go as JSON text, undefined as NULL.
 */
export function onTransaction(tx: DbClient): { executeSql(text: string, values: unknown[]): Promise<{ rows: unknown[] }> } {
  return {
    async executeSql(text, values) {
      const params = (values ?? []).map((v) => (v === undefined ? null : v !== null && typeof v === 'object' && !(v instanceof Date) ? JSON.stringify(v) : v));
      return { rows: await tx.$queryRawUnsafe<unknown[]>(text, ...params) };
    },
  };
}

/** Job names, in one place. */
export const JOBS = {
  sendMail: 'mail.send',
  ingestUpload: 'upload.ingest',
  aiBulkCategorize: 'ai.bulk-categorize',
  periodDeadlines: 'period.deadlines',
  periodRecurrence: 'period.recurrence',
  dashboardFigures: 'dashboard.figures',
  accessExtract: 'access.extract',
  accessAnalysis: 'access.analysis',
  auditChain: 'audit.verify-chain',
  evidenceBundle: 'evidence.bundle',
  evidenceRetention: 'evidence.retention',
} as const;
