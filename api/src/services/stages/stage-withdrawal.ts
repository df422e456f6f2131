// What reopening a stage-1 set does to the later stages of a multi-stage
// period. A later stage's decision confirms or overturns the stage-1
// decision it saw: once that decision may change, the sign-off resting on
// it no longer stands. So:
// - the stage-1 reviewer's recall is refused once a later stage has decided
//   any row of their set (submitted or not): a reviewer cannot take back a
//   decision another reviewer has already signed off on; the later stage
//   can overturn it, or an administrator can return the set;
// - an administrator's return of the set withdraws every later stage's
//   decision on its rows (stages 2 and 3: each rests on the one before),
//   each withdrawal audited ('stage_decision.withdrawn', with the decision
//   it was and why). When the set is submitted again, the rows reach the
//   later stages again and their reviewers decide them anew, even after
//   they submitted their stage (stage-reviews.ts).
// A one-stage period has no later stage: none of this is read for it.
import type { Submission, User } from '../../generated/prisma/client.js';
import { ConflictError } from '../../core/errors.js';
import { recordAudit } from '../../core/audit.js';
import { personLabel } from '../../core/people.js';
import type { Actor, DbClient } from '../../core/types.js';
import { isMultiStage, stagesOf } from './stages.js';

/** The later stages' decisions on the rows of a stage-1 submission, by stage (stages with none left out). */
async function laterDecisionCounts(tx: DbClient, s: Pick<Submission, 'id' | 'periodId'>): Promise<{ stage: number; n: number }[]> {
  const rows = await tx.$queryRaw<{ stage: number; n: bigint }[]>`
    SELECT sd.stage::int AS stage, count(DISTINCT sd.risk_row_id) AS n
      FROM stage_decisions sd JOIN decisions d ON d.period_id = sd.period_id AND d.risk_row_id = sd.risk_row_id
     WHERE d.submission_id = ${s.id}::uuid AND sd.period_id = ${s.periodId}::uuid AND sd.stage > 1
     GROUP BY sd.stage ORDER BY sd.stage`;
  return rows.map((r) => ({ stage: r.stage, n: Number(r.n) }));
}

/** The first later stage that has decided any row of the stage-1 submission `s`, with how many (null: none, or a one-stage period). */
async function firstLaterDecision(tx: DbClient, s: Pick<Submission, 'id' | 'periodId'>) {
  const period = await tx.reviewPeriod.findUnique({ where: { id: s.periodId } });
  if (!period || !isMultiStage(period)) return null;
  const [first] = await laterDecisionCounts(tx, s);
  return first ? { stage: stagesOf(period)[first.stage - 1]!, n: first.n } : null;
}

/**
 * Whether the stage-1 reviewer may still recall the submitted set `s`: the
 * same rule refuseRecallAfterLaterStage enforces, read for their screen so
 * it offers 'Recall for Editing' only while the recall would be accepted.
 */
export async function mayRecall(db: DbClient, s: Pick<Submission, 'id' | 'periodId'>): Promise<boolean> {
  return (await firstLaterDecision(db, s)) === null;
}

/** Refuses the stage-1 reviewer's recall of `s` once a later stage has decided any of its rows, naming the stage. */
export async function refuseRecallAfterLaterStage(tx: DbClient, s: Pick<Submission, 'id' | 'periodId'>): Promise<void> {
  const first = await firstLaterDecision(tx, s);
  if (!first) return;
  const { stage } = first;
  throw new ConflictError(
    `Stage ${stage.number} ('${stage.name}') has already decided ${first.n} of these row${first.n === 1 ? '' : 's'}: ` +
      'your submitted decisions can no longer be recalled. Its reviewers can overturn them, or an administrator can return them to you.',
  );
}

/**
 * Withdraws every later stage's decision on the rows of the stage-1
 * submission `s`, returned to its reviewer (in the return's transaction),
 * each audited with the decision it was; how many were withdrawn.
 */
export async function withdrawLaterStages(tx: DbClient, actor: Actor, s: Pick<Submission, 'id' | 'periodId'>, reviewer: User): Promise<number> {
  const period = await tx.reviewPeriod.findUnique({ where: { id: s.periodId } });
  if (!period || !isMultiStage(period)) return 0;
  const gone = await tx.$queryRaw<
    { risk_row_id: bigint; stage: number; reviewer_id: string; decision: string; comments: string | null; mitigation_control: string | null }[]
  >`
    DELETE FROM stage_decisions sd USING decisions d
     WHERE d.submission_id = ${s.id}::uuid AND d.period_id = sd.period_id AND d.risk_row_id = sd.risk_row_id
       AND sd.period_id = ${s.periodId}::uuid AND sd.stage > 1
    RETURNING sd.risk_row_id, sd.stage, sd.reviewer_id::text AS reviewer_id, sd.decision::text AS decision, sd.comments, sd.mitigation_control`;
  const reason = `The stage-1 decisions of ${personLabel(reviewer)} on this row were returned to them: the later stages decide it again once they are submitted again`;
  for (const d of gone) {
    await recordAudit(tx, actor, {
      action: 'stage_decision.withdrawn',
      entityType: 'RiskRow',
      entityId: String(d.risk_row_id),
      periodId: s.periodId,
      before: { stage: d.stage, reviewerId: d.reviewer_id, decision: d.decision, comments: d.comments, mitigationControl: d.mitigation_control },
      after: { stage: d.stage, withdrawn: true, reason, submissionId: s.id },
    });
  }
  return gone.length;
}
