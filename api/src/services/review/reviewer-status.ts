// Reviewer Status: per reviewer in the active period, assigned, decided,
// submitted, approved and last activity (the administrators' tab).
import type { Submission, User } from '../../generated/prisma/client.js';
import type { Caller } from '../caller.js';
import { getActivePeriod } from './periods.js';
import { assignedCounts } from './risks.js';
import { latestSubmissions } from './decisions.js';

export interface ReviewerStatus {
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

/** Who Reviewer Status lists: every reviewer account, active or not. */
export const REVIEWERS = { role: 'reviewer' } as const;

/** A reviewer as the progress needs them. */
export type ReviewerKey = Pick<User, 'id' | 'lastSeenAt'>;

/**
 * Per reviewer: assigned, decided, submitted, approved, last activity (Reviewer
 * Status tab): a fixed number of queries whatever the number of reviewers.
 */
export async function reviewerStatus(caller: Caller): Promise<ReviewerStatus[]> {
  const reviewers = await caller.deps.prisma.user.findMany({ where: REVIEWERS, orderBy: [{ firstName: 'asc' }, { email: 'asc' }] });
  const progress = await reviewerProgress(caller, reviewers);
  return reviewers.map((reviewer, i) => ({ reviewer, ...progress[i]! }));
}

/** The progress of these reviewers in the active period, in the same order (one page of the GraphQL connection at once). */
export async function reviewerProgress(caller: Caller, reviewers: readonly ReviewerKey[]): Promise<Omit<ReviewerStatus, 'reviewer'>[]> {
  const { prisma } = caller.deps;
  const period = await getActivePeriod(prisma);
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
