// The stages of a review period as they run. Stage 1 is the review every
// period has (reviewers by assignment criteria, their decisions and
// submissions: services/review/decisions.ts); stages 2 and 3 take the rows
// whose decision at the stage before matches their passOn, as soon as that
// stage's reviewer submits, and their reviewers confirm or overturn them
// (services/stages/stage-reviews.ts). A period stored without stages has the
// one stage it always had, and none of this is read for it.
import { Prisma, type ReviewPeriod, type User } from '../../generated/prisma/client.js';
import { ConflictError, ValidationError } from '../../core/errors.js';
import { personLabel } from '../../core/people.js';
import { isUuid, type DbClient } from '../../core/types.js';
import { HOLDS_WORK, activeFallbackIds, assignedRowsCondition, criteriaSetsFor } from '../holds.js';
import { LIVE_ROWS } from '../live-rows.js';
import { readReviewSettings } from '../review/coverage.js';
import { DEFAULT_STAGES, type StagePassOn, type StagePlan } from './stage-plan.js';

/** A stage as a period keeps it: the plan with its number (1 to 3). */
export interface PeriodStage extends StagePlan {
  number: number;
}

/** The stages as stored on a period (JSON), end dates as ISO text. */
type StoredStage = Omit<StagePlan, 'endDate'> & { endDate: string | null };

/** A period's stages: the stored plan, or the one stage a period created without stages has. */
export function stagesOf(period: Pick<ReviewPeriod, 'stages'>): PeriodStage[] {
  const stored = period.stages as StoredStage[] | null;
  const plan: StagePlan[] = stored?.length ? stored.map((s) => ({ ...s, endDate: s.endDate ? new Date(s.endDate) : null })) : DEFAULT_STAGES;
  return plan.map((s, i) => ({ ...s, number: i + 1 }));
}

/** Whether the period has stages after the first (the only case in which any of this is read). */
export const isMultiStage = (period: Pick<ReviewPeriod, 'stages'>): boolean => Array.isArray(period.stages) && period.stages.length > 1;

/**
 * A period's stages checked before it is created, each refusal naming the
 * stage: stage 1 is reviewed by the assignment criteria (its decisions are
 * today's); a `users` stage names active users who exist; a `processOwner`
 * stage needs owners set in the review settings. passOn of stage 1 is
 * ignored (nothing comes before it). Returns the plan as the period stores
 * it, or null for the default single stage.
 */
export async function checkedStages(db: DbClient, stages: StagePlan[] | null | undefined, periodEnd: Date | null): Promise<Prisma.InputJsonValue | null> {
  if (!stages?.length) return null;
  const out: StoredStage[] = [];
  for (const [i, s] of stages.entries()) out.push(await checkedStage(db, s, i, periodEnd));
  const only = out[0]!;
  return out.length === 1 && only.reviewers.type === 'criteria' && !only.endDate && only.name === DEFAULT_STAGES[0]!.name
    ? null
    : (out as unknown as Prisma.InputJsonValue);
}

/** One stage of checkedStages (the `i`th, from 0), as the period stores it. */
async function checkedStage(db: DbClient, s: StagePlan, i: number, periodEnd: Date | null): Promise<StoredStage> {
  const named = `Stage ${i + 1} ('${s.name}')`;
  if (i === 0 && s.reviewers.type !== 'criteria') {
    throw new ValidationError(`${named} is reviewed by the assignment criteria: a list of users or the process owners can review stages 2 and 3`, 'stages');
  }
  let reviewers = s.reviewers;
  if (reviewers.type === 'users') {
    const ids = [...new Set(reviewers.userIds)];
    if (!ids.length) throw new ValidationError(`${named} has no reviewers: name at least one user`, 'stages');
    const users = await db.user.findMany({ where: { id: { in: ids.filter(isUuid) } } });
    for (const id of ids) {
      const u = users.find((x) => x.id === id);
      if (!u) throw new ValidationError(`${named}: reviewer '${id}' is not a user`, 'stages');
      if (!u.isActive) throw new ValidationError(`${named}: reviewer ${personLabel(u)} is deactivated`, 'stages');
      if (u.role !== 'reviewer') throw new ValidationError(`${named}: ${personLabel(u)} is not a reviewer: only reviewers review rows`, 'stages');
    }
    reviewers = { type: 'users', userIds: ids };
  }
  if (reviewers.type === 'processOwner' && !Object.values((await readReviewSettings(db)).processOwners).flat().length) {
    throw new ValidationError(`${named} is reviewed by the process owners, but no process owners are set (Admin Settings)`, 'stages');
  }
  if (s.endDate && periodEnd && s.endDate > periodEnd) throw new ValidationError(`${named} ends after the period's end date`, 'stages');
  return { ...s, reviewers, passOn: i === 0 ? 'all' : s.passOn, endDate: s.endDate?.toISOString() ?? null };
}

/** Decision d (alias, its `decision` column) on row r matches a stage's passOn. */
function passOnSql(passOn: StagePassOn, d: string): Prisma.Sql {
  const dec = Prisma.raw(`${d}.decision`);
  switch (passOn) {
    case 'removals':
      return Prisma.sql`${dec} = 'remove'`;
    case 'highRetentions':
      return Prisma.sql`(${dec} IN ('retain', 'retain_mitigated') AND r.risk_level = 'high')`;
    case 'mitigated':
      return Prisma.sql`${dec} = 'retain_mitigated'`;
    default:
      return Prisma.sql`TRUE`;
  }
}

/**
 * The submitted decisions of `stage` in the period (alias x: risk_row_id,
 * reviewer_id, decision, comments, decided_at, stage): stage 1's those of a
 * submission still submitted or approved, a later stage's those of its
 * reviewers who submitted it.
 */
export function submittedDecisionsSql(periodId: string, stage: number): Prisma.Sql {
  if (stage === 1) {
    return Prisma.sql`(SELECT d.risk_row_id, d.reviewer_id, d.decision, d.comments, d.updated_at AS decided_at, 1 AS stage
        FROM decisions d JOIN submissions s ON s.id = d.submission_id AND s.status IN ('submitted', 'approved')
       WHERE d.period_id = ${periodId}::uuid)`;
  }
  return Prisma.sql`(SELECT sd.risk_row_id, sd.reviewer_id, sd.decision, sd.comments, sd.updated_at AS decided_at, sd.stage
      FROM stage_decisions sd
      JOIN stage_submissions ss ON ss.period_id = sd.period_id AND ss.stage = sd.stage AND ss.reviewer_id = sd.reviewer_id
     WHERE sd.period_id = ${periodId}::uuid AND sd.stage = ${stage}::int)`;
}

/** The rows that reached `stage` (2 or 3) of the period: a submitted decision of the stage before matches its passOn (alias r: the row). */
export function reachedRowsCondition(periodId: string, stage: PeriodStage): Prisma.Sql {
  return Prisma.sql`EXISTS (SELECT 1 FROM ${submittedDecisionsSql(periodId, stage.number - 1)} x
                            WHERE x.risk_row_id = r.id AND ${passOnSql(stage.passOn, 'x')})`;
}

/** Which of a stage's reached rows (alias r) `user` reviews: by their criteria, all of them (a listed user), or their business processes. */
export async function stageSightCondition(db: DbClient, stage: PeriodStage, user: User): Promise<Prisma.Sql> {
  if (stage.reviewers.type === 'users') return stage.reviewers.userIds.includes(user.id) ? Prisma.sql`TRUE` : Prisma.sql`FALSE`;
  if (stage.reviewers.type === 'processOwner') {
    const owned = Object.entries((await readReviewSettings(db)).processOwners)
      .filter(([, ids]) => ids.includes(user.id))
      .map(([bp]) => bp);
    return owned.length ? Prisma.sql`r.business_process = ANY(${owned}::text[])` : Prisma.sql`FALSE`;
  }
  return user.role === 'reviewer' ? assignedRowsCondition(await criteriaSetsFor(db, user.id)) : Prisma.sql`FALSE`;
}

/** The rows `user` reviews at `stage` (2 or 3): reached, live, in their sight (alias r). */
export async function stageRowsCondition(db: DbClient, periodId: string, stage: PeriodStage, user: User): Promise<Prisma.Sql> {
  return Prisma.sql`(${LIVE_ROWS} AND ${await stageSightCondition(db, stage, user)} AND ${reachedRowsCondition(periodId, stage)})`;
}

/** Whether `user` reviews `stage` at all (they may still have no row in it yet). */
async function reviews(db: DbClient, stage: PeriodStage, user: User): Promise<boolean> {
  if (stage.reviewers.type === 'users') return stage.reviewers.userIds.includes(user.id);
  if (stage.reviewers.type === 'processOwner') return Object.values((await readReviewSettings(db)).processOwners).some((ids) => ids.includes(user.id));
  if (user.role !== 'reviewer') return false;
  return (await db.user.count({ where: { id: user.id, ...HOLDS_WORK } })) > 0 || (await activeFallbackIds(db)).includes(user.id);
}

/**
 * The stage a user works at in a multi-stage period: the first stage they
 * review that they have not submitted yet (stage 1: their latest submission
 * is not submitted or approved), else the last they review; 1 when they
 * review none, and for administrators (a process owner who is one reviews
 * no later stage). Their decisions, submit and list go to that stage.
 */
export async function stageOfUser(db: DbClient, period: ReviewPeriod, user: User, stage1Submitted: boolean): Promise<PeriodStage> {
  const stages = stagesOf(period);
  // Administrators keep their own screens (the queue, approvals): only reviewers work at a later stage.
  if (user.role !== 'reviewer') return stages[0]!;
  const mine: PeriodStage[] = [];
  for (const s of stages) if (await reviews(db, s, user)) mine.push(s);
  if (!mine.length) return stages[0]!;
  const submitted = new Set(
    (await db.stageSubmission.findMany({ where: { periodId: period.id, reviewerId: user.id }, select: { stage: true } })).map((s) => s.stage),
  );
  if (stage1Submitted) submitted.add(1);
  return mine.find((s) => !submitted.has(s.number)) ?? mine[mine.length - 1]!;
}

/** The users who review `stage`: the listed users, the process owners, or the reviewers the assignment criteria (or moved items) give work. */
async function stageReviewers(db: DbClient, stage: PeriodStage): Promise<User[]> {
  const order = [{ firstName: 'asc' as const }, { lastName: 'asc' as const }, { email: 'asc' as const }];
  if (stage.reviewers.type === 'criteria') return db.user.findMany({ where: { role: 'reviewer', ...HOLDS_WORK }, orderBy: order });
  const ids = stage.reviewers.type === 'users' ? stage.reviewers.userIds : Object.values((await readReviewSettings(db)).processOwners).flat();
  return db.user.findMany({ where: { id: { in: [...new Set(ids)] } }, orderBy: order });
}

/**
 * The reviewers of a later stage (2 or 3) and how many rows reached them
 * there without their decision at it: whom the stage's deadline reminds
 * (services/review/reminders.ts).
 */
export async function stagePendingWork(db: DbClient, periodId: string, stage: PeriodStage): Promise<{ reviewer: User; pending: number }[]> {
  const out: { reviewer: User; pending: number }[] = [];
  for (const reviewer of await stageReviewers(db, stage)) {
    const [c] = await db.$queryRaw<{ n: bigint }[]>`
      SELECT count(*) AS n FROM risk_rows r
       WHERE ${await stageRowsCondition(db, periodId, stage, reviewer)}
         AND NOT EXISTS (SELECT 1 FROM stage_decisions d WHERE d.period_id = ${periodId}::uuid AND d.stage = ${stage.number}::int
                                                          AND d.reviewer_id = ${reviewer.id}::uuid AND d.risk_row_id = r.id)`;
    out.push({ reviewer, pending: Number(c?.n ?? 0) });
  }
  return out;
}

export interface PreviousDecision {
  stage: number;
  reviewer: { id: string; email: string; name: string };
  decision: string;
  comments: string | null;
  decidedAt: Date;
}

/** The submitted decisions of the stages before `stage` on these rows, by row, in stage order. */
export async function previousDecisionsOf(db: DbClient, periodId: string, stage: number, rowIds: bigint[]): Promise<Map<bigint, PreviousDecision[]>> {
  const out = new Map<bigint, PreviousDecision[]>(rowIds.map((id) => [id, []]));
  if (stage < 2 || !rowIds.length) return out;
  const earlier = Array.from({ length: stage - 1 }, (_, i) => submittedDecisionsSql(periodId, i + 1));
  const rows = await db.$queryRaw<
    {
      risk_row_id: bigint;
      stage: number;
      id: string;
      email: string;
      first_name: string;
      last_name: string;
      decision: string;
      comments: string | null;
      decided_at: Date;
    }[]
  >`SELECT x.risk_row_id, x.stage::int AS stage, u.id::text AS id, u.email, u.first_name, u.last_name, x.decision::text AS decision, x.comments, x.decided_at
      FROM (${Prisma.join(earlier, ' UNION ALL ')}) x JOIN users u ON u.id = x.reviewer_id
     WHERE x.risk_row_id = ANY(${rowIds}::bigint[])
     ORDER BY x.stage, x.decided_at, u.email`;
  for (const r of rows) {
    out.get(BigInt(r.risk_row_id))?.push({
      stage: r.stage,
      reviewer: { id: r.id, email: r.email, name: `${r.first_name} ${r.last_name}`.trim() },
      decision: r.decision,
      comments: r.comments,
      decidedAt: r.decided_at,
    });
  }
  return out;
}

export interface StageProgress {
  /** Rows that reached the stage (stage 1: every live row). */
  reached: number;
  /** Of those, rows with a decision at the stage. */
  decided: number;
  pending: number;
  /** Reviewers who submitted the stage. */
  submittedReviewers: number;
}

/** How far each stage of the period is. */
export async function stagesProgress(db: DbClient, period: ReviewPeriod): Promise<(PeriodStage & { progress: StageProgress })[]> {
  const out: (PeriodStage & { progress: StageProgress })[] = [];
  for (const s of stagesOf(period)) {
    const [c] =
      s.number === 1
        ? await db.$queryRaw<{ reached: bigint; decided: bigint; submitted: bigint }[]>`
          SELECT (SELECT count(*) FROM risk_rows r WHERE ${LIVE_ROWS}) AS reached,
                 (SELECT count(DISTINCT d.risk_row_id) FROM decisions d JOIN risk_rows r ON r.id = d.risk_row_id WHERE d.period_id = ${period.id}::uuid AND ${LIVE_ROWS}) AS decided,
                 (SELECT count(*) FROM (SELECT DISTINCT ON (s.reviewer_id) s.status FROM submissions s WHERE s.period_id = ${period.id}::uuid
                   ORDER BY s.reviewer_id, s.submitted_at DESC, s.id DESC) l WHERE l.status IN ('submitted', 'approved')) AS submitted`
        : await db.$queryRaw<{ reached: bigint; decided: bigint; submitted: bigint }[]>`
          SELECT count(*) AS reached,
                 count(*) FILTER (WHERE EXISTS (SELECT 1 FROM stage_decisions sd WHERE sd.period_id = ${period.id}::uuid AND sd.stage = ${s.number}::int AND sd.risk_row_id = r.id)) AS decided,
                 (SELECT count(*) FROM stage_submissions ss WHERE ss.period_id = ${period.id}::uuid AND ss.stage = ${s.number}::int) AS submitted
            FROM risk_rows r WHERE ${LIVE_ROWS} AND ${reachedRowsCondition(period.id, s)}`;
    const reached = Number(c?.reached ?? 0);
    const decided = Number(c?.decided ?? 0);
    out.push({ ...s, progress: { reached, decided, pending: reached - decided, submittedReviewers: Number(c?.submitted ?? 0) } });
  }
  return out;
}

/** The submitted decisions of the stage before `stage` that passed these rows on to it, by row (an overturn differs from them). */
export async function passedOnDecisions(db: DbClient, periodId: string, stage: PeriodStage, rowIds: bigint[]): Promise<Map<string, string[]>> {
  const rows = await db.$queryRaw<{ id: bigint; decision: string }[]>`
    SELECT x.risk_row_id AS id, x.decision::text AS decision FROM ${submittedDecisionsSql(periodId, stage.number - 1)} x JOIN risk_rows r ON r.id = x.risk_row_id
     WHERE x.risk_row_id = ANY(${rowIds}::bigint[]) AND ${passOnSql(stage.passOn, 'x')}`;
  const out = new Map<string, string[]>();
  for (const r of rows) out.set(String(r.id), [...(out.get(String(r.id)) ?? []), r.decision]);
  return out;
}

/**
 * The administrator approves a multi-stage period's work after its last
 * stage: approving a stage-1 submission is refused while any later stage
 * has rows that reached it without a submitted decision there, naming the
 * stage. A one-stage period approves as it always did.
 */
export async function refuseApprovalBeforeLastStage(db: DbClient, periodId: string): Promise<void> {
  const period = await db.reviewPeriod.findUnique({ where: { id: periodId } });
  if (!period || !isMultiStage(period)) return;
  for (const s of stagesOf(period).slice(1)) {
    const [c] = await db.$queryRaw<{ n: bigint }[]>`
      SELECT count(*) AS n FROM risk_rows r
       WHERE ${LIVE_ROWS} AND ${reachedRowsCondition(period.id, s)}
         AND NOT EXISTS (SELECT 1 FROM ${submittedDecisionsSql(period.id, s.number)} x WHERE x.risk_row_id = r.id)`;
    const n = Number(c?.n ?? 0);
    if (n) {
      throw new ConflictError(
        `Stage ${s.number} ('${s.name}') is still under way: ${n} row${n === 1 ? '' : 's'} without its submitted decision. The administrator approves after the last stage.`,
      );
    }
  }
}
