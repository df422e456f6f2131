// Dashboard figures and the administrators' per-reviewer progress.
import type { PrismaClient, Submission, User } from '../generated/prisma/client.js';
import { getActivePeriod } from './periods.js';
import { assignedCounts, decidedRowCount, viewerScope, visibleTotals } from './risks.js';
import { latestSubmissions } from './decisions.js';

/** A reviewer counts as online when seen within this window. */
export const ONLINE_WINDOW_MS = 15 * 60_000;

export async function dashboardStats(prisma: PrismaClient, user: User) {
  // Pending: for a reviewer, rows they have not decided; for an administrator,
  // rows nobody has decided.
  const [period, scope] = await Promise.all([getActivePeriod(prisma), viewerScope(prisma, user)]);
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

export interface ReviewerProgress {
  reviewer: User;
  assigned: number;
  decided: number;
  submissionStatus: string | null;
  /** The reviewer's latest submission in the active period. */
  submission: Submission | null;
  submittedCount: number;
  approvedCount: number;
  lastActivity: Date | null;
}

/**
 * Per reviewer: assigned, decided, submitted, approved, last activity (Reviewer
 * Status tab): a fixed number of queries whatever the number of reviewers.
 */
export async function reviewerProgress(prisma: PrismaClient): Promise<ReviewerProgress[]> {
  const period = await getActivePeriod(prisma);
  const reviewers = await prisma.user.findMany({ where: { role: 'reviewer' }, orderBy: [{ firstName: 'asc' }, { email: 'asc' }] });
  const ids = reviewers.map((r) => r.id);
  const [assigned, decisions, submissions] = await Promise.all([
    assignedCounts(prisma, ids),
    period
      ? prisma.decision.groupBy({ by: ['reviewerId'], where: { periodId: period.id, reviewerId: { in: ids } }, _count: true, _max: { updatedAt: true } })
      : [],
    period ? latestSubmissions(prisma, period.id, ids) : new Map<string, Submission>(),
  ]);
  const decided = new Map(decisions.map((d) => [d.reviewerId, d]));
  return reviewers.map((reviewer) => {
    const d = decided.get(reviewer.id);
    const latest = submissions.get(reviewer.id) ?? null;
    const times = [d?._max.updatedAt ?? null, reviewer.lastSeenAt, latest?.submittedAt ?? null].filter((t): t is Date => Boolean(t));
    return {
      reviewer,
      assigned: assigned.get(reviewer.id) ?? 0,
      decided: d?._count ?? 0,
      submissionStatus: latest?.status ?? null,
      submission: latest,
      submittedCount: latest && latest.status !== 'recalled' ? latest.decisionCount : 0,
      approvedCount: latest?.status === 'approved' ? latest.decisionCount : 0,
      lastActivity: times.length ? new Date(Math.max(...times.map((t) => t.getTime()))) : null,
    };
  });
}
