// Conflicts that join or leave the active review period after it started
// (an upload or an analysis run sent to the review goes live mid-period):
// - new: a row is new since the time it joined the period, when that is after
//   the period started (its start date, or its creation if later: rows present
//   when it began are not new). An 'append' upload's rows join at its
//   completion, read from the upload (nothing is written per row, so a large
//   append costs nothing more); a 'replace' upload records the rows whose
//   conflict (equal export columns, the row_hash carryOverDecisions matches
//   by) was not in the data it replaced, and carries an earlier arrival of an
//   equal row forward (period_row_arrivals).
// - resolved before decision: a conflict pending in the period (no decision
//   on its row) that a 'replace' upload no longer contains leaves the review:
//   it is no longer live, so it is no reviewer's pending work, and what names
//   it is copied (period_resolved_rows) for the period's evidence, since its
//   row is purged with the replaced data.
// Both are set-based statements in the upload's going-live transaction, and
// only while a period is active.
import { Prisma, type ReviewPeriod } from '../../generated/prisma/client.js';
import type { ConflictRowFields } from '../risk-rules.js';
import type { DbClient } from '../../core/types.js';
import { LIVE_ROWS } from '../live-rows.js';

/** What an upload going live brought into the active period: the batch its reviewers are told of. */
export interface PeriodBatch {
  periodId: string;
  periodName: string;
  uploadId: string;
  uploadName: string;
  /** When the batch joined the period (the upload's completion). */
  joinedAt: Date;
  /** The rows of the batch that are new to the period (alias r, without LIVE_ROWS). */
  newRows: Prisma.Sql;
}

/** When a period began for 'new since': its start date, or its creation if that was later. */
export const periodBegan = (p: Pick<ReviewPeriod, 'startDate' | 'createdAt'>): Date => (p.startDate > p.createdAt ? p.startDate : p.createdAt);

/**
 * In an upload's going-live transaction, before a 'replace' takes the earlier
 * data out of use (those rows are still the live ones): records what the
 * upload changes in the active period, and returns the batch of new rows
 * (null when no period is active). `joinedAt` is the upload's completion.
 */
export async function recordPeriodChanges(
  tx: DbClient,
  up: { id: string; mode: 'append' | 'replace'; originalName: string },
  joinedAt: Date,
): Promise<PeriodBatch | null> {
  const period = await tx.reviewPeriod.findFirst({ where: { status: 'active' } });
  if (!period) return null;
  const batch = { periodId: period.id, periodName: period.name, uploadId: up.id, uploadName: up.originalName, joinedAt };
  // Every row of an append is new to the period (read from the upload: newSinceOf).
  if (up.mode === 'append') return { ...batch, newRows: Prisma.sql`r.upload_id = ${up.id}::uuid` };
  const began = periodBegan(period);
  // Rows whose conflict the replaced data did not have: new now.
  await tx.$executeRaw`
    INSERT INTO period_row_arrivals (risk_row_id, period_id, joined_at)
    SELECT n.id, ${period.id}::uuid, ${joinedAt} FROM risk_rows n
     WHERE n.upload_id = ${up.id}::uuid
       AND NOT EXISTS (SELECT 1 FROM risk_rows r WHERE r.row_hash = n.row_hash AND ${LIVE_ROWS})`;
  // Rows equal to a row that had joined the period: they keep its arrival.
  await tx.$executeRaw`
    WITH carried AS (
      SELECT r.row_hash, a.joined_at FROM period_row_arrivals a JOIN risk_rows r ON r.id = a.risk_row_id
       WHERE a.period_id = ${period.id}::uuid AND ${LIVE_ROWS}
      UNION ALL
      SELECT r.row_hash, u.completed_at FROM uploads u JOIN risk_rows r ON r.upload_id = u.id
       WHERE u.live AND u.mode = 'append' AND u.completed_at > ${began})
    INSERT INTO period_row_arrivals (risk_row_id, period_id, joined_at)
    SELECT n.id, ${period.id}::uuid, min(c.joined_at) FROM risk_rows n JOIN carried c ON c.row_hash = n.row_hash
     WHERE n.upload_id = ${up.id}::uuid
     GROUP BY n.id
    ON CONFLICT (risk_row_id) DO NOTHING`;
  // Pending conflicts the new data no longer has: resolved before decision.
  await tx.$executeRaw`
    INSERT INTO period_resolved_rows (period_id, upload_id, user_id, user_name, access_risk_id, risk_description, risk_level, system,
                                      role_profile, composite_business_role, resolved_at)
    SELECT ${period.id}::uuid, ${up.id}::uuid, r.user_id, r.user_name, r.access_risk_id, r.risk_description, r.risk_level, r.system,
           r.role_profile, r.composite_business_role, ${joinedAt}
      FROM risk_rows r
     WHERE ${LIVE_ROWS}
       AND NOT EXISTS (SELECT 1 FROM decisions d WHERE d.period_id = ${period.id}::uuid AND d.risk_row_id = r.id)
       AND NOT EXISTS (SELECT 1 FROM risk_rows n WHERE n.upload_id = ${up.id}::uuid AND n.row_hash = r.row_hash)`;
  return {
    ...batch,
    newRows: Prisma.sql`r.upload_id = ${up.id}::uuid AND EXISTS (SELECT 1 FROM period_row_arrivals a
                         WHERE a.risk_row_id = r.id AND a.period_id = ${period.id}::uuid AND a.joined_at = ${joinedAt})`,
  };
}

/**
 * Since when each of these rows is new in the period (only the rows that
 * joined it after it began; an absent id is not new). For one page of a
 * queue: one query by id.
 */
export async function newSinceOf(db: DbClient, period: ReviewPeriod | null, ids: readonly bigint[]): Promise<Map<bigint, Date>> {
  if (!period || period.status !== 'active' || !ids.length) return new Map();
  const rows = await db.$queryRaw<{ id: bigint; t: Date | null }[]>`
    SELECT r.id, coalesce(a.joined_at, CASE WHEN u.mode = 'append' AND u.completed_at > ${periodBegan(period)} THEN u.completed_at END) AS t
      FROM risk_rows r
      LEFT JOIN period_row_arrivals a ON a.risk_row_id = r.id AND a.period_id = ${period.id}::uuid
      LEFT JOIN uploads u ON u.id = r.upload_id
     WHERE r.id = ANY(${[...ids]}::bigint[])`;
  return new Map(rows.filter((r) => r.t).map((r) => [BigInt(r.id), new Date(r.t!)]));
}

/** A conflict resolved before decision, as the evidence names it. */
export interface ResolvedConflict extends ConflictRowFields {
  compositeBusinessRole: string;
  /** When the upload that no longer contained it went live. */
  resolvedAt: string;
}

/** How many of a period's resolved conflicts the evidence lists one by one (the count is always whole). */
export const RESOLVED_LISTED = 10_000;

/** A period's conflicts resolved before decision: how many, and the first RESOLVED_LISTED of them in the order they went. */
export async function resolvedBeforeDecision(db: DbClient, periodId: string): Promise<{ count: number; rows: ResolvedConflict[] }> {
  const [count, rows] = await Promise.all([
    db.periodResolvedRow.count({ where: { periodId } }),
    db.periodResolvedRow.findMany({ where: { periodId }, orderBy: { id: 'asc' }, take: RESOLVED_LISTED }),
  ]);
  return {
    count,
    rows: rows.map((r) => ({
      userId: r.userId,
      userName: r.userName,
      accessRiskId: r.accessRiskId,
      riskDescription: r.riskDescription,
      riskLevel: r.riskLevel,
      system: r.system,
      roleProfile: r.roleProfile,
      compositeBusinessRole: r.compositeBusinessRole,
      resolvedAt: r.resolvedAt.toISOString(),
    })),
  };
}
