// REST: the review history (SPEC §7 GET /api/reviews/all, GET /api/dashboard/recent-reviews).
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import * as history from '../../services/reports/review-history.js';
import { isoDate, routeSchema } from '../edge.js';

const ReviewJson = z.strictObject({
  id: z.uuid(),
  userName: z.string(),
  userId: z.string(),
  riskLevel: z.string(),
  roleProfile: z.string(),
  decision: z.string(),
  reviewerName: z.string(),
  createdAt: isoDate().describe('When the decision was made (its last change)'),
  periodId: z.uuid(),
  periodName: z.string(),
  riskDefinitionId: z.number().int(),
  comments: z.string().nullable(),
});
const SharedReviewJson = ReviewJson.extend({
  isSharedRole: z.boolean(),
  sharedWith: z.array(z.strictObject({ reviewerName: z.string(), decision: z.string() })).describe('Other reviewers deciding the same row'),
});
const AllQuery = z.object({
  search: z.string().optional().describe('Words in the user, role or reviewer'),
  decision: z
    .string()
    .optional()
    .describe(`${history.REVIEW_DECISION_FILTERS.join(', ')} or all`),
  shared: z
    .string()
    .optional()
    .describe(`${history.REVIEW_SHARED_FILTERS.join(', ')} or all`),
  page: z.string().optional().describe('The page, from 1'),
  limit: z.string().optional().describe('Rows per page'),
});

type AllQuery = history.ReviewFilter & { page?: string; limit?: string };

export function registerReviewHistoryRoutes(app: FastifyInstance) {
  app.get<{ Querystring: AllQuery }>(
    '/api/reviews/all',
    {
      config: { access: 'signedIn' },
      schema: routeSchema({
        querystring: AllQuery,
        reply: z.strictObject({ reviews: z.array(SharedReviewJson), total: z.number().int(), page: z.number().int(), limit: z.number().int() }),
      }),
    },
    async (req) => {
      const r = await history.listReviews(req.ctx.caller!, req.query, req.query);
      return { reviews: r.reviews.map((x) => reviewJson(x, true)), total: r.total, page: r.page, limit: r.limit };
    },
  );

  app.get('/api/dashboard/recent-reviews', { config: { access: 'signedIn' }, schema: routeSchema({ reply: z.array(ReviewJson) }) }, async (req) =>
    (await history.recentReviews(req.ctx.caller!)).map((x) => reviewJson(x, false)),
  );
}

/** The REST shape of a review (SPEC §3 'Recent review' and 'Review decision row'). */
function reviewJson(r: history.ReviewRecord, withShared: boolean) {
  const base = {
    id: r.id,
    userName: r.userName,
    userId: r.userId,
    riskLevel: r.riskLevel,
    roleProfile: r.roleProfile,
    decision: r.decision,
    reviewerName: r.reviewerName,
    createdAt: r.createdAt,
    periodId: r.periodId,
    periodName: r.periodName,
    riskDefinitionId: Number(r.riskRowId),
    comments: r.comments,
  };
  if (!withShared) return base;
  return {
    ...base,
    isSharedRole: r.isSharedRole,
    sharedWith: r.sharedWith.map((s) => ({ reviewerName: s.reviewerName, decision: s.decision ?? '' })),
  };
}
