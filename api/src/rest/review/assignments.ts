// REST: assignment criteria (SPEC §7 /api/assignment-criteria, /api/assignment-values).
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import * as assignments from '../../services/review/assignments.js';
import { CRITERIA_TYPES } from '../../services/holds.js';
import { idParams, isoDate, routeSchema, text } from '../edge.js';
import { Success } from '../replies.js';

const CriteriaJson = z.strictObject({
  id: z.uuid(),
  name: z.string(),
  reviewerId: z.uuid(),
  criteriaType: z.enum(CRITERIA_TYPES),
  criteriaValue: z.string(),
  assignedAt: isoDate(),
  reviewer: z.strictObject({ firstName: z.string(), lastName: z.string(), email: z.string() }),
});

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

const ValuesParams = z.object({
  criteriaType: z.enum(CRITERIA_TYPES, { error: `Unknown criteria type: use one of ${CRITERIA_TYPES.join(', ')}` }),
});
const ValuesQuery = z.object({ reviewerId: text('reviewerId', 100).optional() });

export function registerAssignmentRoutes(app: FastifyInstance) {
  app.get('/api/assignment-criteria', { config: { access: 'admin' }, schema: routeSchema({ reply: z.array(CriteriaJson) }) }, async (req) =>
    (await assignments.listCriteria(req.ctx.caller!)).map(shape),
  );

  app.get<{ Params: z.infer<typeof ValuesParams>; Querystring: z.infer<typeof ValuesQuery> }>(
    '/api/assignment-values/:criteriaType',
    {
      config: { access: 'admin' },
      schema: routeSchema({
        params: ValuesParams,
        querystring: ValuesQuery,
        reply: z.array(z.strictObject({ value: z.string(), label: z.string() })).describe('The values of that column, with their row counts in the label'),
      }),
    },
    async (req) => assignments.criteriaValues(req.ctx.caller!, req.params.criteriaType, req.query.reviewerId),
  );

  app.post<{ Body: assignments.CreateCriteriaInput }>(
    '/api/assignment-criteria',
    { config: { access: 'admin' }, schema: routeSchema({ body: assignments.createCriteriaSchema, reply: CriteriaJson, replyStatus: 201 }) },
    async (req, reply) => reply.status(201).send(shape(await assignments.createCriteria(req.ctx.caller!, req.body))),
  );

  app.delete<{ Params: { id: string } }>(
    '/api/assignment-criteria/:id',
    { config: { access: 'admin' }, schema: routeSchema({ params: idParams, reply: Success }) },
    async (req) => {
      await assignments.deleteCriteria(req.ctx.caller!, req.params.id);
      return { success: true };
    },
  );
}
