// The approver's review of a submission. Before approving or
// returning a submitted set, the approver sees its items in the order that
// needs attention first: removals, mitigations, items retained against a
// 'remove' recommendation (services/review/recommendations.ts, as the reviewer saw
// it), then the rest. The approver approves (final) or returns (editable
// again; the reviewer is notified) with a comment for the whole set and/or a
// comment per item; the item comments are kept with the submission, recorded
// in the audit trail, shown to the reviewer and written to the evidence file.
import { z } from 'zod';
import type { Submission } from '../../generated/prisma/client.js';
import { ConflictError, NotFoundError, ValidationError } from '../../core/errors.js';
import { recordAudit } from '../../core/audit.js';
import { parseOrThrow, rowIdInput } from '../../core/validation.js';
import type { Caller } from '../caller.js';
import { isUuid } from '../../core/types.js';
import { sendNotification } from '../identity/notifications.js';
import { publishSubmissionChanged } from './decisions.js';
import { lockReviewer } from './decision-locks.js';
import { enterForChange } from './periods.js';
import { retryingTransaction } from '../../db/retry.js';
import { RECOMMENDATION_COLUMNS, factsFromRaw, recommendationJoins, recommendationOf, type Recommendation } from './recommendations.js';
import { MITIGATED, REMOVE, type RiskLevel } from '../risk-rules.js';
import { refuseApprovalBeforeLastStage } from '../stages/stages.js';
import { withdrawLaterStages } from '../stages/stage-withdrawal.js';

/** Why an item is shown where it is, in the approval order. */
export const APPROVAL_GROUPS = ['removal', 'mitigation', 'retained_against_recommendation', 'other'] as const;
export type ApprovalGroup = (typeof APPROVAL_GROUPS)[number];

export const MAX_ITEM_COMMENT = 4000;
/** At most this many items are listed (a set larger than this is shown in part, attention-first). */
export const MAX_APPROVAL_ITEMS = 2000;

export interface ApprovalItem {
  riskRowId: bigint;
  group: ApprovalGroup;
  userId: string;
  userName: string;
  roleProfile: string;
  accessRiskId: string;
  riskLevel: RiskLevel;
  system: string;
  decision: string;
  comments: string | null;
  mitigationControl: string | null;
  mitigationExpiresAt: Date | null;
  recommendation: Recommendation;
  /** The approver's comment on this item, once given. */
  approverComment: string | null;
}

export interface ApprovalReview {
  submission: Submission;
  /** How many items the set holds (the list stops at MAX_APPROVAL_ITEMS). */
  total: number;
  items: ApprovalItem[];
}

const groupOf = (decision: string, rec: Recommendation): ApprovalGroup =>
  decision === REMOVE ? 'removal' : decision === MITIGATED ? 'mitigation' : rec.value === 'remove' ? 'retained_against_recommendation' : 'other';

/** A submission's items, attention first: removals, mitigations, retained against a 'remove' recommendation, the rest. */
export async function approvalReview(caller: Caller, submissionId: string): Promise<ApprovalReview> {
  const db = caller.deps.prisma;
  if (!isUuid(submissionId)) throw new NotFoundError('Submission not found');
  const submission = await db.submission.findUnique({ where: { id: submissionId } });
  if (!submission) throw new NotFoundError('Submission not found');
  const who = { periodId: submission.periodId, viewerId: submission.reviewerId };
  const raw = await db.$queryRaw<Record<string, unknown>[]>`
    SELECT r.id, r.user_id, r.user_name, r.role_profile, r.access_risk_id, r.risk_level::text AS risk_level, r.system, r.rule_id,
           r.execution_count, r.last_executed_on, d.decision::text AS decision, d.comments, d.mitigation_control, d.mitigation_expires_at,
           c.comment AS approver_comment, ${RECOMMENDATION_COLUMNS}
      FROM decisions d JOIN risk_rows r ON r.id = d.risk_row_id ${recommendationJoins(who)}
      LEFT JOIN submission_item_comments c ON c.submission_id = d.submission_id AND c.risk_row_id = d.risk_row_id
     WHERE d.submission_id = ${submissionId}::uuid
     ORDER BY r.id`;
  const items = raw.map((x): ApprovalItem => {
    const recommendation = recommendationOf(factsFromRaw(x));
    const decision = x.decision as string;
    return {
      riskRowId: BigInt(x.id as bigint),
      group: groupOf(decision, recommendation),
      userId: x.user_id as string,
      userName: x.user_name as string,
      roleProfile: x.role_profile as string,
      accessRiskId: x.access_risk_id as string,
      riskLevel: x.risk_level as RiskLevel,
      system: x.system as string,
      decision,
      comments: (x.comments as string | null) ?? null,
      mitigationControl: (x.mitigation_control as string | null) ?? null,
      mitigationExpiresAt: (x.mitigation_expires_at as Date | null) ?? null,
      recommendation,
      approverComment: (x.approver_comment as string | null) ?? null,
    };
  });
  const rank = (g: ApprovalGroup) => APPROVAL_GROUPS.indexOf(g);
  // Stable: within a group, by row.
  items.sort((a, b) => rank(a.group) - rank(b.group));
  return { submission, total: items.length, items: items.slice(0, MAX_APPROVAL_ITEMS) };
}

/**
 * An approval's or a return's body, each item comment's risk row named
 * `rowField` in the object and in the messages: riskRowId here, the SPEC's
 * name at the edges whose clients send that name.
 */
export function reviewBodySchemaNaming<F extends string>(rowField: F) {
  const rowId = rowIdInput(`${rowField} must be the id of a risk row`);
  const itemComment = z.object({
    ...({ [rowField]: rowId } as Record<F, typeof rowId>),
    comment: z
      .string({ error: 'An item comment must be text' })
      .trim()
      .min(1, 'An item comment cannot be empty')
      .max(MAX_ITEM_COMMENT, `An item comment is too long (${MAX_ITEM_COMMENT} characters at most)`),
  });
  return z.object({
    comment: z.string({ error: 'Comment must be text' }).max(MAX_ITEM_COMMENT, `The comment is too long (${MAX_ITEM_COMMENT} characters at most)`).nullish(),
    itemComments: z.array(itemComment).max(MAX_APPROVAL_ITEMS, `At most ${MAX_APPROVAL_ITEMS} item comments`).nullish(),
  });
}
export const reviewBodySchema = reviewBodySchemaNaming('riskRowId');
export type ReviewBody = z.input<typeof reviewBodySchema>;

/**
 * An administrator approves a submitted set (final: no more edits or recall
 * for that reviewer in that period) or returns it (editable again; the
 * reviewer is notified), with a comment for the set and/or per item. A
 * return needs a comment, for the set or on an item. One transaction.
 */
export async function reviewSubmission(caller: Caller, submissionId: string, outcome: 'approved' | 'returned', body: ReviewBody = {}): Promise<Submission> {
  const { deps, actor } = caller;
  if (!isUuid(submissionId)) throw new NotFoundError('Submission not found');
  const input = parseOrThrow(reviewBodySchema, body);
  const text = input.comment?.trim() || null;
  const perItem = new Map((input.itemComments ?? []).map((c) => [BigInt(c.riskRowId), c.comment]));
  if (outcome === 'returned' && !text && !perItem.size) throw new ValidationError('Please say why the decisions are returned', 'comment');
  const { updated, notes } = await retryingTransaction(deps.prisma, async (tx) => {
    const s = await tx.submission.findUnique({ where: { id: submissionId } });
    if (!s) throw new NotFoundError('Submission not found');
    await enterForChange(tx, s.periodId);
    await lockReviewer(tx, s.periodId, s.reviewerId);
    const fresh = await tx.submission.findUniqueOrThrow({ where: { id: submissionId } });
    if (fresh.status !== 'submitted') throw new ConflictError(`This submission is ${fresh.status}, not awaiting approval`);
    if (outcome === 'approved') await refuseApprovalBeforeLastStage(tx, s.periodId);
    // Returned: the later stages' sign-off on these rows no longer stands (stage-withdrawal.ts).
    else await withdrawLaterStages(tx, actor, s, await tx.user.findUniqueOrThrow({ where: { id: s.reviewerId } }));
    const held = perItem.size
      ? await tx.decision.findMany({
          where: { submissionId, riskRowId: { in: [...perItem.keys()] } },
          include: { riskRow: { select: { userId: true, roleProfile: true, accessRiskId: true } } },
        })
      : [];
    const missing = [...perItem.keys()].filter((id) => !held.some((d) => d.riskRowId === id));
    if (missing.length) throw new ValidationError(`Not an item of this submission: ${missing.slice(0, 5).join(', ')}`, 'itemComments');
    await tx.submissionItemComment.createMany({
      data: held.map((d) => ({ submissionId, riskRowId: d.riskRowId, comment: perItem.get(d.riskRowId)!, authorId: actor.user.id })),
    });
    const notes = held.map((d) => ({
      riskRowId: Number(d.riskRowId),
      userId: d.riskRow.userId,
      roleProfile: d.riskRow.roleProfile,
      accessRiskId: d.riskRow.accessRiskId,
      decision: d.decision,
      comment: perItem.get(d.riskRowId)!,
    }));
    const u = await tx.submission.update({
      where: { id: submissionId },
      data: { status: outcome, reviewedById: actor.user.id, reviewedAt: new Date(), reviewComment: text },
    });
    await recordAudit(tx, actor, {
      action: outcome === 'approved' ? 'submission.approved' : 'submission.returned',
      entityType: 'Submission',
      entityId: submissionId,
      periodId: s.periodId,
      before: { status: 'submitted' },
      after: { status: outcome, comment: text, itemComments: notes },
    });
    return { updated: u, notes };
  });
  publishSubmissionChanged(deps.pubsub, updated);
  if (outcome === 'returned') {
    const items = notes.length ? ` (${notes.length} item comment${notes.length === 1 ? '' : 's'})` : '';
    await sendNotification(caller, {
      title: 'Your review decisions were returned',
      message: `An administrator returned your submitted decisions for changes: ${text ?? 'see the comments on the items'}${items}`,
      type: 'warning',
      targetType: 'specific',
      targetUserId: updated.reviewerId,
    });
  }
  return updated;
}
