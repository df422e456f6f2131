// REST: the verification of the audit trail's hash chain (administrators),
// GET /api/audit/verify → { checkedEvents, headHash, firstBreak }.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { verifyAuditChain } from '../../services/audit/chain.js';
import { routeSchema } from '../edge.js';

const VerifyJson = z.strictObject({
  checkedEvents: z.number().int().describe('Audit events walked in chain order (the broken one included)'),
  headHash: z.string().describe("SHA-256 (hex) of the chain's last event, as the chain's head records it; 64 zeros while the trail is empty"),
  firstBreak: z
    .strictObject({
      eventId: z.string().describe('The first audit event that does not match the chain: its id'),
      reason: z
        .string()
        .describe('What does not match: its hash (changed), its link to the previous event (swapped or replaced), or its place (a gap: deleted)'),
    })
    .nullable()
    .describe('null when every event matches'),
});

export function registerAuditRoutes(app: FastifyInstance) {
  app.get(
    '/api/audit/verify',
    {
      config: { access: 'admin' },
      schema: routeSchema({
        summary: "Walks the audit trail's hash chain and names the first event that does not match",
        reply: VerifyJson,
      }),
    },
    async (req) => verifyAuditChain(req.ctx.caller!),
  );
}
