// The verification of the audit trail's hash chain. The database chains every
// event as it is written (prisma/functions/audit_events_chain.sql); this walks
// the chain in chain_seq order, a batch at a time (millions of events, never
// all in memory), recomputes each hash with the database's own canonical form
// (audit_event_hash) and names the first event that does not hold: its hash
// is not the one recomputed (its content was changed), its prev_hash is not
// the previous event's hash (events were swapped or replaced), or its place
// does not follow the previous one (events deleted). The chain ends where its
// head says it does (audit_chain_head), so deleting the last events shows too.
// On demand for administrators (REST GET /api/audit/verify, GraphQL
// auditChainVerification) and daily by the job (jobs/audit-chain.ts), which
// tells the administrators of a break once.
import type { Notification, PrismaClient } from '../../generated/prisma/client.js';
import { recordAudit } from '../../core/audit.js';
import { ForbiddenError } from '../../core/errors.js';
import type { DbClient } from '../../core/types.js';
import type { PubSub } from '../../pubsub.js';
import type { Caller } from '../caller.js';
import { createSystemNotification, publishNotification } from '../identity/notifications.js';

/** The previous hash of the first event. */
export const GENESIS_HASH = '0'.repeat(64);

/** Events read and checked per query. */
const BATCH = 5000;

export interface ChainBreak {
  /** The audit event's id. */
  eventId: string;
  reason: string;
}

export interface ChainVerification {
  /** Events walked, the broken one included. */
  checkedEvents: number;
  /** The hash of the chain's last event as its head records it (GENESIS_HASH when there is none). */
  headHash: string;
  firstBreak: ChainBreak | null;
}

type Link = { id: string; seq: bigint; prev_hash: string; hash: string; recomputed: string };

/** The first break of one event against the one before it (null: the first event of the chain). */
function breakOf(e: Link, prev: { seq: bigint; hash: string } | null): ChainBreak | null {
  const expected = (prev?.seq ?? 0n) + 1n;
  if (e.seq !== expected) {
    return {
      eventId: e.id,
      reason:
        e.seq > expected
          ? `gap in the chain: chainSeq ${expected}${e.seq - 1n > expected ? ` to ${e.seq - 1n}` : ''} missing before chainSeq ${e.seq} (events deleted)`
          : `out of order: chainSeq ${e.seq} follows ${prev?.seq ?? 0n}`,
    };
  }
  if (e.prev_hash !== (prev?.hash ?? GENESIS_HASH)) {
    return { eventId: e.id, reason: `prev link broken: prevHash is not the hash of chainSeq ${prev?.seq ?? 0n} (events swapped or replaced)` };
  }
  if (e.recomputed !== e.hash) return { eventId: e.id, reason: 'hash mismatch: the event was changed after it was chained' };
  return null;
}

/**
 * Walks the whole chain up to the head as it stands when the walk starts
 * (events appended meanwhile are left to the next walk) and returns what it
 * checked and the first break.
 */
export async function walkAuditChain(db: DbClient, opts: { batchSize?: number } = {}): Promise<ChainVerification> {
  const batch = opts.batchSize ?? BATCH;
  const [head] = await db.$queryRaw<{ seq: bigint; hash: string }[]>`SELECT seq, hash FROM audit_chain_head`;
  const headSeq = head?.seq ?? 0n;
  const headHash = head?.hash ?? GENESIS_HASH;
  let prev: { seq: bigint; hash: string; id: string } | null = null;
  let checkedEvents = 0;
  for (;;) {
    const rows: Link[] = await db.$queryRaw<Link[]>`
      SELECT e.id::text AS id, e.chain_seq AS seq, e.prev_hash, e.hash, audit_event_hash(e.prev_hash, e) AS recomputed
        FROM audit_events e
       WHERE e.chain_seq > ${prev?.seq ?? -1n} AND e.chain_seq <= ${headSeq}
       ORDER BY e.chain_seq
       LIMIT ${batch}`;
    for (const e of rows) {
      checkedEvents++;
      const found = breakOf(e, prev);
      if (found) return { checkedEvents, headHash, firstBreak: found };
      prev = { seq: e.seq, hash: e.hash, id: e.id };
    }
    if (rows.length < batch) break;
  }
  if ((prev?.seq ?? 0n) !== headSeq || (prev?.hash ?? GENESIS_HASH) !== headHash) {
    return {
      checkedEvents,
      headHash,
      firstBreak: {
        eventId: prev?.id ?? '0',
        reason: `the chain ends at chainSeq ${prev?.seq ?? 0n} but its head is chainSeq ${headSeq} (the last events were deleted or the head changed)`,
      },
    };
  }
  return { checkedEvents, headHash, firstBreak: null };
}

/** The verification on demand (administrators). */
export function verifyAuditChain(caller: Caller): Promise<ChainVerification> {
  if (caller.actor.user.role !== 'admin') throw new ForbiddenError('Only administrators can verify the audit trail');
  return walkAuditChain(caller.deps.prisma);
}

export const CHAIN_BREAK_ACTION = 'audit.chain_broken';
export const CHAIN_BREAK_TITLE = 'Audit trail altered';
/** The job's lock against a second instance telling the same break at the same moment. */
const ALERT_LOCK = 'audit-chain-alert';

/**
 * The scheduled verification: walks the chain and, when it is broken, tells
 * every active administrator (an in-app notification) and records the break
 * in the trail itself (CHAIN_BREAK_ACTION, the broken event as its entity),
 * once per break: a break already recorded is not told again, however many
 * runs find it. Returns the verification.
 */
export async function checkAuditChain(deps: { prisma: PrismaClient; pubsub: PubSub }): Promise<ChainVerification & { alerted: boolean }> {
  const result = await walkAuditChain(deps.prisma);
  const found = result.firstBreak;
  if (!found) return { ...result, alerted: false };
  const sent = await deps.prisma.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${ALERT_LOCK}, 0))`;
    const told = await tx.$queryRaw<{ n: bigint }[]>`
      SELECT count(*) AS n FROM audit_events
       WHERE entity_type = 'AuditEvent' AND entity_id = ${found.eventId} AND action = ${CHAIN_BREAK_ACTION} AND after ->> 'reason' = ${found.reason}`;
    if (told[0]!.n > 0n) return [];
    const admins = await tx.user.findMany({ where: { role: 'admin', isActive: true }, select: { id: true } });
    const notes: Notification[] = [];
    for (const admin of admins) {
      notes.push(
        await createSystemNotification(tx, {
          type: 'urgent',
          title: CHAIN_BREAK_TITLE,
          message:
            `The daily verification of the audit trail found that audit event ${found.eventId} does not match its hash chain: ${found.reason}. ` +
            'Someone with direct access to the database may have changed, deleted or reordered audit events. ' +
            'GET /api/audit/verify (GraphQL auditChainVerification) names the first such event at any time; the evidence already issued keeps the hashes it was issued with.',
          targetUserId: admin.id,
        }),
      );
    }
    await recordAudit(tx, null, {
      action: CHAIN_BREAK_ACTION,
      entityType: 'AuditEvent',
      entityId: found.eventId,
      after: { reason: found.reason, checkedEvents: result.checkedEvents, headHash: result.headHash, notified: admins.length },
    });
    return notes;
  });
  for (const n of sent) publishNotification(deps.pubsub, n);
  return { ...result, alerted: sent.length > 0 };
}
