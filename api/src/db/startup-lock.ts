// Start-up steps that several instances may run at the same moment on one
// PostgreSQL database (migrations, the job queue's own set-up, the first
// administrator) run one instance at a time under a session-level advisory
// lock: the second instance waits, then finds the work done. PGlite is opened
// by one process only, so there it simply runs.
import type { Database } from './client.js';

/** Arbitrary, fixed, distinct from the migration lock: shared by every instance. */
export const STARTUP_LOCK_KEY = 72707370;

export async function withStartupLock<T>(db: Database, fn: () => Promise<T>, opts: { waitSeconds?: number } = {}): Promise<T> {
  if (db.kind !== 'postgres') return fn();
  const waitMs = Math.round((opts.waitSeconds ?? 120) * 1000);
  return db.sql.session(async (conn) => {
    // A start stuck behind another that hangs fails with a message instead of waiting forever.
    await conn.query(`SET lock_timeout = ${waitMs}`);
    try {
      await conn.query('SELECT pg_advisory_lock($1)', [STARTUP_LOCK_KEY]);
    } catch (err) {
      throw new Error(`another instance held the start-up lock for over ${opts.waitSeconds ?? 120} s (${(err as Error).message})`);
    } finally {
      await conn.query('RESET lock_timeout').catch(() => {});
    }
    try {
      return await fn();
    } finally {
      await conn.query('SELECT pg_advisory_unlock($1)', [STARTUP_LOCK_KEY]).catch(() => {});
    }
  });
}
