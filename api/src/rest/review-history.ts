// REST: the review history (SPEC §7 GET /api/reviews/all, GET /api/dashboard/recent-reviews).
import type { FastifyInstance } from 'fastify';
import * as history from '../services/review-history.js';

type AllQuery = history.ReviewFilter & { page?: string; limit?: string };

export function registerReviewHistoryRoutes(app: FastifyInstance) {
  app.get<{ Querystring: AllQuery }>('/api/reviews/all', { config: { access: 'signedIn' } }, async (req) => {
    const r = await history.listReviews(req.ctx.prisma, req.ctx.viewer!, req.query, req.query);
    return { reviews: r.reviews.map((x) => history.reviewJson(x, true)), total: r.total, page: r.page, limit: r.limit };
  });

  app.get('/api/dashboard/recent-reviews', { config: { access: 'signedIn' } }, async (req) =>
    (await history.recentReviews(req.ctx.prisma, req.ctx.viewer!)).map((x) => history.reviewJson(x, false)),
  );
}
