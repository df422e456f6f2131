// The reviewed population, reconciled per source upload (an analysis run's
// conflicts enter the review as an upload too, named after the run): rows in
// the file → duplicates skipped → rows loaded → rows in scope at the close →
// rows decided (retain, remove, mitigated, default at close) → rows left
// undecided. Every row lost along the way is a difference with its reason, so
//   rowsInFile − duplicatesSkipped = rowsLoaded,
//   rowsInScope = retain + remove + mitigated + defaultAtClose + undecided,
//   rowsInFile − Σ differences.rows = retain + remove + mitigated + defaultAtClose.
// A difference the data cannot explain (rows loaded and live but no longer
// there) is named 'Unexplained: …' and makes the period unreconciled: the
// close dialog says so (GraphQL periodReconciliation) and so does the bundle.
//
// A row decided by several reviewers counts once: as 'default at close' when
// every decision on it was the period's default, else 'remove' when any
// reviewer removed it, else 'mitigated' when any kept it under a control,
// else 'retain' (the strictest decision wins, as remediation reads it).
import { Prisma, type ReviewPeriod } from '../../generated/prisma/client.js';
import type { DbClient } from '../../core/types.js';
import { coverageState } from '../review/coverage.js';
import { LIVE_ROWS } from '../live-rows.js';

/** An upload of the period's scope, as services/reports/evidence.ts lists it (what the reconciliation reads of it). */
export interface ScopeUpload {
  id: string;
  originalName: string;
  status: string;
  recordCount: number;
  duplicatesSkipped: number;
  liveAtClose: boolean;
  supersededAt?: string | null;
  sha256: string | null;
}

export interface ReconciliationEntry {
  uploadId: string | null;
  fileName: string;
  sha256: string | null;
  rowsInFile: number;
  duplicatesSkipped: number;
  rowsLoaded: number;
  rowsInScope: number;
  decided: { retain: number; remove: number; mitigated: number; defaultAtClose: number };
  undecided: number;
  differences: { rows: number; reason: string }[];
}

export interface Reconciliation {
  entries: ReconciliationEntry[];
  /** Rows of differences named 'Unexplained' (0: every difference is explained). */
  unexplainedRows: number;
}

export const UNEXPLAINED = 'Unexplained:';

interface Counted {
  upload_id: string | null;
  in_scope: bigint;
  retain: bigint;
  remove: bigint;
  mitigated: bigint;
  by_default: bigint;
  unassigned: bigint;
  pending: bigint;
}

/**
 * The live rows per upload with how each was decided in the period (one pass over the rows).
 * `nobody` is the coverage's condition for rows no one can review (services/review/coverage.ts):
 * a condition on the row's own columns, so the pass does not look up each undecided row's holders.
 */
function countsSql(periodId: string, nobody: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`
    WITH k AS (
      SELECT d.risk_row_id,
             CASE WHEN bool_and(d.applied_at_close) THEN 'default'
                  WHEN bool_or(d.decision = 'remove') THEN 'remove'
                  WHEN bool_or(d.decision = 'retain_mitigated') THEN 'mitigated'
                  ELSE 'retain' END AS kind
        FROM decisions d WHERE d.period_id = ${periodId}::uuid GROUP BY d.risk_row_id
    )
    SELECT r.upload_id::text AS upload_id, count(*) AS in_scope,
           count(*) FILTER (WHERE k.kind = 'retain') AS retain, count(*) FILTER (WHERE k.kind = 'remove') AS remove,
           count(*) FILTER (WHERE k.kind = 'mitigated') AS mitigated, count(*) FILTER (WHERE k.kind = 'default') AS by_default,
           count(*) FILTER (WHERE k.kind IS NULL AND ${nobody}) AS unassigned,
           count(*) FILTER (WHERE k.kind IS NULL AND NOT ${nobody}) AS pending
      FROM risk_rows r LEFT JOIN k ON k.risk_row_id = r.id
     WHERE ${LIVE_ROWS}
     GROUP BY r.upload_id`;
}

const n = (v: bigint | undefined) => Number(v ?? 0);

/** Why rows loaded from an upload are not in the data at the close (`out` of them). */
function outOfScopeReason(u: ScopeUpload | null, out: number): string {
  if (!u) return `${UNEXPLAINED} rows in scope from an upload the scope does not list`;
  if (u.status === 'failed') return 'The load failed: none of its rows was kept';
  if (u.supersededAt || !u.liveAtClose)
    return `Replaced by a later upload${u.supersededAt ? ` on ${u.supersededAt}` : ''}: its rows left the review before the close`;
  return out > 0 ? `${UNEXPLAINED} rows loaded but no longer in the data at the close` : `${UNEXPLAINED} more rows in the data at the close than were loaded`;
}

/** What an entry says of its source: the upload, rows loaded without one, or an upload the scope does not list. */
function sourceOf(u: ScopeUpload | null, c: Counted | undefined, unlisted: boolean) {
  if (u) return { uploadId: u.id, fileName: u.originalName, sha256: u.sha256, rowsLoaded: u.recordCount, duplicatesSkipped: u.duplicatesSkipped };
  if (unlisted) return { uploadId: c?.upload_id ?? null, fileName: '(an upload missing from the scope)', sha256: null, rowsLoaded: 0, duplicatesSkipped: 0 };
  return { uploadId: null, fileName: '(rows loaded without an upload)', sha256: null, rowsLoaded: n(c?.in_scope), duplicatesSkipped: 0 };
}

/** One upload's entry (`u` null: rows loaded without an upload, or, with `unlisted`, an upload the scope does not list). */
function entryOf(u: ScopeUpload | null, c: Counted | undefined, unlisted = false): ReconciliationEntry {
  const inScope = n(c?.in_scope);
  const unassigned = n(c?.unassigned);
  const pending = n(c?.pending);
  const { rowsLoaded, duplicatesSkipped, ...source } = sourceOf(u, c, unlisted);
  const differences: { rows: number; reason: string }[] = [];
  if (duplicatesSkipped)
    differences.push({ rows: duplicatesSkipped, reason: 'Duplicates of rows already loaded, skipped by the upload (Skip duplicate records)' });
  if (rowsLoaded !== inScope) differences.push({ rows: rowsLoaded - inScope, reason: outOfScopeReason(u, rowsLoaded - inScope) });
  if (unassigned) differences.push({ rows: unassigned, reason: 'In scope but assigned to no reviewer: left undecided' });
  if (pending) differences.push({ rows: pending, reason: 'Assigned to a reviewer but not decided by the close (no default at close applied to them)' });
  return {
    ...source,
    rowsInFile: rowsLoaded + duplicatesSkipped,
    duplicatesSkipped,
    rowsLoaded,
    rowsInScope: inScope,
    decided: { retain: n(c?.retain), remove: n(c?.remove), mitigated: n(c?.mitigated), defaultAtClose: n(c?.by_default) },
    undecided: unassigned + pending,
    differences,
  };
}

/**
 * The period's population reconciled as of now (in the close's transaction:
 * as of the close), one entry per upload of its scope (and one for rows
 * loaded without an upload, when there are any), in the uploads' order.
 */
export async function reconcile(db: DbClient, period: ReviewPeriod, uploads: ScopeUpload[]): Promise<Reconciliation> {
  const counted = await db.$queryRaw<Counted[]>(countsSql(period.id, (await coverageState(db)).nobody));
  const byUpload = new Map(counted.map((c) => [c.upload_id, c]));
  const entries = uploads.map((u) => entryOf(u, byUpload.get(u.id)));
  const unattached = byUpload.get(null);
  if (unattached) entries.push(entryOf(null, unattached));
  // Live rows of an upload the scope does not list (the scope lists every live upload): named, never dropped.
  const listed = new Set(uploads.map((u) => u.id));
  for (const c of counted) if (c.upload_id && !listed.has(c.upload_id)) entries.push(entryOf(null, c, true));
  const unexplainedRows = entries.reduce(
    (sum, e) => sum + e.differences.filter((d) => d.reason.startsWith(UNEXPLAINED)).reduce((s, d) => s + Math.abs(d.rows), 0),
    0,
  );
  return { entries, unexplainedRows };
}
