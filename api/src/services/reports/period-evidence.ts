// A review period's evidence as an administrator downloads it (GraphQL
// periodEvidence, GET /api/reports/evidence): the latest frozen version of a closed
// period (frozen at this first download, with its bundle, for a period closed before freezing
// existed), or the evidence of an active period built live as of the request;
// the decisions and the audit trail read in batches. What is frozen and how is
// services/reports/evidence.ts, which the close of a period (review/periods.ts)
// also uses.
import { NotFoundError } from '../../core/errors.js';
import { isUuid } from '../../core/types.js';
import type { Caller } from '../caller.js';
import { buildScope, evidenceUploads, freezeEvidence, periodAuditCondition, type EvidenceScope } from './evidence.js';
import { liveDecisionRecords } from './decision-records.js';
import { holdersOf } from '../holds.js';
import { queueBundle } from '../evidence/evidence-bundle.js';
import { reconcile, type Reconciliation } from '../evidence/reconciliation.js';

export interface Evidence {
  scope: EvidenceScope;
  /** The final decisions, in order, in batches (flat memory). */
  decisions(): AsyncGenerator<Record<string, unknown>[]>;
  /** The period's audit trail, up to the close for a closed period, in batches. */
  audit(): AsyncGenerator<Record<string, unknown>[]>;
}

const BATCH = 5000;

/** A period's evidence: frozen for a closed period (frozen now if it never was), built live for an active one. */
export async function periodEvidence(caller: Caller, periodId: string): Promise<Evidence> {
  const { prisma, storage } = caller.deps;
  if (!isUuid(periodId)) throw new NotFoundError('Review period not found');
  const period = await prisma.reviewPeriod.findUnique({ where: { id: periodId } });
  if (!period) throw new NotFoundError('Review period not found');
  let scope: EvidenceScope;
  let decisions: () => AsyncGenerator<Record<string, unknown>[]>;
  if (period.status === 'closed') {
    const latest = () => prisma.periodEvidence.findFirst({ where: { periodId }, orderBy: { version: 'desc' } });
    let frozen = await latest();
    if (!frozen) {
      const ups = await evidenceUploads(prisma, period, period.closedAt ?? new Date(), storage);
      await prisma.$transaction(async (tx) => {
        // One freeze, whoever comes first: the period's row locked.
        await tx.$queryRaw`SELECT id FROM review_periods WHERE id = ${periodId}::uuid FOR UPDATE`;
        if (!(await tx.periodEvidence.findFirst({ where: { periodId } })))
          await queueBundle(tx, caller.deps.jobs, periodId, await freezeEvidence(tx, period, ups));
      });
      frozen = (await latest())!;
    }
    scope = frozen.scope as unknown as EvidenceScope;
    const version = frozen.version;
    decisions = async function* () {
      for (let after = 0; ;) {
        const rows = await prisma.periodEvidenceDecision.findMany({ where: { periodId, version, seq: { gt: after } }, orderBy: { seq: 'asc' }, take: BATCH });
        if (!rows.length) return;
        yield rows.map((r) => r.record as Record<string, unknown>);
        after = rows[rows.length - 1]!.seq;
      }
    };
  } else {
    const now = new Date();
    scope = await buildScope(prisma, period, now, false, await evidenceUploads(prisma, period, now, storage));
    const holders = await holdersOf(prisma, null);
    decisions = () => liveDecisionRecords(prisma, periodId, holders, BATCH);
  }
  const condition = periodAuditCondition(periodId, period.startDate, scope.lastAuditId);
  const audit = async function* () {
    for (let after = 0n; ;) {
      const rows = await prisma.$queryRaw<
        {
          id: bigint;
          occurred_at: Date;
          actor_label: string;
          action: string;
          entity_type: string;
          entity_id: string | null;
          before: unknown;
          after: unknown;
          ip: string | null;
        }[]
      >`
        SELECT e.id, e.occurred_at, e.actor_label, e.action, e.entity_type, e.entity_id, e.before, e.after, e.ip FROM audit_events e
         WHERE e.id > ${after} AND ${condition}
         ORDER BY e.id LIMIT ${BATCH}`;
      if (!rows.length) return;
      yield rows.map((e) => ({
        id: String(e.id),
        occurredAt: new Date(e.occurred_at).toISOString(),
        actor: e.actor_label,
        action: e.action,
        entityType: e.entity_type,
        entityId: e.entity_id,
        before: e.before == null ? null : JSON.stringify(e.before),
        after: e.after == null ? null : JSON.stringify(e.after),
        ip: e.ip,
      }));
      after = BigInt(rows[rows.length - 1]!.id);
    }
  };
  return { scope, decisions, audit };
}

/** A period's reconciliation: frozen with its latest version when closed, else as of now (what closing now would freeze). */
export async function periodReconciliation(caller: Caller, periodId: string): Promise<Reconciliation & { frozen: boolean }> {
  const { prisma, storage } = caller.deps;
  const period = isUuid(periodId) ? await prisma.reviewPeriod.findUnique({ where: { id: periodId } }) : null;
  if (!period) throw new NotFoundError('Review period not found');
  if (period.status === 'closed') {
    const frozen = await prisma.periodEvidence.findFirst({ where: { periodId }, orderBy: { version: 'desc' } });
    const recon = (frozen?.scope as unknown as EvidenceScope | undefined)?.reconciliation;
    if (recon) return { ...recon, frozen: true };
  }
  return { ...(await reconcile(prisma, period, await evidenceUploads(prisma, period, new Date(), storage))), frozen: false };
}
