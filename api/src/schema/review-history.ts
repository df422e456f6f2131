// The review history in GraphQL: Reports' recent reviews and All Reviews
// (a connection with offset cursors and the total, or a page number).
import { offsetToCursor, resolveOffsetConnection } from '@pothos/plugin-relay';
import { enumOf } from './enums.js';
import { builder, MAX_CONNECTION_SIZE } from './builder.js';
import type { Context } from '../context.js';
import { DecisionValueEnum } from './decisions.js';
import { RiskLevelEnum } from './risks.js';
import * as history from '../services/review-history.js';
import type { DecisionValue, RiskLevel } from '../services/risk-rules.js';

const ReviewDecisionFilterEnum = enumOf('ReviewDecisionFilter', { values: history.REVIEW_DECISION_FILTERS });
const ReviewSharedFilterEnum = enumOf('ReviewSharedFilter', { values: history.REVIEW_SHARED_FILTERS });

const SharedWithRef = builder.objectRef<history.SharedWith>('ReviewSharedWith').implement({
  description: 'Another reviewer of the same user and role in the period, with their decision (null: pending).',
  fields: (t) => ({
    reviewerName: t.exposeString('reviewerName'),
    decision: t.field({ type: DecisionValueEnum, nullable: true, resolve: (s) => s.decision as DecisionValue | null }),
  }),
});

/** A decision is a Node, read back by id through the listing's own rules (services/review-history.ts getReviews). */
const ReviewRef = builder.node(builder.objectRef<history.ReviewRecord>('ReviewDecision'), {
  description: "One reviewer's decision on one risk row in one period.",
  id: { resolve: (r) => r.id },
  isTypeOf: (v) => typeof v === 'object' && v !== null && 'sharedWith' in v && 'periodName' in v,
  loadMany: (ids, ctx) => history.getReviews(ctx.prisma, ctx.viewer!, ids),
  fields: (t) => ({
    userId: t.exposeString('userId'),
    userName: t.exposeString('userName'),
    riskLevel: t.field({ type: RiskLevelEnum, resolve: (r) => r.riskLevel as RiskLevel }),
    roleProfile: t.exposeString('roleProfile'),
    decision: t.field({ type: DecisionValueEnum, resolve: (r) => r.decision as DecisionValue }),
    comments: t.exposeString('comments', { nullable: true }),
    reviewerName: t.exposeString('reviewerName'),
    periodName: t.exposeString('periodName'),
    isSharedRole: t.exposeBoolean('isSharedRole', { description: 'More than one reviewer reviews this user and role in the period (README).' }),
    sharedWith: t.field({ type: [SharedWithRef], resolve: (r) => r.sharedWith }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the decision was made (its last change).' }),
  }),
});

/** Connection arguments as Pothos gives them. */
type ConnectionArgs = { first?: number | null; last?: number | null; after?: string | null; before?: string | null };

/**
 * A page of the decisions the viewer may list (services/review-history.ts
 * listReviews), newest first, with how many match: `page` (from 1) with
 * `first` as the page size reads that page; otherwise `after` moves on.
 */
async function reviewPage(ctx: Context, args: ConnectionArgs & { page?: number | null }, filter: history.ReviewFilter, defaultSize: number) {
  const size = args.first ?? defaultSize;
  const paged = args.page != null && args.page >= 1 ? { ...args, after: args.page > 1 ? offsetToCursor((args.page - 1) * size - 1) : null, before: null, last: null, first: size } : args;
  let total = 0;
  const connection = await resolveOffsetConnection({ args: paged, defaultSize, maxSize: MAX_CONNECTION_SIZE }, async ({ offset, limit }) => {
    // The plugin asks one more than a page, to know whether there is a next one.
    const r = await history.listReviews(ctx.prisma, ctx.viewer!, filter, { offset, limit: Math.min(limit, MAX_CONNECTION_SIZE) });
    total = r.total;
    return r.reviews;
  });
  return { ...connection, totalCount: total };
}

/** The totalCount of a decisions connection. */
const reviewCount = {
  fields: (c: PothosSchemaTypes.ObjectFieldBuilder<PothosSchemaTypes.ExtendDefaultTypes<typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never>, object>) => ({
    totalCount: c.int({ description: 'How many decisions match the filters.', resolve: (conn) => (conn as unknown as { totalCount: number }).totalCount }),
  }),
};

builder.queryFields((t) => ({
  recentReviews: t.connection(
    {
      type: ReviewRef,
      description: `The newest decisions: administrators everyone’s, reviewers their own (${history.RECENT_REVIEWS} a page unless \`first\` says otherwise).`,
      authScopes: { signedIn: true },
      resolve: (_root, args, ctx) => reviewPage(ctx, args, {}, history.RECENT_REVIEWS),
    },
    reviewCount,
  ),
  allReviews: t.connection(
    {
      type: ReviewRef,
      description:
        'Every decision the viewer may list (administrators everyone’s, reviewers their own), newest first. ' +
        '`page` (from 1) with `first` as the page size reads that page; otherwise `after` moves on.',
      authScopes: { signedIn: true },
      args: {
        search: t.arg.string({ description: 'Part of the user id or name, the role, or the reviewer.' }),
        decision: t.arg({ type: ReviewDecisionFilterEnum }),
        shared: t.arg({ type: ReviewSharedFilterEnum }),
        page: t.arg.int(),
      },
      resolve: (_root, args, ctx) => reviewPage(ctx, args, args, history.DEFAULT_REVIEW_PAGE_SIZE),
    },
    reviewCount,
  ),
}));
