// Decisions by filter: one decision on every
// row matching the filters of the caller's list (a reviewer's assigned risks,
// the administrators' queue; at a later stage of a multi-stage period, the
// reviewer's rows at that stage), not only the page on screen, in one
// transaction. Administrators may switch it off (review.allowBulkApproval).
// Each row's audit event is marked bulk (origin 'by-filter'), and one 'decisions.bulk' event
// records the filter and the count. Page selections (Retain / Remove
// Selected) are not bulk: they name their rows.
import { z } from 'zod';
import { Prisma } from '../../generated/prisma/client.js';
import { ForbiddenError } from '../../core/errors.js';
import type { Actor, DbClient } from '../../core/types.js';
import type { Caller } from '../caller.js';
import { recordAudit } from '../../core/audit.js';
import { parseOrThrow } from '../../core/validation.js';
import { asReviewer, checkDecisionRule, itemFields, mitigationIssues } from './decisions.js';
import { writeDecisions } from './decision-writer.js';
import { FILTER_FIELDS, MAX_FILTER_VALUE_LENGTH, filterCondition, type RiskFilter } from './risks.js';
import { visibleRowsCondition } from '../visibility.js';
import { refuseSelfReview } from './coverage.js';
import { reviewRules } from '../identity/settings.js';
import { decideStageByFilter } from '../stages/stage-reviews.js';

export const BULK_SWITCHED_OFF = 'Deciding every matching item at once is switched off by an administrator. Select the items on the page instead.';

/** Also the REST edge's body schema (rest/review/decisions.ts). */
export const byFilterSchema = z
  .object({
    filter: z
      .object(
        Object.fromEntries(
          FILTER_FIELDS.map((f) => [
            f,
            z
              .string({ error: `${f} must be text` })
              .max(MAX_FILTER_VALUE_LENGTH)
              .nullish(),
          ]),
        ) as Record<(typeof FILTER_FIELDS)[number], z.ZodOptional<z.ZodNullable<z.ZodString>>>,
      )
      .nullish(),
    decision: itemFields.decision,
    comments: itemFields.comments,
    mitigationControl: itemFields.mitigationControl,
    mitigationExpiresAt: itemFields.mitigationExpiresAt,
  })
  .superRefine(mitigationIssues);
export type ByFilterInput = z.input<typeof byFilterSchema>;

/** Decides every row of the caller's list matching `filter`; returns how many. */
export async function decideByFilter(caller: Caller, raw: unknown): Promise<{ count: number }> {
  const {
    deps,
    actor,
    actor: { user },
  } = caller;
  const input = parseOrThrow(byFilterSchema, raw);
  const rules = await reviewRules(deps.prisma);
  if (!rules.allowBulkApproval) throw new ForbiddenError(BULK_SWITCHED_OFF);
  checkDecisionRule(input, rules);
  const filter: RiskFilter = input.filter ?? {};
  return asReviewer(caller, 'decide', async (tx, period, _latest, laterStage) => {
    const [visible, where] = await Promise.all([visibleRowsCondition(tx, user), filterCondition(tx, filter, { periodId: period.id, viewerId: user.id })]);
    if (laterStage) {
      // Past stage 1: the stage's rows, confirmed or overturned (services/stages/stage-reviews.ts).
      await refuseSelfReview(tx, user, { userIds: [filter.userId, filter.search] });
      const decided = await decideStageByFilter(tx, actor, period, laterStage, where, {
        decision: input.decision,
        comments: input.comments ?? null,
        mitigationControl: input.mitigationControl ?? null,
        mitigationExpiresAt: input.mitigationExpiresAt ?? null,
      });
      await auditBulk(tx, actor, period.id, input, filter, decided.count, { stage: laterStage.number, overturned: decided.overturned });
      return { count: decided.count };
    }
    // Independence: a filter naming the caller's own user id, or matching a row of their own access, is refused.
    await refuseSelfReview(tx, user, {
      userIds: [filter.userId, filter.search],
      rows: Prisma.sql`${visible} AND ${where}`,
      join: Prisma.sql`LEFT JOIN decisions d ON d.risk_row_id = r.id AND d.period_id = ${period.id}::uuid AND d.reviewer_id = ${user.id}::uuid`,
    });
    const rows = Prisma.sql`
      SELECT ${period.id}::uuid AS period_id, ${user.id}::uuid AS reviewer_id, r.id AS risk_row_id, ${input.decision}::text AS decision, ${input.comments ?? null}::text AS comments, FALSE AS via,
             ${input.mitigationControl ?? null}::text AS mc, ${input.mitigationExpiresAt ?? null}::date AS mexp
        FROM risk_rows r
        LEFT JOIN decisions d ON d.risk_row_id = r.id AND d.period_id = ${period.id}::uuid AND d.reviewer_id = ${user.id}::uuid
       WHERE ${visible} AND ${where}`;
    const count = await writeDecisions(tx, actor, { origin: 'by-filter', period: period.id, rows });
    await auditBulk(tx, actor, period.id, input, filter, count);
    return { count };
  });
}

/** The one 'decisions.bulk' event of a decision by filter that wrote any row: the filter, the decision, the count (and at a later stage, the stage). */
async function auditBulk(
  tx: DbClient,
  actor: Actor,
  periodId: string,
  input: z.output<typeof byFilterSchema>,
  filter: RiskFilter,
  count: number,
  staged: { stage: number; overturned: number } | null = null,
): Promise<void> {
  if (count === 0) return;
  await recordAudit(tx, actor, {
    action: 'decisions.bulk',
    entityType: 'ReviewPeriod',
    entityId: periodId,
    periodId,
    after: { decision: input.decision, count, filter, comments: input.comments ?? null, mitigationControl: input.mitigationControl ?? null, ...staged },
  });
}
