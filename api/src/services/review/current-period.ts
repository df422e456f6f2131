// Which review period is current: the active one, and the one whose decisions
// the review screens show. A leaf (it imports no other service), so that the
// per-request viewer (services/viewer.ts) can read it while the period
// services (periods.ts), which take the caller, import the viewer's type.
import type { ReviewPeriod } from '../../generated/prisma/client.js';
import type { DbClient } from '../../core/types.js';

export function getActivePeriod(db: DbClient): Promise<ReviewPeriod | null> {
  return db.reviewPeriod.findFirst({ where: { status: 'active' } });
}

/**
 * The period whose decisions the review screens show: the active one, or
 * while none is active the one closed last, so that reviewers keep seeing
 * their decisions (read-only: every change needs the active period).
 */
export async function getDecisionPeriod(db: DbClient): Promise<ReviewPeriod | null> {
  return (
    (await getActivePeriod(db)) ??
    db.reviewPeriod.findFirst({ where: { status: 'closed' }, orderBy: [{ closedAt: { sort: 'desc', nulls: 'last' } }, { createdAt: 'desc' }] })
  );
}
