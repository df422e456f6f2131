// Decisions, submissions and approval. A decision is a reviewer's retain /
// remove (or retain with a mitigating control) on one risk row in the active
// period; a decision on a user's composite role is recorded on each of that
// user's rows under the role. A reviewer's set is submitted for approval,
// locked until recalled, and then approved (final) or returned (editable).
// Every change writes audit events in the same transaction.
import { z } from 'zod';
import { Prisma, type ReviewPeriod, type Submission } from '../../generated/prisma/client.js';
import { ConflictError, NotFoundError, ValidationError } from '../../core/errors.js';
import { recordAudit } from '../../core/audit.js';
import { MAX_CRITERIA_VALUE_LENGTH, dateInput, parseOrThrow, rowIdInput } from '../../core/validation.js';
import { getActivePeriod, requireActivePeriodForChange } from './periods.js';
import { lockDecisionWrites, lockReviewer, waitAtPeriodGate } from './decision-locks.js';
import { writeDecisions } from './decision-writer.js';
import { dispatch, type AfterCommit } from '../kept/dispatcher.js';
import { retryingTransaction } from '../../db/retry.js';
import { visibleRowsCondition } from '../visibility.js';
import { refuseSelfReview } from './coverage.js';
import type { Actor, DbClient } from '../../core/types.js';
import type { PubSub } from '../../pubsub.js';
import type { Caller } from '../caller.js';
import { DECISION_VALUES, MITIGATED, REMOVE, SUBMISSION_STATUSES, orList } from '../risk-rules.js';
import { reviewRules, type ReviewRules } from '../identity/settings.js';
import { isMultiStage, stageOfUser, stagesOf, type PeriodStage } from '../stages/stages.js';
import { DEFAULT_STAGES } from '../stages/stage-plan.js';
import { saveStageDecisions, stageSubmissionState, submitStage, viewerStage } from '../stages/stage-reviews.js';
import { mayRecall, refuseRecallAfterLaterStage } from '../stages/stage-withdrawal.js';

export const NO_RISKS_SELECTED = 'Please select risks to make decisions on';
export const LOCKED_SUBMITTED = 'Your decisions are submitted for approval and locked. Recall them to make changes.';
export const LOCKED_APPROVED = 'Your decisions for this period were approved and are final.';

/** The fields of a decision, shared by a single decision and a decision by filter (bulk-decisions.ts). */
export const itemFields = {
  decision: z.enum(DECISION_VALUES, { error: `Decision must be ${orList(DECISION_VALUES)}` }),
  comments: z.string().trim().max(4000, 'Comments are too long (4,000 characters at most)').nullish(),
  mitigationControl: z.string().trim().max(200, 'The mitigating control is too long (200 characters at most)').nullish(),
  mitigationExpiresAt: dateInput('Mitigation expiry is not a valid date').nullish(),
};

/**
 * A mitigation needs an expiry date and a justification comment; its control
 * is typed, or else taken from the row's Control column (writeDecisions).
 */
export function mitigationIssues(v: { decision: string; comments?: string | null; mitigationExpiresAt?: Date | null }, ctx: z.RefinementCtx): void {
  if (v.decision !== MITIGATED) return;
  if (!v.mitigationExpiresAt) ctx.addIssue({ code: 'custom', message: 'A mitigated decision needs an expiry date', path: ['mitigationExpiresAt'] });
  // A control that has already expired mitigates nothing (today, UTC, is still valid).
  else if (v.mitigationExpiresAt.getTime() < Date.parse(new Date().toISOString().slice(0, 10))) {
    ctx.addIssue({ code: 'custom', message: 'The mitigation expiry date (mitigationExpiresAt) is in the past', path: ['mitigationExpiresAt'] });
  }
  if (!v.comments) ctx.addIssue({ code: 'custom', message: 'A mitigated decision needs a justification comment', path: ['comments'] });
}

/**
 * One decision, its risk row named `rowField` in the object and in the
 * messages: riskRowId here, the SPEC's name at the REST edge
 * (rest/review/decisions.ts), so both say the name their clients send.
 */
export function decisionItemSchema<F extends string>(rowField: F) {
  const rowId = rowIdInput(`${rowField} must be the id of a risk row`).optional();
  return z
    .object({
      ...({ [rowField]: rowId } as Record<F, typeof rowId>),
      userId: z.string().trim().min(1).max(MAX_CRITERIA_VALUE_LENGTH).optional(),
      compositeBusinessRole: z.string().trim().max(MAX_CRITERIA_VALUE_LENGTH).optional(),
      ...itemFields,
    })
    .superRefine((v, ctx) => {
      // The row's key is the edge's name (generic), the other fields as itemFields types them.
      const item = v as Record<string, unknown> & {
        userId?: string;
        compositeBusinessRole?: string;
        decision: string;
        comments?: string | null;
        mitigationExpiresAt?: Date | null;
      };
      if (item[rowField] === undefined && (item.userId === undefined || item.compositeBusinessRole === undefined)) {
        ctx.addIssue({ code: 'custom', message: `Each decision needs a ${rowField}, or a userId and a compositeBusinessRole` });
      }
      mitigationIssues(item, ctx);
    });
}
/** One decision as the services take it. */
export const itemSchema = decisionItemSchema('riskRowId');
export type DecisionItem = z.input<typeof itemSchema>;

export async function latestSubmission(db: DbClient, periodId: string, reviewerId: string): Promise<Submission | null> {
  return (await latestSubmissions(db, periodId, [reviewerId])).get(reviewerId) ?? null;
}

/** Each reviewer's latest submission in the period (the newest; of two at the same time, the greater id). */
export async function latestSubmissions(db: DbClient, periodId: string, reviewerIds: string[]): Promise<Map<string, Submission>> {
  const all = await db.submission.findMany({
    where: { periodId, reviewerId: { in: reviewerIds } },
    orderBy: [{ reviewerId: 'asc' }, { submittedAt: 'desc' }, { id: 'desc' }],
    distinct: ['reviewerId'],
  });
  return new Map(all.map((s) => [s.reviewerId, s]));
}

function assertEditable(latest: Submission | null) {
  if (latest?.status === 'submitted') throw new ConflictError(LOCKED_SUBMITTED);
  if (latest?.status === 'approved') throw new ConflictError(LOCKED_APPROVED);
}

/** A removal's missing comment when administrators require one (Admin Settings, review.requireRemovalComment). */
export const REMOVAL_COMMENT_REQUIRED = 'A removal needs a justification comment: administrators require one';

/**
 * The decision rule every way of deciding goes through (one row, a batch,
 * by filter): a removal needs a comment when administrators require one; a
 * mitigation always needs a control, an expiry and a comment (itemSchema).
 */
export function checkDecisionRule(item: { decision: string; comments?: string | null }, rules: ReviewRules): void {
  if (item.decision === REMOVE && rules.requireRemovalComment && !item.comments?.trim()) {
    throw new ValidationError(REMOVAL_COMMENT_REQUIRED, 'comments');
  }
}

/**
 * A reviewer's (or administrator's) change to their own set in the active
 * period: one transaction, serialised with their other saves, submits,
 * recalls and the approval of their set (the reviewer's lock), given the
 * period and their latest submission in it. To 'decide' (change their
 * decisions) is refused while the set is submitted or approved, and tells
 * open dashboards after the commit; to 'submit' or recall, the caller
 * checks the set's state.
 */
export async function asReviewer<T>(
  caller: Caller,
  purpose: 'decide' | 'submit',
  fn: (tx: Prisma.TransactionClient, period: ReviewPeriod, latest: Submission | null, laterStage: PeriodStage | null) => Promise<T>,
): Promise<T> {
  const {
    deps,
    actor: { user },
  } = caller;
  let afterCommit: AfterCommit | undefined;
  const result = await retryingTransaction(
    deps.prisma,
    async (tx) => {
      const period = await requireActivePeriodForChange(tx);
      await lockReviewer(tx, period.id, user.id);
      const latest = await latestSubmission(tx, period.id, user.id);
      // A multi-stage period: a reviewer past stage 1 works at their later stage (services/stages/); a one-stage period reads nothing more.
      const stage = isMultiStage(period) ? await stageOfUser(tx, period, user, latest?.status === 'submitted' || latest?.status === 'approved') : null;
      const laterStage = stage && stage.number > 1 ? stage : null;
      if (purpose === 'decide' && !laterStage) assertEditable(latest);
      const out = await fn(tx, period, latest, laterStage);
      if (purpose === 'decide') afterCommit = await dispatch(tx, { kind: 'decisions-written' });
      return out;
    },
    { timeout: 60_000, maxWait: 30_000 },
  );
  // After the commit: open dashboards refetch their figures.
  await afterCommit?.(deps);
  return result;
}

/** Saves decisions, all or nothing. Returns how many risk rows they covered. */
export async function saveDecisions(caller: Caller, rawItems: unknown): Promise<{ saved: number }> {
  const {
    deps,
    actor,
    actor: { user },
  } = caller;
  if (!Array.isArray(rawItems) || rawItems.length === 0) throw new ValidationError(NO_RISKS_SELECTED);
  if (rawItems.length > 100_000) throw new ValidationError('At most 100,000 decisions at once');
  const numbered = <T>(n: number, fn: () => T): T => {
    try {
      return fn();
    } catch (e) {
      if (!(e instanceof ValidationError)) throw e;
      throw new ValidationError(`Decision ${n + 1}: ${e.message}`, e.field);
    }
  };
  const items = rawItems.map((i, n) => numbered(n, () => parseOrThrow(itemSchema, i)));
  const rules = await reviewRules(deps.prisma);
  items.forEach((i, n) => numbered(n, () => checkDecisionRule(i, rules)));

  return asReviewer(caller, 'decide', async (tx, period, _latest, laterStage) => {
    // Independence before visibility: a row of the caller's own access is refused as self-review, not as unknown.
    await refuseSelfReview(tx, user, {
      rowIds: items.filter((i) => i.riskRowId !== undefined).map((i) => BigInt(i.riskRowId!)),
      userIds: items.map((i) => i.userId),
    });
    if (laterStage) {
      const stageItems = items.map((i) => ({
        riskRowId: i.riskRowId === undefined ? null : BigInt(i.riskRowId),
        decision: i.decision,
        comments: i.comments ?? null,
        mitigationControl: i.mitigationControl ?? null,
        mitigationExpiresAt: i.mitigationExpiresAt ?? null,
      }));
      return { saved: await saveStageDecisions(tx, actor, period, laterStage, stageItems) };
    }
    const visible = await visibleRowsCondition(tx, user);
    // Resolve every item to risk rows the caller may decide on; last item wins per row.
    const byRow = new Map<bigint, { decision: string; comments: string | null; via: boolean; mc: string | null; mexp: Date | null }>();
    const direct = items.filter((i) => i.riskRowId !== undefined).map((i) => BigInt(i.riskRowId!));
    const found = new Set<bigint>();
    if (direct.length) {
      const rows = await tx.$queryRaw<{ id: bigint }[]>`SELECT r.id FROM risk_rows r WHERE r.id = ANY(${direct}::bigint[]) AND ${visible}`;
      for (const r of rows) found.add(BigInt(r.id));
    }
    for (const i of items) {
      const value = { decision: i.decision, comments: i.comments ?? null, mc: i.mitigationControl ?? null, mexp: i.mitigationExpiresAt ?? null };
      if (i.riskRowId !== undefined) {
        const id = BigInt(i.riskRowId);
        if (!found.has(id)) throw new NotFoundError(`Risk ${id} was not found`);
        byRow.set(id, { ...value, via: false });
      } else {
        const rows = await tx.$queryRaw<{ id: bigint }[]>`
          SELECT r.id FROM risk_rows r
           WHERE r.user_id = ${i.userId} AND r.composite_business_role = ${i.compositeBusinessRole} AND ${visible}`;
        if (!rows.length) throw new NotFoundError(`No risks of user ${i.userId} under role '${i.compositeBusinessRole}' were found`);
        for (const r of rows) byRow.set(BigInt(r.id), { ...value, via: true });
      }
    }
    const ids = [...byRow.keys()];
    const v = [...byRow.values()];
    const rows = Prisma.sql`
      SELECT ${period.id}::uuid AS period_id, ${user.id}::uuid AS reviewer_id, t.*
        FROM unnest(${ids}::bigint[], ${v.map((x) => x.decision)}::text[], ${v.map((x) => x.comments)}::text[],
                    ${v.map((x) => x.via)}::boolean[], ${v.map((x) => x.mc)}::text[], ${v.map((x) => x.mexp)}::date[])
             AS t(risk_row_id, decision, comments, via, mc, mexp)`;
    return { saved: await writeDecisions(tx, actor, { origin: 'user', period: period.id, rows }) };
  });
}

/** The viewer's own decision on one row in the decision period (the lists join it instead). */
export async function myDecisionOn(caller: Caller, riskRowId: bigint) {
  const {
    deps: { prisma },
    viewer,
  } = caller;
  const period = await viewer.decisionPeriod();
  if (!period) return null;
  return prisma.decision.findUnique({ where: { periodId_reviewerId_riskRowId: { periodId: period.id, reviewerId: viewer.user.id, riskRowId } } });
}

export async function submissionStatus(caller: Caller) {
  const {
    deps: { prisma },
    actor: { user },
  } = caller;
  const period = await getActivePeriod(prisma);
  if (!period)
    return {
      isSubmitted: false,
      hasDecisions: false,
      totalDecisions: 0,
      submittedAt: null,
      status: null,
      reviewComment: null,
      itemComments: [],
      periodActive: false,
      stage: 1,
      stageName: DEFAULT_STAGES[0]!.name,
      stageCount: 1,
      nextStageName: null,
      canRecall: false,
    };
  // The stage the viewer works at (a later one of a multi-stage period: that stage's decisions and submission).
  const stage = await viewerStage(caller, period);
  const stages = stagesOf(period);
  const staged = { stage: stage.number, stageName: stage.name, stageCount: stages.length, nextStageName: stages[stage.number]?.name ?? null };
  if (stage.number > 1) return { ...(await stageSubmissionState(caller, period, stage)), ...staged, canRecall: false };
  const [latest, total] = await Promise.all([
    latestSubmission(prisma, period.id, user.id),
    prisma.decision.count({ where: { periodId: period.id, reviewerId: user.id } }),
  ]);
  const locked = latest?.status === 'submitted' || latest?.status === 'approved';
  return {
    isSubmitted: locked,
    hasDecisions: total > 0,
    totalDecisions: total,
    submittedAt: locked ? latest!.submittedAt : null,
    status: latest?.status ?? null,
    reviewComment: latest?.reviewComment ?? null,
    itemComments: latest ? (await itemCommentsOf(caller, latest.id)).map(itemCommentJson) : [],
    periodActive: true,
    ...staged,
    // Offered only while recall would be accepted: not once a later stage decided a row of the set.
    canRecall: latest?.status === 'submitted' && (await mayRecall(prisma, latest)),
  };
}

/** The approver's comments on the items of a submission, by row. */
export function itemCommentsOf(caller: Caller, submissionId: string) {
  return caller.deps.prisma.submissionItemComment.findMany({
    where: { submissionId },
    include: { riskRow: { select: { userId: true, roleProfile: true, accessRiskId: true } } },
    orderBy: { riskRowId: 'asc' },
  });
}

/** An item comment as the services give it (the REST edge renames the row to the SPEC's name). */
export function itemCommentJson(c: Awaited<ReturnType<typeof itemCommentsOf>>[number]) {
  return {
    riskRowId: Number(c.riskRowId),
    userId: c.riskRow.userId,
    roleProfile: c.riskRow.roleProfile,
    accessRiskId: c.riskRow.accessRiskId,
    comment: c.comment,
  };
}

/**
 * Tells the reviewer's open pages that their set changed state (submitted,
 * recalled, approved, returned), whoever acted: keyed by the reviewer, so no
 * one else hears it. Only after the commit, so a page that refetches sees it.
 */
export function publishSubmissionChanged(pubsub: PubSub, s: Pick<Submission, 'id' | 'periodId' | 'reviewerId' | 'status'>): void {
  pubsub.publish('review:submission-changed', s.reviewerId, { reviewerId: s.reviewerId, periodId: s.periodId, submissionId: s.id, status: s.status });
}

/** A submitted set: stage 1's Submission, or a later stage's (services/stages/stage-reviews.ts, `stage` set). */
export type SubmittedSet = { count: number; submission: Pick<Submission, 'id' | 'periodId' | 'reviewerId' | 'status'>; stage1: Submission | null };

export async function submit(caller: Caller): Promise<SubmittedSet> {
  const {
    deps,
    actor,
    actor: { user },
  } = caller;
  const result = await asReviewer(caller, 'submit', async (tx, period, latest, laterStage): Promise<SubmittedSet> => {
    if (laterStage) return { ...(await submitStage(tx, actor, period, laterStage)), stage1: null };
    if (latest?.status === 'submitted') throw new ConflictError('Your decisions are already submitted for approval');
    if (latest?.status === 'approved') throw new ConflictError(LOCKED_APPROVED);
    const count = await tx.decision.count({ where: { periodId: period.id, reviewerId: user.id } });
    if (!count) throw new ValidationError('There are no decisions to submit');
    const submission = await tx.submission.create({ data: { periodId: period.id, reviewerId: user.id, decisionCount: count } });
    await lockDecisionWrites(tx, period.id);
    await tx.decision.updateMany({ where: { periodId: period.id, reviewerId: user.id }, data: { submissionId: submission.id } });
    await recordAudit(tx, actor, {
      action: 'submission.submitted',
      entityType: 'Submission',
      entityId: submission.id,
      periodId: period.id,
      after: { status: 'submitted', decisionCount: count },
    });
    return { count, submission, stage1: submission };
  });
  publishSubmissionChanged(deps.pubsub, result.submission);
  return result;
}

export async function recall(caller: Caller): Promise<{ count: number }> {
  const { deps, actor } = caller;
  const recalled = await asReviewer(caller, 'submit', async (tx, period, latest, laterStage) => {
    if (laterStage) throw new ConflictError(`Submitted decisions of stage ${laterStage.number} ('${laterStage.name}') are final for that stage`);
    if (latest?.status === 'approved') throw new ConflictError('Approved decisions cannot be recalled');
    if (latest?.status !== 'submitted') throw new ConflictError('There are no submitted decisions to recall');
    await refuseRecallAfterLaterStage(tx, latest);
    const submission = await tx.submission.update({ where: { id: latest.id }, data: { status: 'recalled', recalledAt: new Date() } });
    await recordAudit(tx, actor, {
      action: 'submission.recalled',
      entityType: 'Submission',
      entityId: latest.id,
      periodId: period.id,
      before: { status: 'submitted' },
      after: { status: 'recalled' },
    });
    return { count: latest.decisionCount, submission };
  });
  publishSubmissionChanged(deps.pubsub, recalled.submission);
  return { count: recalled.count };
}

export function listSubmissions(caller: Caller, filter: { status?: string | null } = {}) {
  const status = filter.status && (SUBMISSION_STATUSES as readonly string[]).includes(filter.status) ? filter.status : undefined;
  return caller.deps.prisma.submission.findMany({
    where: status ? { status: status as Prisma.EnumSubmissionStatusFilter['equals'] } : {},
    include: { reviewer: true, period: true, reviewedBy: true },
    orderBy: [{ submittedAt: 'desc' }, { id: 'desc' }],
    take: 500,
  });
}

/**
 * On a 'replace' load, in its going-live transaction: the decisions on rows
 * the new upload keeps (equal export columns, i.e. the same row_hash) are
 * copied to its rows, so a review in progress survives a reload of the same
 * data. A decision already on a new row is kept. Audited as one event.
 */
export async function carryOverDecisions(tx: DbClient, actor: Actor, uploadId: string): Promise<void> {
  // A writer of the active period's decisions like any other, in the same lock order
  // (services/review/decision-locks.ts): first in its transaction, it waits out a close under way.
  const [active] = await tx.$queryRaw<{ id: string }[]>`SELECT id::text FROM review_periods WHERE status = 'active'`;
  if (active) await waitAtPeriodGate(tx, active.id);
  await writeDecisions(tx, actor, {
    origin: 'carry-over',
    period: active?.id ?? null,
    rows: Prisma.sql`
      SELECT d.period_id, d.reviewer_id, n.id AS risk_row_id, d.decision, d.via_composite_role AS via, d.comments,
             d.mitigation_control AS mc, d.mitigation_expires_at AS mexp, d.submission_id, d.created_at, d.updated_at
        FROM decisions d
        JOIN risk_rows o ON o.id = d.risk_row_id AND (o.upload_id IS NULL OR o.upload_id <> ${uploadId}::uuid)
        JOIN risk_rows n ON n.row_hash = o.row_hash AND n.upload_id = ${uploadId}::uuid`,
    summary: ([count]) =>
      count ? { action: 'decisions.carried_over', entityType: 'Upload', entityId: uploadId, periodId: active?.id ?? null, after: { count } } : null,
  });
}
