// REST: Reviewer Status (administrators).
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { reviewerStatus } from '../../services/review/reviewer-status.js';
import { isoDate, routeSchema } from '../edge.js';
import { PersonJson } from '../replies.js';

const ProgressJson = z.strictObject({
  reviewer: PersonJson,
  assigned: z.number().int(),
  decided: z.number().int(),
  submissionStatus: z.string().nullable().describe('Of the latest submission in the active period'),
  submitted: z.number().int(),
  approved: z.number().int(),
  lastActivity: isoDate().nullable(),
});

export function registerReviewerStatusRoutes(app: FastifyInstance) {
  app.get('/api/reviewer-status', { config: { access: 'admin' }, schema: routeSchema({ reply: z.array(ProgressJson) }) }, async (req) =>
    (await reviewerStatus(req.ctx.caller!)).map((p) => ({
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
