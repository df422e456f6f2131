// Throttling of failed sign-ins (OWASP's advice against both guessing and
// locking people out), kept in the database so that every instance agrees:
// - per client address: 30 failures in 15 minutes lock that address out for 15 minutes;
// - per account and address: after 5 failures the pair waits, 1 minute at first and
//   twice as long after each further failure, up to 15 minutes. Nobody can lock an
//   account from another address: a correct password from elsewhere still signs in;
// - per account across addresses: 50 failures in 15 minutes raise one alert to the
//   administrators (the caller sends it) instead of locking the account.
// The wait starts at a minute, not a second, because the SPEC's message counts minutes.
import type { PrismaClient } from '../generated/prisma/client.js';
import { TooManyRequestsError } from '../core/errors.js';

export const THROTTLE_WINDOW_MS = 15 * 60_000;
export const MAX_FAILURES_PER_IP = 30;
export const LOCK_MS = 15 * 60_000;
/** Failures of one address on one account before that pair must wait. */
export const PAIR_FREE_FAILURES = 5;
export const PAIR_FIRST_DELAY_MS = 60_000;
export const PAIR_MAX_DELAY_MS = 15 * 60_000;
/** Failures on one account, from any addresses, that alert the administrators (once per window). */
export const ACCOUNT_ALERT_FAILURES = 50;

const ipKey = (ip: string) => `ip:${ip}`;
const pairKey = (email: string, ip: string | null | undefined) => `pair:${ip ?? 'unknown'}|${email}`;
const accountKey = (email: string) => `account:${email}`;

/** How long a pair waits after its n-th failure in the window. */
export function pairDelayMs(failures: number): number {
  if (failures < PAIR_FREE_FAILURES) return 0;
  return Math.min(PAIR_MAX_DELAY_MS, PAIR_FIRST_DELAY_MS * 2 ** (failures - PAIR_FREE_FAILURES));
}

export async function assertNotThrottled(prisma: PrismaClient, email: string, ip?: string | null): Promise<void> {
  const keys = [pairKey(email, ip), ...(ip ? [ipKey(ip)] : [])];
  const rows = await prisma.loginThrottle.findMany({ where: { key: { in: keys } } });
  const now = Date.now();
  const locked = rows
    .map((r) => r.lockedUntil?.getTime() ?? 0)
    .filter((t) => t > now)
    .sort((a, b) => b - a)[0];
  if (locked) {
    const seconds = Math.ceil((locked - now) / 1000);
    const minutes = Math.max(1, Math.ceil(seconds / 60));
    throw new TooManyRequestsError(`Too many failed sign-in attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`, seconds);
  }
}

/** Counts one failure under a key (one statement, so concurrent failures count correctly) and returns the count in the window. */
async function count(prisma: PrismaClient, key: string, now: Date): Promise<{ failures: number; firstFailureAt: Date; notifiedAt: Date | null }> {
  const windowStart = new Date(now.getTime() - THROTTLE_WINDOW_MS);
  const rows = await prisma.$queryRaw<{ failures: number; first_failure_at: Date; notified_at: Date | null }[]>`
    INSERT INTO login_throttle (key, failures, first_failure_at, locked_until)
    VALUES (${key}, 1, ${now}, NULL)
    ON CONFLICT (key) DO UPDATE SET
      failures = CASE WHEN login_throttle.first_failure_at < ${windowStart} THEN 1 ELSE login_throttle.failures + 1 END,
      first_failure_at = CASE WHEN login_throttle.first_failure_at < ${windowStart} THEN ${now} ELSE login_throttle.first_failure_at END
    RETURNING failures, first_failure_at, notified_at`;
  const r = rows[0]!;
  return { failures: Number(r.failures), firstFailureAt: new Date(r.first_failure_at), notifiedAt: r.notified_at ? new Date(r.notified_at) : null };
}

async function lockUntil(prisma: PrismaClient, key: string, until: Date): Promise<void> {
  await prisma.$executeRaw`
    UPDATE login_throttle SET locked_until = GREATEST(COALESCE(locked_until, ${until}), ${until}) WHERE key = ${key}`;
}

/** A wait this failure started: the whole address, or the address on this account. */
export interface Lockout {
  scope: 'address' | 'address_and_account';
  failures: number;
  until: Date;
}

/**
 * Records a failed sign-in. Returns the waits it started (for the audit trail),
 * and alert true to exactly one caller when the account reaches the alert
 * threshold in a window: that caller tells the administrators.
 */
export async function recordFailure(prisma: PrismaClient, email: string, ip?: string | null): Promise<{ alert: boolean; lockouts: Lockout[] }> {
  const now = new Date();
  const lockouts: Lockout[] = [];
  if (ip) {
    const byIp = await count(prisma, ipKey(ip), now);
    if (byIp.failures >= MAX_FAILURES_PER_IP) {
      const until = new Date(now.getTime() + LOCK_MS);
      await lockUntil(prisma, ipKey(ip), until);
      lockouts.push({ scope: 'address', failures: byIp.failures, until });
    }
  }
  const pair = await count(prisma, pairKey(email, ip), now);
  const delay = pairDelayMs(pair.failures);
  if (delay) {
    const until = new Date(now.getTime() + delay);
    await lockUntil(prisma, pairKey(email, ip), until);
    lockouts.push({ scope: 'address_and_account', failures: pair.failures, until });
  }

  const account = await count(prisma, accountKey(email), now);
  if (account.failures < ACCOUNT_ALERT_FAILURES) return { alert: false, lockouts };
  // Claimed in one statement, so two instances crossing the threshold together alert once.
  const claimed = await prisma.$executeRaw`
    UPDATE login_throttle SET notified_at = ${now}
    WHERE key = ${accountKey(email)} AND (notified_at IS NULL OR notified_at < first_failure_at)`;
  return { alert: claimed > 0, lockouts };
}

/** After a correct password: this address's failures on this account are forgiven. */
export async function clearFailures(prisma: PrismaClient, email: string, ip?: string | null): Promise<void> {
  await prisma.loginThrottle.deleteMany({ where: { key: pairKey(email, ip) } });
}
