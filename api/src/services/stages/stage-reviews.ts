// A later stage's review (stages 2 and 3 of a multi-stage period): the rows
// that reached the reviewer's stage, with the earlier stages' decisions
// beside them; their decisions, each confirming or overturning the stage
// before's (an overturn needs a comment); and their submit, which sends
// their decisions on to the next stage at once. The stage-1 calls
// (services/review/decisions.ts, risks.ts) come here for a reviewer whose
// stage is a later one: a one-stage period never does.
import { Prisma, type ReviewPeriod, type User } from '../../generated/prisma/client.js';
import { ConflictError, NotFoundError, ValidationError } from '../../core/errors.js';
import { recordAudit } from '../../core/audit.js';
import { isUuid, type Actor, type DbClient } from '../../core/types.js';
import type { Caller } from '../caller.js';
import { fromRaw, type RiskRowRaw } from '../visibility.js';
import { RECOMMENDATION_COLUMNS, recommendationJoins } from '../review/recommendations.js';
import { refuseSelfReview } from '../review/coverage.js';
import { isMultiStage, passedOnDecisions, previousDecisionsOf, stageOfUser, stageRowsCondition, stagesOf, stagesProgress, type PeriodStage } from './stages.js';
import { writeStageDecisions, type StageDecisionInput } from './stage-decision-writer.js';

/** The stage the viewer works at in the period (1 for a one-stage period, without a query), read once per request. */
export async function viewerStage(caller: Caller, period: ReviewPeriod | null): Promise<PeriodStage> {
  if (!period || !isMultiStage(period)) return stagesOf(period ?? { stages: null })[0]!;
  const n = await caller.viewer
    .loader<string, number>(
      `stage:${period.id}`,
      async (keys) => {
        const latest = await caller.deps.prisma.submission.findFirst({
          where: { periodId: period.id, reviewerId: caller.viewer.user.id },
          orderBy: [{ submittedAt: 'desc' }, { id: 'desc' }],
        });
        const s = await stageOfUser(caller.deps.prisma, period, caller.viewer.user, latest?.status === 'submitted' || latest?.status === 'approved');
        return keys.map(() => s.number);
      },
      (k) => k,
    )
    .load('me');
  return stagesOf(period)[n - 1]!;
}

/** The viewer's own decision at the stage on row r, as alias d (the queue's filter reads d.decision). */
function ownStageDecisionJoin(period: ReviewPeriod, stage: PeriodStage, user: User): Prisma.Sql {
  return Prisma.sql`LEFT JOIN stage_decisions d ON d.period_id = ${period.id}::uuid AND d.stage = ${stage.number}::int
                      AND d.reviewer_id = ${user.id}::uuid AND d.risk_row_id = r.id`;
}

/**
 * The later stage's rows of the viewer matching `where` (the queue's filter,
 * services/review/risks.ts; its decision alias d is their decision at this
 * stage), paged by number, each with its stage and the earlier stages' decisions.
 */
export async function listStageRisks(
  caller: Caller,
  period: ReviewPeriod,
  stage: PeriodStage,
  where: Prisma.Sql,
  { limit, offset, page }: { limit: number; offset: number; page: number },
) {
  const { prisma } = caller.deps;
  const user = caller.viewer.user;
  const who = { periodId: period.id, viewerId: user.id };
  const rows = await stageRowsCondition(prisma, period.id, stage, user);
  const join = ownStageDecisionJoin(period, stage, user);
  const [count] = await prisma.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM risk_rows r ${join} WHERE ${rows} AND ${where}`;
  const raw = await prisma.$queryRaw<RiskRowRaw[]>`
    SELECT r.*, d.decision::text AS decision, d.comments AS decision_comments, d.updated_at AS decided_at,
           d.mitigation_control AS decision_mitigation_control, d.mitigation_expires_at AS decision_mitigation_expires_at,
           ${RECOMMENDATION_COLUMNS}
      FROM risk_rows r ${join} ${recommendationJoins(who)}
     WHERE ${rows} AND ${where}
     ORDER BY r.id LIMIT ${limit} OFFSET ${offset}`;
  const previous = await previousDecisionsOf(
    prisma,
    period.id,
    stage.number,
    raw.map((r) => BigInt(r.id)),
  );
  const risks = raw.map((r) => ({ ...fromRaw(r), stage: stage.number, previousDecisions: previous.get(BigInt(r.id)) ?? [] }));
  return { risks, total: Number(count?.n ?? 0), page, limit };
}

/** The summary tiles of the viewer's later-stage rows. */
export async function stageSummary(caller: Caller, period: ReviewPeriod, stage: PeriodStage) {
  const { prisma } = caller.deps;
  const user = caller.viewer.user;
  const rows = await stageRowsCondition(prisma, period.id, stage, user);
  const [c] = await prisma.$queryRaw<{ total: bigint; high: bigint; reviewed: bigint }[]>`
    SELECT count(*) AS total, count(*) FILTER (WHERE r.risk_level IN ('high', 'medium')) AS high,
           count(*) FILTER (WHERE EXISTS (SELECT 1 FROM stage_decisions d WHERE d.period_id = ${period.id}::uuid AND d.stage = ${stage.number}::int
                                          AND d.reviewer_id = ${user.id}::uuid AND d.risk_row_id = r.id)) AS reviewed
      FROM risk_rows r WHERE ${rows}`;
  const total = Number(c?.total ?? 0);
  const reviewed = Number(c?.reviewed ?? 0);
  return { totalAssigned: total, highRisk: Number(c?.high ?? 0), pendingReview: total - reviewed, reviewed };
}

/** Whether the reviewer has submitted this stage (their decisions at it are then locked). */
async function stageSubmission(tx: DbClient, periodId: string, stage: number, reviewerId: string) {
  return tx.stageSubmission.findUnique({ where: { periodId_stage_reviewerId: { periodId, stage, reviewerId } } });
}

/**
 * The viewer's own set at a later stage, as My Assigned Risks shows it: their
 * decisions at the stage and whether they submitted it. A submitted stage is
 * final for that stage (no recall, no approval of its own), so it has no
 * comments and no other status.
 */
export async function stageSubmissionState(caller: Caller, period: ReviewPeriod, stage: PeriodStage) {
  const { prisma } = caller.deps;
  const reviewerId = caller.viewer.user.id;
  const [total, submitted] = await Promise.all([
    prisma.stageDecision.count({ where: { periodId: period.id, stage: stage.number, reviewerId } }),
    stageSubmission(prisma, period.id, stage.number, reviewerId),
  ]);
  return {
    isSubmitted: submitted !== null,
    hasDecisions: total > 0,
    totalDecisions: total,
    submittedAt: submitted?.submittedAt ?? null,
    status: submitted ? ('submitted' as const) : null,
    reviewComment: null,
    itemComments: [],
    periodActive: true,
  };
}

export const LATER_STAGE_ROW_NEEDED = 'At a later stage each decision names its row (riskDefinitionId)';

/**
 * A later stage's reviewer's decisions (parsed as stage 1's are), in their
 * transaction: on rows that reached their stage and are theirs there; an
 * overturn (a decision other than the one the stage before passed on)
 * needs a comment. Once they submitted the stage their decisions are
 * final; a row that reached them since without their decision (its
 * stage-1 set returned and submitted again, stage-withdrawal.ts) is still
 * theirs to decide, and that decision is final and passes on as made.
 */
export async function saveStageDecisions(
  tx: DbClient,
  actor: Actor & { user: User },
  period: ReviewPeriod,
  stage: PeriodStage,
  items: (Omit<StageDecisionInput, 'riskRowId'> & { riskRowId: bigint | null })[],
): Promise<number> {
  const user = actor.user;
  const byRow = new Map<string, StageDecisionInput>();
  for (const i of items) {
    if (i.riskRowId === null) throw new ValidationError(LATER_STAGE_ROW_NEEDED, 'riskDefinitionId');
    byRow.set(String(i.riskRowId), { ...i, riskRowId: i.riskRowId });
  }
  const ids = [...byRow.values()].map((i) => i.riskRowId);
  await refuseFinalDecisions(tx, period, stage, user, ids);
  const rows = await stageRowsCondition(tx, period.id, stage, user);
  const found = new Set(
    (await tx.$queryRaw<{ id: bigint }[]>`SELECT r.id FROM risk_rows r WHERE r.id = ANY(${ids}::bigint[]) AND ${rows}`).map((r) => String(r.id)),
  );
  const passed = await passedOnDecisions(tx, period.id, stage, ids);
  for (const [id, item] of byRow) {
    if (!found.has(id)) throw new NotFoundError(`Risk ${id} was not found`);
    const before = passed.get(id) ?? [];
    if (before.some((d) => d !== item.decision) && !item.comments?.trim()) {
      throw new ValidationError(
        `Risk ${id}: overturning stage ${stage.number - 1}'s decision (${[...new Set(before)].join(', ')}) needs a comment (comments)`,
        'comments',
      );
    }
  }
  return writeStageDecisions(tx, actor, { periodId: period.id, stage: stage.number, reviewerId: user.id, origin: 'user', items: [...byRow.values()] });
}

/** Once the reviewer submitted the stage, a decision they made at it is final: changing one of these rows' is refused. */
async function refuseFinalDecisions(tx: DbClient, period: ReviewPeriod, stage: PeriodStage, user: User, ids: bigint[]): Promise<void> {
  if (!(await stageSubmission(tx, period.id, stage.number, user.id))) return;
  if (await tx.stageDecision.count({ where: { periodId: period.id, stage: stage.number, reviewerId: user.id, riskRowId: { in: ids } } })) {
    throw new ConflictError(`Your decisions of stage ${stage.number} ('${stage.name}') are submitted and final for that stage`);
  }
}

/** One decision (and comment, mitigation) for every matching row. */
export type StageDecisionForAll = Omit<StageDecisionInput, 'riskRowId'>;

/**
 * 'Decide all N matching' at a later stage (services/review/bulk-decisions.ts
 * for a reviewer past stage 1): the decision on every row of the viewer's
 * stage matching `where` (the queue's filter, alias d their decision at the
 * stage), each confirming or overturning the stage before's as one row's
 * would: when it overturns any of them it needs a comment; rows of their
 * own access are refused; decisions final since they submitted the stage
 * are not changed. Written by the one writer of stage decisions, each row
 * audited as bulk; how many rows, and how many of them it overturned.
 */
export async function decideStageByFilter(
  tx: DbClient,
  actor: Actor & { user: User },
  period: ReviewPeriod,
  stage: PeriodStage,
  where: Prisma.Sql,
  input: StageDecisionForAll,
): Promise<{ count: number; overturned: number }> {
  const user = actor.user;
  const matching = Prisma.sql`${await stageRowsCondition(tx, period.id, stage, user)} AND ${where}`;
  const join = ownStageDecisionJoin(period, stage, user);
  await refuseSelfReview(tx, user, { rows: matching, join });
  const ids = (await tx.$queryRaw<{ id: bigint }[]>`SELECT r.id FROM risk_rows r ${join} WHERE ${matching} ORDER BY r.id`).map((r) => BigInt(r.id));
  if (!ids.length) return { count: 0, overturned: 0 };
  await refuseFinalDecisions(tx, period, stage, user, ids);
  const passed = await passedOnDecisions(tx, period.id, stage, ids);
  const overturned = ids.filter((id) => (passed.get(String(id)) ?? []).some((d) => d !== input.decision)).length;
  if (overturned && !input.comments?.trim()) {
    throw new ValidationError(
      `Deciding all ${ids.length} matching rows as '${input.decision}' overturns stage ${stage.number - 1}'s decision on ${overturned} of them: an overturn needs a comment (comments)`,
      'comments',
    );
  }
  const items = ids.map((riskRowId) => ({ ...input, riskRowId }));
  const count = await writeStageDecisions(tx, actor, { periodId: period.id, stage: stage.number, reviewerId: user.id, origin: 'by-filter', items });
  return { count, overturned };
}

/** A later stage's reviewer submits their stage: their decisions reach the next stage at once; audited. */
export async function submitStage(tx: DbClient, actor: Actor & { user: User }, period: ReviewPeriod, stage: PeriodStage) {
  const user = actor.user;
  if (await stageSubmission(tx, period.id, stage.number, user.id)) {
    throw new ConflictError(`Your decisions of stage ${stage.number} ('${stage.name}') are already submitted`);
  }
  const count = await tx.stageDecision.count({ where: { periodId: period.id, stage: stage.number, reviewerId: user.id } });
  if (!count) throw new ValidationError('There are no decisions to submit');
  const s = await tx.stageSubmission.create({ data: { periodId: period.id, stage: stage.number, reviewerId: user.id, decisionCount: count } });
  await recordAudit(tx, actor, {
    action: 'submission.submitted',
    entityType: 'StageSubmission',
    entityId: s.id,
    periodId: period.id,
    after: { status: 'submitted', stage: stage.number, stageName: stage.name, decisionCount: count },
  });
  return { count, submission: { id: s.id, periodId: period.id, reviewerId: user.id, status: 'submitted' as const } };
}

/** A period's stages with each one's progress (Reviewer Status per stage); the period must exist. */
export async function periodStages(caller: Caller, periodId: string) {
  const { prisma } = caller.deps;
  const period = isUuid(periodId) ? await prisma.reviewPeriod.findUnique({ where: { id: periodId } }) : null;
  if (!period) throw new NotFoundError('Review period not found');
  return stagesProgress(prisma, period);
}
