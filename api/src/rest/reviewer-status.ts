// REST: Reviewer Status (administrators).
import type { FastifyInstance } from 'fastify';
import { reviewerStatus } from '../services/reviewer-status.js';

export function registerReviewerStatusRoutes(app: FastifyInstance) {
  app.get('/api/reviewer-status', { config: { access: 'admin' } }, async (req) =>
    (await reviewerStatus(req.ctx.prisma)).map((p) => ({
      reviewer: { id: p.reviewer.id, firstName: p.reviewer.firstName, lastName: p.reviewer.lastName, email: p.reviewer.email },
      assigned: p.assigned,
      decided: p.decided,
      submissionStatus: p.submissionStatus,
      submitted: p.submittedCount,
      approved: p.approvedCount,
      lastActivity: p.lastActivity,
    })),
  );
}
