// A writing transaction that PostgreSQL aborted as a deadlock (40P01) or a
// serialization failure (40001) did nothing: it is run again, a bounded
// number of times after a short random pause, so that no user sees one. The
// services' writing transactions go through `retryingTransaction`; their
// locks are taken in one order (services/review/decision-locks.ts) so that a
// deadlock is not expected at all, and this is the backstop. Only what runs
// inside the transaction is repeated: the callback must not have effects
// outside it (publishing, mail) before it returns.
import type { Prisma, PrismaClient } from '../generated/prisma/client.js';
import { isConnectionLost, ServiceBusyError } from '../core/errors.js';

/** How many times a transaction runs at most. */
export const TRANSACTION_ATTEMPTS = 4;

const RETRYABLE_SQLSTATES = new Set(['40001', '40P01']);

/**
 * Whether `err` is PostgreSQL's deadlock or serialization failure, as the
 * Prisma client reports it: P2034 (the driver adapter's
 * TransactionWriteConflict), a raw query's database code, or the text.
 */
export function isRetryableConflict(err: unknown): boolean {
  const seen = new Set<unknown>();
  for (
    let e = err as { code?: unknown; meta?: { code?: unknown }; cause?: unknown; message?: unknown } | undefined;
    e && !seen.has(e);
    e = e.cause as typeof e
  ) {
    seen.add(e);
    if (e.code === 'P2034' || RETRYABLE_SQLSTATES.has(String(e.code)) || RETRYABLE_SQLSTATES.has(String(e.meta?.code))) return true;
    if (typeof e.message === 'string' && /deadlock detected|could not serialize access|write conflict or a deadlock/i.test(e.message)) return true;
  }
  return false;
}

/**
 * `prisma.$transaction(fn, options)`, run again on a deadlock or
 * serialization failure (up to TRANSACTION_ATTEMPTS runs in all); when every
 * run failed so, the server is busy (503, try again) rather than broken.
 */
export async function retryingTransaction<T>(
  prisma: PrismaClient,
  fn: (tx: Prisma.TransactionClient) => Promise<T>,
  options?: { timeout?: number; maxWait?: number },
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await prisma.$transaction(fn, options);
    } catch (err) {
      if (!isRetryableConflict(err)) throw err;
      if (attempt >= TRANSACTION_ATTEMPTS) throw new ServiceBusyError();
      // Apart again at random, a little longer each time.
      await new Promise((r) => setTimeout(r, attempt * (10 + Math.random() * 40)));
    }
  }
}

/** How many times a write is tried at most while the database connection comes back. */
export const RECONNECT_ATTEMPTS = 6;

/**
 * Runs `fn` again while it fails because the connection to the database was
 * lost (the pool opens a fresh one on the next try), pausing a second more
 * each time. For a write that must record what happened after a dropped
 * connection (an upload's failure): `fn` must be safe to run twice, as one
 * transaction is, since a lost connection rolls back what it had not committed.
 */
export async function onceReconnected<T>(fn: () => Promise<T>, attempts = RECONNECT_ATTEMPTS): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (!isConnectionLost(err) || attempt >= attempts) throw err;
      await new Promise((r) => setTimeout(r, attempt * 500));
    }
  }
}
