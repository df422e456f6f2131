// Background jobs on pg-boss, in the same database as everything else (PGlite
// through pg-boss's `db` option, PostgreSQL through its own pool). A job that
// fails is retried with backoff; an instance that dies mid-job leaves it to
// expire and be retried, never stuck.
import PgBoss from 'pg-boss';
import type { Database } from './client.js';

export interface JobQueue {
  boss: PgBoss;
  /** Waits up to timeoutMs for running jobs; those still running are failed back to the queue (retried elsewhere). */
  stop(timeoutMs?: number): Promise<void>;
}

export async function startJobQueue(db: Database, opts: { databaseUrl?: string; pollingIntervalSeconds?: number }): Promise<JobQueue> {
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
  boss.on('error', (err: Error) => console.error('[jobs]', err.message));
  await boss.start();
  return {
    boss,
    async stop(timeoutMs = 5000) {
      await boss.stop({ graceful: timeoutMs > 0, wait: true, timeout: Math.max(1000, timeoutMs) });
    },
  };
}

/** Job names, in one place. */
export const JOBS = {
  sendMail: 'mail.send',
  ingestUpload: 'upload.ingest',
  aiBulkCategorize: 'ai.bulk-categorize',
  periodDeadlines: 'period.deadlines',
} as const;
