// A bounded number of slots shared by every instance on one PostgreSQL
// database: transaction-free advisory locks (class key, slot number) held on
// one dedicated connection while the work runs, so a process that dies frees
// its slot with its connection. Used to cap concurrent ingestions.
import type { Database } from './client.js';

export interface SlotOptions {
  /** The lock class (first key of the two-key advisory lock). */
  key: number;
  slots: number;
  /** Called while every slot is taken, before each wait; false stops waiting (the work is not run). */
  onWait(): Promise<boolean>;
  pollMs: number;
}

/**
 * Runs fn once one of `slots` slots is free; returns undefined when onWait said
 * to stop. `lost` aborts when the connection holding the slot breaks (the slot
 * is free again for others): fn stops at its next step. PGlite is one process
 * with one connection: fn runs directly.
 */
export async function withSlot<T>(db: Database, opts: SlotOptions, fn: (lost: AbortSignal) => Promise<T>): Promise<T | undefined> {
  if (db.kind !== 'postgres') return fn(new AbortController().signal);
  return db.sql.session(async (conn, lost) => {
    for (;;) {
      for (let slot = 0; slot < opts.slots; slot++) {
        const [got] = await conn.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1::int, $2::int) AS ok', [opts.key, slot]);
        if (!got?.ok) continue;
        try {
          return await fn(lost);
        } finally {
          await conn.query('SELECT pg_advisory_unlock($1::int, $2::int)', [opts.key, slot]).catch(() => {});
        }
      }
      if (!(await opts.onWait())) return undefined;
      await new Promise((r) => setTimeout(r, opts.pollMs));
    }
  });
}
