// Per-user rate limits on expensive operations, shared by every instance
// through the database: a fixed one-minute window per action and user, counted
// with one upsert (atomic under concurrency). Exceeding it is a 429 with
// Retry-After; nothing of the operation has happened yet.
import type { PrismaClient } from '../../generated/prisma/client.js';
import { TooManyRequestsError } from '../../core/errors.js';
import type { AppDeps } from '../deps.js';

const WINDOW_SECONDS = 60;

export type RateLimitedAction = 'export' | 'ai';

const LABELS: Record<RateLimitedAction, string> = { export: 'exports', ai: 'AI requests' };

function limitOf(deps: Pick<AppDeps, 'config'>, action: RateLimitedAction): number {
  switch (action) {
    case 'export':
      return deps.config.EXPORT_RATE_PER_MINUTE;
    case 'ai':
      return deps.config.AI_RATE_PER_MINUTE;
  }
}

/** Counts one use of `action` by the user; throws TooManyRequestsError past the limit. */
export async function consumeRate(deps: Pick<AppDeps, 'prisma' | 'config'>, action: RateLimitedAction, userId: string): Promise<void> {
  const limit = limitOf(deps, action);
  const now = Date.now();
  const windowStart = new Date(Math.floor(now / (WINDOW_SECONDS * 1000)) * WINDOW_SECONDS * 1000);
  const key = `${action}:${userId}`;
  const [row] = await deps.prisma.$queryRaw<{ count: number }[]>`
    INSERT INTO rate_limits (key, window_start, count) VALUES (${key}, ${windowStart}, 1)
    ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limits.count + 1
    RETURNING count`;
  if ((row?.count ?? 0) > limit) {
    const retryAfter = Math.max(1, Math.ceil((windowStart.getTime() + WINDOW_SECONDS * 1000 - now) / 1000));
    throw new TooManyRequestsError(`Too many ${LABELS[action]}: at most ${limit} a minute. Try again in ${retryAfter} s.`, retryAfter);
  }
  // Old windows are of no use; a few rows at a time, now and then.
  if (Math.random() < 0.02) await pruneRateLimits(deps.prisma);
}

export async function pruneRateLimits(prisma: PrismaClient): Promise<void> {
  await prisma.$executeRaw`DELETE FROM rate_limits WHERE window_start < ${new Date(Date.now() - 2 * WINDOW_SECONDS * 1000)}`;
}
