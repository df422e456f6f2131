// The line files of an evidence bundle (services/evidence/evidence-bundle.ts),
// each read in batches so a 1M-row period is written with flat memory: the
// version's frozen decisions, the period's audit events in chain order, the
// remediation list's state, and what changed since the previous version.
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { Prisma } from '../../generated/prisma/client.js';
import type { DbClient } from '../../core/types.js';
import type { PrismaClient } from '../../generated/prisma/client.js';
import { periodAuditCondition, type EvidenceScope } from '../reports/evidence.js';

const BATCH = 10_000;

/** What changed since the previous version: counted while changes.jsonl is written. */
export interface ChangeCounts {
  sinceVersion: number;
  decisionsChanged: number;
  decisionsAdded: number;
  decisionsRemoved: number;
  /** Uploads whose rows in scope differ (rows added to or removed from the review). */
  rowsInScope: { uploadId: string | null; fileName: string; before: number; after: number }[];
}

/**
 * The version's frozen decisions, one JSON object a line, in their order: each record as
 * PostgreSQL writes it out (no parse and re-serialisation of a million objects in the app).
 */
export async function* decisionLines(db: DbClient, periodId: string, version: number): AsyncGenerator<string> {
  for (let after = 0; ;) {
    const rows = await db.$queryRaw<{ seq: number; line: string }[]>`
      SELECT seq, record::text AS line FROM period_evidence_decisions
       WHERE period_id = ${periodId}::uuid AND version = ${version}::int AND seq > ${after}::int ORDER BY seq LIMIT ${BATCH}`;
    if (!rows.length) return;
    yield rows.map((r) => r.line + '\n').join('');
    after = rows[rows.length - 1]!.seq;
  }
}

interface AuditRow {
  id: bigint;
  chain_seq: bigint;
  occurred_at: string;
  actor_id: string | null;
  actor_label: string;
  action: string;
  entity_type: string;
  entity_id: string | null;
  period_id: string | null;
  before: unknown;
  after: unknown;
  ip: string | null;
  prev_hash: string | null;
  hash: string | null;
}

/**
 * The period's audit events (as the evidence holds them: up to its close) in
 * chain order, one a line in the shape verifiers read; `chain.head` is set to
 * the hash of the period's close event on the way.
 */
export async function* auditEventLines(db: DbClient, scope: EvidenceScope, chain: { head: string | null }): AsyncGenerator<string> {
  const condition = periodAuditCondition(scope.period.id, new Date(scope.period.startDate), scope.lastAuditId);
  for (let after = -1n; ;) {
    const rows = await db.$queryRaw<AuditRow[]>`
      SELECT e.id, e.chain_seq, to_char(e.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS occurred_at, e.actor_id::text AS actor_id,
             e.actor_label, e.action, e.entity_type, e.entity_id, e.period_id::text AS period_id, e.before, e.after, e.ip, e.prev_hash, e.hash
        FROM audit_events e
       WHERE e.chain_seq > ${after} AND ${condition}
       ORDER BY e.chain_seq LIMIT ${BATCH}`;
    if (!rows.length) return;
    let out = '';
    for (const e of rows) {
      if (scope.closeEventId && String(e.id) === scope.closeEventId) chain.head = e.hash;
      out +=
        JSON.stringify({
          id: String(e.id),
          chainSeq: String(e.chain_seq),
          occurredAt: e.occurred_at,
          actorId: e.actor_id,
          actorLabel: e.actor_label,
          action: e.action,
          entityType: e.entity_type,
          entityId: e.entity_id,
          periodId: e.period_id,
          before: e.before ?? null,
          after: e.after ?? null,
          ip: e.ip,
          prevHash: e.prev_hash,
          hash: e.hash,
        }) + '\n';
    }
    yield out;
    after = BigInt(rows[rows.length - 1]!.chain_seq);
  }
}

/** The remediation list of the period as it stands when the bundle is written (its statuses move after the close). */
export async function* remediationLines(db: DbClient, periodId: string): AsyncGenerator<string> {
  for (let after = ''; ;) {
    const rows = await db.remediationItem.findMany({ where: { periodId, id: { gt: after || undefined } }, orderBy: { id: 'asc' }, take: BATCH });
    if (!rows.length) return;
    yield rows
      .map(
        (r) =>
          JSON.stringify({
            id: r.id,
            userId: r.userId,
            userName: r.userName,
            system: r.system,
            roleProfile: r.roleProfile,
            compositeRole: r.compositeRole,
            riskIds: r.riskIds,
            decidedBy: r.decidedBy,
            approvedBy: r.approvedBy,
            approvedAt: r.approvedAt?.toISOString() ?? null,
            status: r.status,
            statusNote: r.statusNote,
            statusSetBy: r.statusSetBy,
            statusSetAt: r.statusSetAt?.toISOString() ?? null,
            verifiedAt: r.verifiedAt?.toISOString() ?? null,
          }) + '\n',
      )
      .join('');
    after = rows[rows.length - 1]!.id;
  }
}

const DECIDED_FIELDS = ['decision', 'comments', 'mitigationControl', 'mitigationExpiresAt'] as const;
const ROW_FIELDS = ['riskRowId', 'reviewerId', 'userId', 'accessRiskId', 'roleProfile', 'compositeBusinessRole', 'system', 'reviewer'] as const;

const pick = (r: Record<string, unknown> | null, keys: readonly string[]) => (r ? Object.fromEntries(keys.map((k) => [k, r[k] ?? null])) : null);

/**
 * Writes what changed between version − 1 and version to `out`, one line per
 * decision (a reviewer's on a row): 'added', 'removed' or 'changed' (its
 * decision, comment or mitigation), read through a cursor in one transaction
 * (a hash join over both versions, then batches), counted into `counts`.
 */
export async function writeChanges(prisma: PrismaClient, periodId: string, version: number, counts: ChangeCounts, out: Writable): Promise<void> {
  const differs = Prisma.join(
    DECIDED_FIELDS.map((f) => Prisma.sql`a.record->${f} IS DISTINCT FROM b.record->${f}`),
    ' OR ',
  );
  await prisma.$transaction(
    async (tx) => {
      await tx.$executeRaw`DECLARE bundle_changes NO SCROLL CURSOR FOR
        SELECT a.record AS before, b.record AS after
          FROM (SELECT record FROM period_evidence_decisions WHERE period_id = ${periodId}::uuid AND version = ${version - 1}::int) a
          FULL JOIN (SELECT record FROM period_evidence_decisions WHERE period_id = ${periodId}::uuid AND version = ${version}::int) b
            ON a.record->>'riskRowId' = b.record->>'riskRowId' AND a.record->>'reviewerId' = b.record->>'reviewerId'
         WHERE a.record IS NULL OR b.record IS NULL OR ${differs}
         ORDER BY coalesce(b.record->>'userId', a.record->>'userId'), coalesce(b.record->>'accessRiskId', a.record->>'accessRiskId'),
                  coalesce(b.record->>'riskRowId', a.record->>'riskRowId'), coalesce(b.record->>'reviewerId', a.record->>'reviewerId')`;
      for (;;) {
        const rows = await tx.$queryRawUnsafe<{ before: Record<string, unknown> | null; after: Record<string, unknown> | null }[]>(
          `FETCH ${BATCH} FROM bundle_changes`,
        );
        if (!rows.length) return;
        const text = rows
          .map((r) => {
            const change = !r.before ? 'added' : !r.after ? 'removed' : 'changed';
            if (change === 'added') counts.decisionsAdded++;
            else if (change === 'removed') counts.decisionsRemoved++;
            else counts.decisionsChanged++;
            return (
              JSON.stringify({
                change,
                ...pick(r.after ?? r.before, ROW_FIELDS),
                before: pick(r.before, DECIDED_FIELDS),
                after: pick(r.after, DECIDED_FIELDS),
              }) + '\n'
            );
          })
          .join('');
        if (!out.write(text)) await once(out, 'drain');
      }
    },
    { timeout: 600_000, maxWait: 30_000 },
  );
  out.end();
  await finished(out);
}
