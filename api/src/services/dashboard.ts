// Dashboard figures.
import type { PrismaClient } from '../generated/prisma/client.js';
import type { Viewer } from './viewer.js';
import { decidedRowCount, visibleTotals } from './risks.js';

/** A reviewer counts as online when seen within this window. */
export const ONLINE_WINDOW_MS = 15 * 60_000;

export async function dashboardStats(prisma: PrismaClient, viewer: Viewer) {
  const user = viewer.user;
  // Pending: for a reviewer, rows they have not decided; for an administrator,
  // rows nobody has decided.
  const [period, scope] = await Promise.all([viewer.activePeriod(), viewer.scope()]);
  const [totals, decided] = await Promise.all([visibleTotals(prisma, user, scope), decidedRowCount(prisma, user, period?.id ?? null, scope.visible)]);
  const activeReviewers = await prisma.user.count({
    where: { role: 'reviewer', isActive: true, lastSeenAt: { gte: new Date(Date.now() - ONLINE_WINDOW_MS) } },
  });
  return {
    totalConflicts: totals.total,
    highRiskUsers: totals.highUsers,
    pendingReviews: period ? totals.total - decided : 0,
    activeReviewers,
  };
}
