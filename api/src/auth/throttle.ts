// Throttling of failed sign-ins, per e-mail address and per client address,
// kept in the database so that every instance sees the same counts.
import type { PrismaClient } from '../generated/prisma/client.js';
import { TooManyRequestsError } from '../core/errors.js';

export const THROTTLE_WINDOW_MS = 15 * 60_000;
export const MAX_FAILURES_PER_EMAIL = 5;
export const MAX_FAILURES_PER_IP = 30;
export const LOCK_MS = 15 * 60_000;

function keys(email: string, ip: string | null | undefined) {
  const k: { key: string; max: number }[] = [{ key: `email:${email}`, max: MAX_FAILURES_PER_EMAIL }];
  if (ip) k.push({ key: `ip:${ip}`, max: MAX_FAILURES_PER_IP });
  return k;
}

export async function assertNotThrottled(prisma: PrismaClient, email: string, ip?: string | null): Promise<void> {
  const rows = await prisma.loginThrottle.findMany({ where: { key: { in: keys(email, ip).map((k) => k.key) } } });
  const now = Date.now();
  const locked = rows
    .map((r) => r.lockedUntil?.getTime() ?? 0)
    .filter((t) => t > now)
    .sort((a, b) => b - a)[0];
  if (locked) {
    const seconds = Math.ceil((locked - now) / 1000);
    const minutes = Math.max(1, Math.ceil(seconds / 60));
    throw new TooManyRequestsError(
      `Too many failed sign-in attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
      seconds,
    );
  }
}

export async function recordFailure(prisma: PrismaClient, email: string, ip?: string | null): Promise<void> {
  const now = new Date();
  for (const { key, max } of keys(email, ip)) {
    // One statement, so concurrent failures count correctly on PostgreSQL.
    await prisma.$executeRaw`
      INSERT INTO login_throttle (key, failures, first_failure_at, locked_until)
      VALUES (${key}, 1, ${now}, NULL)
      ON CONFLICT (key) DO UPDATE SET
        failures = CASE WHEN login_throttle.first_failure_at < ${new Date(now.getTime() - THROTTLE_WINDOW_MS)}
                        THEN 1 ELSE login_throttle.failures + 1 END,
        first_failure_at = CASE WHEN login_throttle.first_failure_at < ${new Date(now.getTime() - THROTTLE_WINDOW_MS)}
                        THEN ${now} ELSE login_throttle.first_failure_at END,
        locked_until = CASE WHEN login_throttle.first_failure_at >= ${new Date(now.getTime() - THROTTLE_WINDOW_MS)}
                             AND login_throttle.failures + 1 >= ${max}
                        THEN ${new Date(now.getTime() + LOCK_MS)} ELSE login_throttle.locked_until END`;
  }
}

export async function clearFailures(prisma: PrismaClient, email: string): Promise<void> {
  await prisma.loginThrottle.deleteMany({ where: { key: `email:${email}` } });
}
