// REST: delegation and reassignment: POST /api/reassignments,
// GET /api/reassignments (?riskDefinitionId= for one item's history),
// GET /api/reassignments/open-work, GET /api/reassignments/reviewers (who work can go to).
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { publicUser } from '../../core/types.js';
import type { Reassignment } from '../../generated/prisma/client.js';
import * as reassignments from '../../services/review/reassignments.js';
import { CRITERIA_TYPES } from '../../services/holds.js';
import { isoDate, routeSchema, text } from '../edge.js';
import { UserJson } from '../replies.js';

const ReassignmentJson = z.strictObject({
  id: z.uuid(),
  createdAt: isoDate(),
  criteriaId: z.uuid().nullable().describe('The assignment moved; null when single items were moved'),
  criteriaName: z.string().nullable(),
  criteriaType: z.enum(CRITERIA_TYPES).nullable(),
  criteriaValue: z.string().nullable(),
  riskDefinitionIds: z.array(z.number().int()).describe('The single items moved (risk ids); empty when a criterion was moved'),
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
  items: z.array(z.number().int()).describe('Single items (risk ids) moved to the reviewer'),
});
const ReviewerJson = z.strictObject({ id: z.uuid(), firstName: z.string(), lastName: z.string(), email: z.string() });

/** A move as REST gives it: the single items as risk ids (numbers, as the lists give them). */
const restMove = ({ riskRowIds, ...r }: Reassignment) => ({ ...r, riskDefinitionIds: riskRowIds.map(Number) });

/**
 * The SPEC's REST names the single items riskDefinitionIds (one item's
 * history: riskDefinitionId) where the services say riskRowIds: the body is
 * checked under the SPEC's name, renamed here, and the service's refusals
 * about the items are told the SPEC's name.
 */
const ITEMS_FIELD = 'riskDefinitionIds';
const ReassignBody = reassignments.reassignSchemaNaming(ITEMS_FIELD);
type ReassignBody = z.input<typeof ReassignBody>;
const moveOf = ({ riskDefinitionIds, ...b }: ReassignBody): reassignments.ReassignInput => ({ ...b, riskRowIds: riskDefinitionIds });

const ListQuery = z.object({ riskDefinitionId: text('riskDefinitionId', 30).optional() });

export function registerReassignmentRoutes(app: FastifyInstance) {
  app.post<{ Body: ReassignBody }>(
    '/api/reassignments',
    { config: { access: 'signedIn' }, schema: routeSchema({ body: ReassignBody, reply: ReassignmentJson, replyStatus: 201 }) },
    async (req, reply) => reply.status(201).send(restMove(await reassignments.reassign(req.ctx.caller!, moveOf(req.body), ITEMS_FIELD))),
  );

  app.get<{ Querystring: z.infer<typeof ListQuery> }>(
    '/api/reassignments',
    { config: { access: 'signedIn' }, schema: routeSchema({ querystring: ListQuery, reply: z.array(ReassignmentJson).describe('Newest first') }) },
    async (req) => (await reassignments.listReassignments(req.ctx.caller!, { riskRowId: req.query.riskDefinitionId, field: 'riskDefinitionId' })).map(restMove),
  );

  app.get('/api/reassignments/open-work', { config: { access: 'signedIn' }, schema: routeSchema({ reply: z.array(OpenWorkJson) }) }, async (req) =>
    (await reassignments.openWork(req.ctx.caller!)).map((w) => ({ ...w, reviewer: publicUser(w.reviewer), items: w.items.map(Number) })),
  );

  app.get('/api/reassignments/reviewers', { config: { access: 'signedIn' }, schema: routeSchema({ reply: z.array(ReviewerJson) }) }, async (req) =>
    (await reassignments.reassignableReviewers(req.ctx.caller!)).map((u) => ({ id: u.id, firstName: u.firstName, lastName: u.lastName, email: u.email })),
  );
}
