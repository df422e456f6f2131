// The verification of the audit trail's hash chain in GraphQL (administrators):
// the same facts as REST GET /api/audit/verify.
import { builder } from '../builder.js';
import { verifyAuditChain, type ChainBreak, type ChainVerification } from '../../services/audit/chain.js';

const AuditChainBreakRef = builder.objectRef<ChainBreak>('AuditChainBreak').implement({
  description: 'The first audit event that does not match the hash chain.',
  fields: (t) => ({
    eventId: t.exposeString('eventId', { description: 'The audit event’s id.' }),
    reason: t.exposeString('reason', {
      description:
        'What does not match: its hash (the event was changed), its link to the previous event (swapped or replaced), or its place (a gap: deleted).',
    }),
  }),
});

const AuditChainVerificationRef = builder.objectRef<ChainVerification>('AuditChainVerification').implement({
  description: 'A walk of the audit trail’s hash chain, every event’s hash recomputed in chain order.',
  fields: (t) => ({
    checkedEvents: t.int({ description: 'Audit events walked (the broken one included).', resolve: (v) => v.checkedEvents }),
    headHash: t.exposeString('headHash', { description: 'SHA-256 (hex) of the chain’s last event as its head records it; 64 zeros while the trail is empty.' }),
    firstBreak: t.field({
      type: AuditChainBreakRef,
      nullable: true,
      description: 'The first event that does not match; null when every event matches.',
      resolve: (v) => v.firstBreak,
    }),
  }),
});

builder.queryFields((t) => ({
  auditChainVerification: t.field({
    type: AuditChainVerificationRef,
    description: 'Walks the audit trail’s hash chain now and names the first event that does not match (administrators).',
    authScopes: { admin: true },
    resolve: (_root, _args, ctx) => verifyAuditChain(ctx.caller!),
  }),
}));
