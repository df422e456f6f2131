// The review history in GraphQL: Reports' recent reviews and All Reviews
// (connections with the total, read by keyset cursors or by page number).
import { decodeCursor, encodeCursor } from '../cursors.js';
import { ValidationError } from '../../core/errors.js';
import { enumOf } from '../enums.js';
import { builder, MAX_CONNECTION_SIZE } from '../builder.js';
import type { Context } from '../../context.js';
import { DecisionValueEnum } from '../review/decisions.js';
import { RiskLevelEnum } from '../review/risks.js';
import * as history from '../../services/reports/review-history.js';
import type { DecisionValue, RiskLevel } from '../../services/risk-rules.js';

const ReviewDecisionFilterEnum = enumOf('ReviewDecisionFilter', {
  description: 'Which decisions to list.',
  values: history.REVIEW_DECISION_FILTERS,
  descriptions: {
    retain: 'Retained rows only (with or without mitigation).',
    remove: 'Removed rows only.',
  },
});
const ReviewSharedFilterEnum = enumOf('ReviewSharedFilter', {
  description: 'Decisions on roles reviewed by one reviewer or several.',
  values: history.REVIEW_SHARED_FILTERS,
  descriptions: {
    shared: 'Only roles that more than one reviewer reviews.',
    unique: 'Only roles that one reviewer reviews.',
  },
});

const SharedWithRef = builder.objectRef<history.SharedWith>('ReviewSharedWith').implement({
  description: 'Another reviewer of the same user and role in the period, with their decision (null: pending).',
  fields: (t) => ({
    reviewerName: t.exposeString('reviewerName', { description: 'The other reviewer.' }),
    decision: t.field({
      type: DecisionValueEnum,
      nullable: true,
      description: 'Their decision (null: pending).',
      resolve: (s) => s.decision as DecisionValue | null,
    }),
  }),
});

/** A decision is a Node, read back by id through the listing's own rules (services/reports/review-history.ts getReviews). */
const ReviewRef = builder.node(builder.objectRef<history.ReviewRecord>('ReviewDecision'), {
  description: "One reviewer's decision on one risk row in one period.",
  id: { description: 'The decision’s global id.', resolve: (r) => r.id },
  isTypeOf: (v) => typeof v === 'object' && v !== null && 'sharedWith' in v && 'periodName' in v,
  loadMany: (ids, ctx) => history.getReviews(ctx.caller!, ids),
  fields: (t) => ({
    userId: t.exposeString('userId', { description: 'The user id in the source system.' }),
    userName: t.exposeString('userName', { description: 'The user’s name.' }),
    riskLevel: t.field({ type: RiskLevelEnum, description: 'The risk level of the row.', resolve: (r) => r.riskLevel as RiskLevel }),
    roleProfile: t.exposeString('roleProfile', { description: 'The role profile decided on.' }),
    decision: t.field({
      type: DecisionValueEnum,
      description: 'What the reviewer decided for the access: retain, retain with a mitigating control, or remove.',
      resolve: (r) => r.decision as DecisionValue,
    }),
    comments: t.exposeString('comments', { nullable: true, description: 'The reviewer’s comment.' }),
    reviewerName: t.exposeString('reviewerName', { description: 'Who decided.' }),
    periodName: t.exposeString('periodName', { description: 'The review period it was made in.' }),
    isSharedRole: t.exposeBoolean('isSharedRole', { description: 'More than one reviewer reviews this user and role in the period (README).' }),
    sharedWith: t.field({
      type: [SharedWithRef],
      description: 'The other reviewers of the same user and role, with their decisions.',
      resolve: (r) => r.sharedWith,
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the decision was made (its last change).' }),
  }),
});

/** Connection arguments as Pothos gives them. */
type ConnectionArgs = { first?: number | null; last?: number | null; after?: string | null; before?: string | null };

/**
 * A decision's cursor: its place in the newest-first order (its last change in
 * epoch microseconds and its id, services/reports/review-history.ts ReviewKey), opaque
 * to callers. It stays put whatever is decided meanwhile, however its page was
 * read (by number or by cursor).
 */
const CURSOR = /^ReviewCursor:(-?\d{1,20}):([0-9a-f-]{36})$/;
const toCursor = (k: history.ReviewKey) => encodeCursor(`ReviewCursor:${k.at}:${k.id}`);
function fromCursor(cursor: string | null | undefined, name: 'after' | 'before'): history.ReviewKey | null {
  if (cursor == null) return null;
  const m = decodeCursor(cursor, CURSOR, name);
  return { at: m[1]!, id: m[2]! };
}

/**
 * A page of the decisions the viewer may list (services/reports/review-history.ts
 * listReviews), newest first, with how many match: `page` (from 1) with
 * `first` as the page size reads that page; otherwise `first` / `after` read
 * on, `last` / `before` read back.
 */
async function reviewPage(ctx: Context, args: ConnectionArgs & { page?: number | null }, filter: history.ReviewFilter, defaultSize: number) {
  for (const name of ['first', 'last'] as const) {
    const v = args[name];
    if (v != null && (v < 1 || v > MAX_CONNECTION_SIZE)) throw new ValidationError(`'${name}' must be from 1 to ${MAX_CONNECTION_SIZE}`, name);
  }
  if (args.first != null && args.last != null) throw new ValidationError("Pass 'first' or 'last', not both", 'last');
  if (args.page != null && (args.after != null || args.before != null || args.last != null)) {
    throw new ValidationError("'page' reads a page by number: pass it with 'first' only, not with 'after', 'before' or 'last'", 'page');
  }
  const after = fromCursor(args.after, 'after');
  const before = fromCursor(args.before, 'before');
  const r = await history.listReviews(ctx.caller!, filter, {
    page: args.page,
    limit: args.first ?? args.last ?? defaultSize,
    after,
    before,
    fromEnd: args.last != null,
  });
  const edges = r.reviews.map((node) => ({ node, cursor: toCursor(node.key) }));
  return {
    edges,
    pageInfo: {
      hasNextPage: r.hasOlder,
      hasPreviousPage: r.hasNewer,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges[edges.length - 1]?.cursor ?? null,
    },
    totalCount: r.total,
  };
}

/** The totalCount of a decisions connection. */
const reviewCount = {
  fields: (
    c: PothosSchemaTypes.ObjectFieldBuilder<
      PothosSchemaTypes.ExtendDefaultTypes<typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never>,
      object
    >,
  ) => ({
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
        '`page` (from 1) with `first` as the page size reads that page (the page buttons); otherwise `first` with `after` reads on ' +
        'and `last` with `before` reads back: cursors stay put when decisions are made meanwhile (nothing skipped or repeated).',
      authScopes: { signedIn: true },
      args: {
        search: t.arg.string({ description: 'Part of the user id or name, the role, or the reviewer.' }),
        decision: t.arg({ type: ReviewDecisionFilterEnum, description: 'Only retained or only removed rows.' }),
        shared: t.arg({ type: ReviewSharedFilterEnum, description: 'Only shared or only unique roles.' }),
        page: t.arg.int({ description: 'The page to read, from 1, with `first` as the page size (not with cursors or `last`).' }),
      },
      resolve: (_root, args, ctx) => reviewPage(ctx, args, args, history.DEFAULT_REVIEW_PAGE_SIZE),
    },
    reviewCount,
  ),
}));
