// REST: decisions, submission and approval (SPEC §7 /api/reviews/…, /api/submissions).
import type { FastifyInstance } from 'fastify';
import * as decisions from '../services/decisions.js';

export function registerDecisionRoutes(app: FastifyInstance) {
  app.post<{ Body: decisions.DecisionItem }>('/api/reviews/decision', { config: { access: 'signedIn' } }, async (req) => {
    return { success: true, ...(await decisions.saveDecisions(req.ctx.deps, req.ctx.actor, [req.body ?? {}])) };
  });

  app.post<{ Body: { decisions?: unknown } }>('/api/reviews/decisions', { config: { access: 'signedIn' } }, async (req) => {
    return { success: true, ...(await decisions.saveDecisions(req.ctx.deps, req.ctx.actor, req.body?.decisions)) };
  });

  app.get('/api/reviews/submission-status', { config: { access: 'reviewer' } }, async (req) =>
    decisions.submissionStatus(req.ctx.prisma, req.ctx.user!),
  );

  app.post('/api/reviews/submit', { config: { access: 'reviewer' } }, async (req) => {
    const r = await decisions.submit(req.ctx.deps, req.ctx.actor);
    return { count: r.count, submissionId: r.submission.id };
  });

  app.post('/api/reviews/recall', { config: { access: 'reviewer' } }, async (req) => decisions.recall(req.ctx.deps, req.ctx.actor));

  app.get<{ Querystring: { status?: string } }>('/api/submissions', { config: { access: 'admin' } }, async (req) =>
    (await decisions.listSubmissions(req.ctx.prisma, req.query)).map((s) => ({
      id: s.id,
      status: s.status,
      decisionCount: s.decisionCount,
      submittedAt: s.submittedAt,
      recalledAt: s.recalledAt,
      reviewedAt: s.reviewedAt,
      reviewComment: s.reviewComment,
      period: { id: s.period.id, name: s.period.name },
      reviewer: { id: s.reviewer.id, firstName: s.reviewer.firstName, lastName: s.reviewer.lastName, email: s.reviewer.email },
      reviewedBy: s.reviewedBy ? { id: s.reviewedBy.id, firstName: s.reviewedBy.firstName, lastName: s.reviewedBy.lastName } : null,
    })),
  );

  app.put<{ Params: { id: string } }>('/api/submissions/:id/approve', { config: { access: 'admin' } }, async (req) =>
    decisions.reviewSubmission(req.ctx.deps, req.ctx.actor, req.params.id, 'approved'),
  );

  app.put<{ Params: { id: string }; Body: { comment?: string } }>('/api/submissions/:id/return', { config: { access: 'admin' } }, async (req) =>
    decisions.reviewSubmission(req.ctx.deps, req.ctx.actor, req.params.id, 'returned', req.body?.comment),
  );
}
