// REST: delegation and reassignment (issue 18, point 6): POST /api/reassignments,
// GET /api/reassignments (?riskDefinitionId= for one item's history),
// GET /api/reassignments/open-work, GET /api/reassignments/reviewers (who work can go to).
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { publicUser } from '../core/types.js';
import type { Reassignment } from '../generated/prisma/client.js';
import * as reassignments from '../services/reassignments.js';
import { routeSchema, text } from './edge.js';

/** A move as REST gives it: the single items as risk ids (numbers, as the lists give them). */
const restMove = ({ riskRowIds, ...r }: Reassignment) => ({ ...r, riskDefinitionIds: riskRowIds.map(Number) });

const ListQuery = z.object({ riskDefinitionId: text('riskDefinitionId', 30).optional() });

export function registerReassignmentRoutes(app: FastifyInstance) {
  app.post<{ Body: reassignments.ReassignInput }>(
    '/api/reassignments',
    { config: { access: 'signedIn' }, schema: routeSchema({ body: reassignments.reassignSchema }) },
    async (req, reply) => reply.status(201).send(restMove(await reassignments.reassign(req.ctx.deps, req.ctx.actor, req.body ?? {}))),
  );

  app.get<{ Querystring: z.infer<typeof ListQuery> }>(
    '/api/reassignments',
    { config: { access: 'signedIn' }, schema: routeSchema({ querystring: ListQuery }) },
    async (req) => (await reassignments.listReassignments(req.ctx.prisma, req.ctx.actor, { riskDefinitionId: req.query.riskDefinitionId })).map(restMove),
  );

  app.get('/api/reassignments/open-work', { config: { access: 'signedIn' } }, async (req) =>
    (await reassignments.openWork(req.ctx.prisma, req.ctx.actor)).map((w) => ({ ...w, reviewer: publicUser(w.reviewer), items: w.items.map(Number) })),
  );

  app.get('/api/reassignments/reviewers', { config: { access: 'signedIn' } }, async (req) =>
    (await reassignments.reassignableReviewers(req.ctx.prisma, req.ctx.actor)).map((u) => ({ id: u.id, firstName: u.firstName, lastName: u.lastName, email: u.email })),
  );
}
