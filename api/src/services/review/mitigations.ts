// Mitigations across time. A decision
// 'retain_mitigated' keeps a risk under a named control until an expiry
// date. Decisions belong to one period and a new period starts with none, so:
// - when a new period is created, each mitigation of the period before it
//   that is still valid on the new period's start date is carried into the
//   new period (same reviewer, row, control, expiry and comment; not
//   submitted); an expired one is not, so its row is pending again;
// - administrators see the mitigations of the decision period (the active
//   one, else the one closed last) whose expiry date has passed.
import { Prisma, type ReviewPeriod } from '../../generated/prisma/client.js';
import type { Actor, DbClient } from '../../core/types.js';
import type { Caller } from '../caller.js';
import { LIVE_ROWS } from '../visibility.js';
import { MITIGATED } from '../risk-rules.js';
import { writeDecisions } from './decision-writer.js';

export const MAX_EXPIRED_LISTED = 500;

export interface ExpiredMitigation {
  riskRowId: bigint;
  userId: string;
  userName: string;
  accessRiskId: string;
  roleProfile: string;
  compositeBusinessRole: string;
  system: string;
  mitigationControl: string | null;
  mitigationExpiresAt: Date;
  comments: string | null;
  reviewer: string;
  periodId: string;
  periodName: string;
}

/**
 * Mitigations of the caller's decision period (the active one, else the one
 * closed last: viewer.decisionPeriod) whose expiry date is before `today`
 * (UTC date), soonest expired first.
 */
export async function expiredMitigations(caller: Caller, today: Date = new Date()): Promise<{ total: number; items: ExpiredMitigation[] }> {
  const db = caller.deps.prisma;
  const period = await caller.viewer.decisionPeriod();
  if (!period) return { total: 0, items: [] };
  const day = today.toISOString().slice(0, 10);
  const where = Prisma.sql`d.period_id = ${period.id}::uuid AND d.decision = ${MITIGATED}::"DecisionValue" AND d.mitigation_expires_at < ${day}::date`;
  const [count] = await db.$queryRaw<
    { n: bigint }[]
  >`SELECT count(*) AS n FROM decisions d JOIN risk_rows r ON r.id = d.risk_row_id WHERE ${where} AND ${LIVE_ROWS}`;
  const rows = await db.$queryRaw<Omit<ExpiredMitigation, 'periodId' | 'periodName'>[]>`
    SELECT r.id AS "riskRowId", r.user_id AS "userId", r.user_name AS "userName", r.access_risk_id AS "accessRiskId",
           r.role_profile AS "roleProfile", r.composite_business_role AS "compositeBusinessRole", r.system,
           d.mitigation_control AS "mitigationControl", d.mitigation_expires_at AS "mitigationExpiresAt", d.comments, u.email AS reviewer
      FROM decisions d JOIN risk_rows r ON r.id = d.risk_row_id JOIN users u ON u.id = d.reviewer_id
     WHERE ${where} AND ${LIVE_ROWS}
     ORDER BY d.mitigation_expires_at, r.user_id, r.id, u.email
     LIMIT ${MAX_EXPIRED_LISTED}`;
  return { total: Number(count?.n ?? 0), items: rows.map((r) => ({ ...r, periodId: period.id, periodName: period.name })) };
}

/**
 * In the transaction that creates `period`: carries the still-valid
 * mitigations of the period created before it (see the file's comment).
 * Returns how many; audited as one event.
 */
export async function carryMitigations(tx: DbClient, actor: Actor, period: ReviewPeriod): Promise<number> {
  const previous = await tx.reviewPeriod.findFirst({
    where: { id: { not: period.id }, createdAt: { lte: period.createdAt } },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
  });
  if (!previous) return 0;
  const start = period.startDate.toISOString().slice(0, 10);
  return writeDecisions(tx, actor, {
    origin: 'mitigation-carried',
    period: period.id,
    rows: Prisma.sql`
      SELECT ${period.id}::uuid AS period_id, d.reviewer_id, d.risk_row_id, d.decision, d.via_composite_role AS via, d.comments,
             d.mitigation_control AS mc, d.mitigation_expires_at AS mexp
        FROM decisions d JOIN risk_rows r ON r.id = d.risk_row_id
       WHERE d.period_id = ${previous.id}::uuid AND d.decision = ${MITIGATED}::"DecisionValue"
         AND d.mitigation_expires_at >= ${start}::date AND ${LIVE_ROWS}`,
    summary: ([count]) =>
      count
        ? {
            action: 'decisions.mitigations_carried',
            entityType: 'ReviewPeriod',
            entityId: period.id,
            periodId: period.id,
            after: { fromPeriodId: previous.id, count },
          }
        : null,
  });
}
