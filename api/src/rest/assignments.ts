// REST: assignment criteria (SPEC §7 /api/assignment-criteria, /api/assignment-values).
import type { FastifyInstance } from 'fastify';
import * as assignments from '../services/assignments.js';

function shape(c: assignments.CriteriaWithReviewer) {
  return {
    id: c.id,
    name: c.name,
    reviewerId: c.reviewerId,
    criteriaType: c.criteriaType,
    criteriaValue: c.criteriaValue,
    assignedAt: c.assignedAt,
    reviewer: { firstName: c.reviewer.firstName, lastName: c.reviewer.lastName, email: c.reviewer.email },
  };
}

export function registerAssignmentRoutes(app: FastifyInstance) {
  app.get('/api/assignment-criteria', { config: { access: 'admin' } }, async (req) =>
    (await assignments.listCriteria(req.ctx.prisma)).map(shape),
  );

  app.get<{ Params: { criteriaType: string }; Querystring: { reviewerId?: string } }>(
    '/api/assignment-values/:criteriaType',
    { config: { access: 'admin' } },
    async (req) => assignments.criteriaValues(req.ctx.prisma, req.params.criteriaType, req.query.reviewerId),
  );

  app.post<{ Body: assignments.CreateCriteriaInput }>('/api/assignment-criteria', { config: { access: 'admin' } }, async (req, reply) => {
    return reply.status(201).send(shape(await assignments.createCriteria(req.ctx.prisma, req.ctx.actor, req.body ?? {})));
  });

  app.delete<{ Params: { id: string } }>('/api/assignment-criteria/:id', { config: { access: 'admin' } }, async (req) => {
    await assignments.deleteCriteria(req.ctx.prisma, req.ctx.actor, req.params.id);
    return { success: true };
  });
}
