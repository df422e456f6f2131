// The kept totals: how many decisions each reviewer made per item (user and
// role) and upload (shared_item_decisions), and per upload alone
// (reviewer_decision_totals), on every row, live or not. Moved by a trigger
// on decisions in the statement that writes them
// (prisma/functions/shared_item_decisions_move.sql), so never stale: a reader
// sums the rows of the live uploads (and of rows loaded without one). When an
// upload's rows are deleted, its counts go (the decisions' delete trigger no
// longer finds their rows to move them by). All Reviews reads them for an
// administrator's search by reviewer (services/reports/review-history.ts).
import { Prisma } from '../../generated/prisma/client.js';
import type { DbClient } from '../../core/types.js';
import { keptCountSql, sharedFilterSql } from './shared-items.js';
import type { KeptAggregate } from './aggregate.js';

/** shared_item_decisions' upload of rows loaded without an upload (always live). */
export const NO_UPLOAD = '00000000-0000-0000-0000-000000000000';

/**
 * When an upload's rows are deleted (a purge, or a replace deleting the rows
 * loaded without an upload: NO_UPLOAD), their decisions go with them: the
 * decision counts kept for that upload (shared_item_decisions and
 * reviewer_decision_totals) go too.
 */
export async function dropKeptUploadCounts(db: DbClient, uploadId: string): Promise<void> {
  await db.$executeRaw`DELETE FROM shared_item_decisions WHERE upload_id = ${uploadId}::uuid`;
  await db.$executeRaw`DELETE FROM reviewer_decision_totals WHERE upload_id = ${uploadId}::uuid`;
}

/**
 * How many decisions on live rows these reviewers made in the periods, all,
 * on shared or unique items only, and of a decision kind, leaving out the
 * items of the user ids and roles of `notOf`: sums over the counts kept per
 * reviewer, upload and item (shared_item_decisions, moved by a trigger on
 * decisions) of the live uploads (and rows loaded without one), instead of a
 * count over their decisions. For the shared filter, the periods must be
 * fresh (freshSharedItems).
 */
export async function countKeptReviewerDecisions(
  db: DbClient,
  periodIds: readonly string[],
  shared: string | null,
  decision: string | null,
  reviewerIds: readonly string[],
  notOf: { userIds: readonly string[]; roles: readonly string[] },
): Promise<number> {
  if (!periodIds.length || !reviewerIds.length) return 0;
  const n = keptCountSql('sd', decision);
  const where = Prisma.sql`sd.period_id = ANY(${[...periodIds]}::uuid[]) AND sd.reviewer_id = ANY(${[...reviewerIds]}::uuid[])
       AND (sd.upload_id = ${NO_UPLOAD}::uuid OR sd.upload_id IN (SELECT u.id FROM uploads u WHERE u.live))`;
  const users = Prisma.sql`${[...notOf.userIds]}::text[]`;
  const roles = Prisma.sql`${[...notOf.roles]}::text[]`;
  if (shared) {
    const [r] = await db.$queryRaw<{ n: bigint | null }[]>`
      SELECT sum(${n})::bigint AS n FROM shared_item_decisions sd
        LEFT JOIN shared_items si ON si.period_id = sd.period_id AND si.user_id = sd.user_id AND si.role_profile = sd.role_profile
       WHERE ${where} AND NOT sd.user_id = ANY(${users}) AND NOT sd.role_profile = ANY(${roles}) ${sharedFilterSql(shared)}`;
    return Number(r?.n ?? 0);
  }
  // Without the Shared Roles filter: their totals (a few rows), less the items matched whole (by user, by role).
  const [r] = await db.$queryRaw<{ n: bigint | null }[]>`
    SELECT (SELECT coalesce(sum(${n}), 0) FROM reviewer_decision_totals sd WHERE ${where})
         - (SELECT coalesce(sum(${n}), 0) FROM shared_item_decisions sd WHERE ${where}
             AND (sd.user_id = ANY(${users}) OR sd.role_profile = ANY(${roles}))) AS n`;
  return Number(r?.n ?? 0);
}

export const DECISION_TOTALS = {
  name: 'kept totals',
  tables: ['shared_item_decisions', 'reviewer_decision_totals'],
  freshWhen: 'always: moved in the statement writing the decisions; read over the live uploads only',
  refresh: null,
  countLive: null,
} as const satisfies KeptAggregate;
