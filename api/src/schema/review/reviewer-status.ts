// Reviewer Status in GraphQL (administrators): a connection over the reviewer
// accounts (a variant of User, so it pages, counts and sorts as every other
// list does), each with their progress in the active period, read for the
// whole page at once.
import { builder, runnable } from '../builder.js';
import type { Prisma } from '../../generated/prisma/client.js';
import type { Context } from '../../context.js';
import { reviewerProgress, REVIEWERS, type ReviewerKey } from '../../services/review/reviewer-status.js';
import { listOrder } from '../ordering.js';
import { PERSON_ORDER_FIELDS, UserNode } from '../identity/users.js';
import { SubmissionNode, SubmissionStatusEnum } from './decisions.js';

/** The progress of a reviewer, asked for every reviewer of the page at once. */
const progressOf = (ctx: Context, reviewer: ReviewerKey) =>
  ctx
    .caller!.viewer.loader(
      'reviewerProgress',
      (rs: readonly ReviewerKey[]) => reviewerProgress(ctx.caller!, rs),
      (r) => r.id,
    )
    .load(reviewer);

export const ReviewerStatusRef = builder.prismaObject('User', {
  description: 'One reviewer’s progress in the active period.',
  variant: 'ReviewerStatus',
  select: { id: true, lastSeenAt: true },
  fields: (t) => ({
    reviewer: t.variant(UserNode, { description: 'The reviewer whose progress this is (a User).' }),
    assigned: t.int({ description: 'Rows assigned to them.', resolve: async (u, _args, ctx) => (await progressOf(ctx, u)).assigned }),
    decided: t.int({ description: 'Rows they have decided.', resolve: async (u, _args, ctx) => (await progressOf(ctx, u)).decided }),
    submissionStatus: t.field({
      type: SubmissionStatusEnum,
      nullable: true,
      description: 'Their latest submission’s status (null: none).',
      resolve: async (u, _args, ctx) => (await progressOf(ctx, u)).submissionStatus as never,
    }),
    submission: t.field({
      type: SubmissionNode,
      nullable: true,
      description: 'The latest submission in the active period.',
      resolve: async (u, _args, ctx) => (await progressOf(ctx, u)).submission,
    }),
    submitted: t.int({ description: 'Decisions they have submitted.', resolve: async (u, _args, ctx) => (await progressOf(ctx, u)).submittedCount }),
    approved: t.int({ description: 'Decisions an administrator has approved.', resolve: async (u, _args, ctx) => (await progressOf(ctx, u)).approvedCount }),
    lastActivity: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When they last decided or submitted.',
      resolve: async (u, _args, ctx) => (await progressOf(ctx, u)).lastActivity,
    }),
  }),
});

const reviewerOrder = listOrder('ReviewerStatus', 'the reviewers', PERSON_ORDER_FIELDS, { field: 'NAME', direction: 'asc' });

builder.queryFields((t) => ({
  reviewerStatus: t.prismaConnection({
    type: ReviewerStatusRef,
    cursor: 'id',
    description:
      'Per reviewer (every reviewer account) in the active period: assigned, decided, submitted, approved, last activity; by name unless `orderBy` says otherwise.',
    authScopes: { admin: true },
    args: reviewerOrder.arg(),
    resolve: (query, _root, args, ctx) =>
      ctx.prisma.user.findMany({ ...runnable(query), where: REVIEWERS, orderBy: reviewerOrder.orderBy<Prisma.UserOrderByWithRelationInput>(args.orderBy) }),
    totalCount: (_root, _args, ctx) => ctx.prisma.user.count({ where: REVIEWERS }),
  }),
}));
