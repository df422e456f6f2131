// Reviewer Status in GraphQL (administrators).
import { builder } from './builder.js';
import { reviewerStatus, type ReviewerStatus } from '../services/reviewer-status.js';
import { UserNode } from './users.js';
import { SubmissionNode, SubmissionStatusEnum } from './decisions.js';

const ReviewerStatusType = builder.objectRef<ReviewerStatus>('ReviewerStatus').implement({
  fields: (t) => ({
    reviewer: t.field({ type: UserNode, resolve: (p) => p.reviewer }),
    assigned: t.exposeInt('assigned'),
    decided: t.exposeInt('decided'),
    submissionStatus: t.field({ type: SubmissionStatusEnum, nullable: true, resolve: (p) => p.submissionStatus as never }),
    submission: t.field({ type: SubmissionNode, nullable: true, description: 'The latest submission in the active period.', resolve: (p) => p.submission }),
    submitted: t.exposeInt('submittedCount'),
    approved: t.exposeInt('approvedCount'),
    lastActivity: t.expose('lastActivity', { type: 'DateTime', nullable: true }),
  }),
});

builder.queryFields((t) => ({
  reviewerStatus: t.field({
    type: [ReviewerStatusType],
    description: 'Per reviewer in the active period: assigned, decided, submitted, approved, last activity.',
    authScopes: { admin: true },
    resolve: (_root, _args, ctx) => reviewerStatus(ctx.prisma),
  }),
}));
