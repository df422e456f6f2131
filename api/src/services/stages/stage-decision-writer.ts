// The one writer of the decisions of stages 2 and 3 (stage_decisions; stage
// 1's are services/review/decision-writer.ts'): a later stage's reviewer's
// decisions on rows that reached their stage, replacing their own decision
// on the row, each changed row audited ('stage_decision.changed', with its
// origin: one row or a batch, or by filter). A
// mitigation without a typed control takes the row's Control column, as at
// stage 1; with neither it is refused before anything is written.
import { Prisma } from '../../generated/prisma/client.js';
import { ValidationError } from '../../core/errors.js';
import { recordAudit } from '../../core/audit.js';
import type { Actor, DbClient } from '../../core/types.js';
import { MITIGATED } from '../risk-rules.js';
import { MITIGATION_CONTROL_REQUIRED } from '../review/decision-writer.js';

export interface StageDecisionInput {
  riskRowId: bigint;
  decision: string;
  comments: string | null;
  mitigationControl: string | null;
  mitigationExpiresAt: Date | null;
}

export interface StageDecisionWrite {
  periodId: string;
  stage: number;
  reviewerId: string;
  /** A decision on named rows, or 'Decide all N matching' (each row's event marked bulk, as stage 1's by-filter decisions are). */
  origin: 'user' | 'by-filter';
  items: StageDecisionInput[];
}

/** Writes a later stage's decisions in the caller's transaction; returns how many rows they covered. */
export async function writeStageDecisions(tx: DbClient, actor: Actor, w: StageDecisionWrite): Promise<number> {
  if (!w.items.length) return 0;
  const ids = w.items.map((i) => i.riskRowId);
  const input = Prisma.sql`
    SELECT t.risk_row_id, t.decision, t.comments,
           CASE WHEN t.decision = ${MITIGATED} THEN coalesce(nullif(t.mc, ''), nullif(r.mitigation_control, '')) END AS mc,
           CASE WHEN t.decision = ${MITIGATED} THEN t.mexp END AS mexp
      FROM unnest(${ids}::bigint[], ${w.items.map((i) => i.decision)}::text[], ${w.items.map((i) => i.comments)}::text[],
                  ${w.items.map((i) => i.mitigationControl)}::text[], ${w.items.map((i) => i.mitigationExpiresAt)}::date[])
           AS t(risk_row_id, decision, comments, mc, mexp)
      JOIN risk_rows r ON r.id = t.risk_row_id`;
  const [missing] = await tx.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM (${input}) i WHERE i.decision = ${MITIGATED} AND i.mc IS NULL`;
  if (Number(missing?.n ?? 0) > 0) throw new ValidationError(MITIGATION_CONTROL_REQUIRED, 'mitigationControl');
  const before = new Map(
    (
      await tx.stageDecision.findMany({
        where: { periodId: w.periodId, stage: w.stage, reviewerId: w.reviewerId, riskRowId: { in: ids } },
      })
    ).map((d) => [String(d.riskRowId), d]),
  );
  const written = await tx.$queryRaw<
    { risk_row_id: bigint; decision: string; comments: string | null; mitigation_control: string | null; mitigation_expires_at: Date | null }[]
  >`
    INSERT INTO stage_decisions (period_id, stage, reviewer_id, risk_row_id, decision, comments, mitigation_control, mitigation_expires_at, created_at, updated_at)
    SELECT ${w.periodId}::uuid, ${w.stage}::int, ${w.reviewerId}::uuid, i.risk_row_id, i.decision::"DecisionValue", i.comments, i.mc, i.mexp, now(), now()
      FROM (${input}) i
    ON CONFLICT (period_id, stage, reviewer_id, risk_row_id) DO UPDATE
       SET decision = EXCLUDED.decision, comments = EXCLUDED.comments, mitigation_control = EXCLUDED.mitigation_control,
           mitigation_expires_at = EXCLUDED.mitigation_expires_at, updated_at = now()
    RETURNING risk_row_id, decision::text AS decision, comments, mitigation_control, mitigation_expires_at`;
  for (const d of written) {
    const prev = before.get(String(d.risk_row_id));
    const after = {
      stage: w.stage,
      decision: d.decision,
      comments: d.comments,
      mitigationControl: d.mitigation_control,
      mitigationExpiresAt: d.mitigation_expires_at,
      origin: w.origin,
      ...(w.origin === 'by-filter' ? { bulk: true } : {}),
    };
    if (prev && prev.decision === d.decision && prev.comments === d.comments && prev.mitigationControl === d.mitigation_control) continue;
    await recordAudit(tx, actor, {
      action: 'stage_decision.changed',
      entityType: 'RiskRow',
      entityId: String(d.risk_row_id),
      periodId: w.periodId,
      before: prev ? { stage: w.stage, decision: prev.decision, comments: prev.comments, mitigationControl: prev.mitigationControl } : null,
      after,
    });
  }
  return written.length;
}
