// Dashboard figures and the administrators' per-reviewer progress.
import type { PrismaClient, Submission, User } from '../generated/prisma/client.js';
import { getActivePeriod } from './periods.js';
import { decidedRowCount, viewerScope, visibleTotals } from './risks.js';
import { latestSubmission } from './decisions.js';

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

/** Per reviewer: assigned, decided, submitted, approved, last activity (Reviewer Status tab). */
export async function reviewerProgress(prisma: PrismaClient): Promise<ReviewerProgress[]> {
  const period = await getActivePeriod(prisma);
  const reviewers = await prisma.user.findMany({ where: { role: 'reviewer' }, orderBy: [{ firstName: 'asc' }, { email: 'asc' }] });
  const out: ReviewerProgress[] = [];
  for (const reviewer of reviewers) {
    const assigned = (await visibleTotals(prisma, reviewer)).total;
    let decided = 0;
    let lastDecision: Date | null = null;
    let latest = null;
    if (period) {
      const agg = await prisma.decision.aggregate({ where: { periodId: period.id, reviewerId: reviewer.id }, _count: true, _max: { updatedAt: true } });
      decided = agg._count;
      lastDecision = agg._max.updatedAt;
      latest = await latestSubmission(prisma, period.id, reviewer.id);
    }
    const times = [lastDecision, reviewer.lastSeenAt, latest?.submittedAt ?? null].filter((d): d is Date => Boolean(d));
    out.push({
      reviewer,
      assigned,
      decided,
      submissionStatus: latest?.status ?? null,
      submission: latest,
      submittedCount: latest && latest.status !== 'recalled' ? latest.decisionCount : 0,
      approvedCount: latest?.status === 'approved' ? latest.decisionCount : 0,
      lastActivity: times.length ? new Date(Math.max(...times.map((d) => d.getTime()))) : null,
    });
  }
  return out;
}
