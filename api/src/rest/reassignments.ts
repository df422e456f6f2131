// REST: delegation and reassignment (issue 18, point 6): POST /api/reassignments,
// GET /api/reassignments (?riskDefinitionId= for one item's history),
// GET /api/reassignments/open-work.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { publicUser } from '../core/types.js';
import * as reassignments from '../services/reassignments.js';
import { CRITERIA_TYPES } from '../services/assignments.js';
import { isoDate, routeSchema, text } from './edge.js';
import { UserJson } from './replies.js';

const ReassignmentJson = z.strictObject({
  id: z.uuid(),
  createdAt: isoDate(),
  criteriaId: z.uuid().describe('The assignment moved'),
  criteriaName: z.string(),
  criteriaType: z.enum(CRITERIA_TYPES),
  criteriaValue: z.string(),
  fromReviewerId: z.uuid(),
  fromLabel: z.string(),
  toReviewerId: z.uuid(),
  toLabel: z.string(),
  byId: z.uuid().nullable().describe('Who moved it'),
  byLabel: z.string(),
  note: z.string().nullable(),
});
const OpenWorkJson = z.strictObject({
  reviewer: UserJson,
  pending: z.number().int().describe('Items without the reviewer’s decision in the active period'),
  criteria: z.array(z.strictObject({ id: z.uuid(), name: z.string(), criteriaType: z.enum(CRITERIA_TYPES), criteriaValue: z.string() })),
});

const ListQuery = z.object({ riskDefinitionId: text('riskDefinitionId', 30).optional() });

export function registerReassignmentRoutes(app: FastifyInstance) {
  app.post<{ Body: reassignments.ReassignInput }>(
    '/api/reassignments',
    { config: { access: 'signedIn' }, schema: routeSchema({ body: reassignments.reassignSchema, reply: ReassignmentJson, replyStatus: 201 }) },
    async (req, reply) => reply.status(201).send(await reassignments.reassign(req.ctx.deps, req.ctx.actor, req.body ?? {})),
  );

  app.get<{ Querystring: z.infer<typeof ListQuery> }>(
    '/api/reassignments',
    { config: { access: 'signedIn' }, schema: routeSchema({ querystring: ListQuery, reply: z.array(ReassignmentJson).describe('Newest first') }) },
    async (req) => reassignments.listReassignments(req.ctx.prisma, req.ctx.actor, { riskDefinitionId: req.query.riskDefinitionId }),
  );

  app.get('/api/reassignments/open-work', { config: { access: 'signedIn' }, schema: routeSchema({ reply: z.array(OpenWorkJson) }) }, async (req) =>
    (await reassignments.openWork(req.ctx.prisma, req.ctx.actor)).map((w) => ({ ...w, reviewer: publicUser(w.reviewer) })),
  );
}
