// The CSV exports of the risk rows: Export Results (the filtered queue with
// the viewer's own decision) and the dashboard's risk report (one line per
// reviewer decision with its review metadata). SPEC §7 /api/risks/export and
// /api/reports/risk-report.
import { Prisma, type PrismaClient } from '../generated/prisma/client.js';
import { crlfLines, csvLine, sqlCsvText } from '../core/csv.js';
import { EXPORT_FIELDS } from '../ingest/columns.js';
import type { Database } from '../db/client.js';
import type { Viewer } from './viewer.js';
import { PENDING } from './risk-rules.js';
import { filterCondition, present, type RiskFilter } from './risks.js';

/** Every column of the export, in the order the CSV writes them (the level as exported). */
export const EXPORT_COLUMNS: [header: string, column: string][] = EXPORT_FIELDS.map((f) => [
  f.header,
  f.column === 'risk_level' ? 'risk_level_label' : f.column,
]);

/** The review metadata after the export's columns: Export Results (the viewer's own decision). */
export const QUEUE_EXPORT_EXTRA = ['Decision', 'Decision Comments', 'Decided At', 'Reviewed By'];
/**
 * The risk report's review metadata (SPEC §7 /api/reports/risk-report): one
 * line per reviewer decision in the decision period (a row two reviewers
 * decided is two lines, each with its reviewer; a row nobody decided is one
 * line, 'pending'), so disagreeing reviewers stay apart and every decision
 * keeps its own reviewer, time, comments, submission and approval.
 */
export const RISK_REPORT_EXTRA = [
  'Decision',
  'Decision Comments',
  'Decided At',
  'Reviewed By',
  'Submission Status',
  'Submitted At',
  'Approved By',
  'Approved At',
  'Review Period',
];

const ISO = (expr: string) => `to_char(${expr} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const NOT_NULL_TEXT = new Set(EXPORT_COLUMNS.map(([, c]) => c).filter((c) => c !== 'last_executed_on' && c !== 'execution_count'));

/**
 * The filtered rows the viewer may see, as CSV: Export Results (one line per
 * row, with the viewer's own decision) or, with `everyReviewer`, the risk
 * report (one line per reviewer decision, see RISK_REPORT_EXTRA; an
 * administrator sees every reviewer's, a reviewer their own). Every cell is
 * made text by the database (dates as the CSV shows them, not read in the
 * server's time zone; formulas neutralised, see sqlCsvText). On PostgreSQL the
 * database writes the CSV itself (COPY TO STDOUT); on PGlite, which cannot
 * stream a COPY, batches of 10,000 rows by id, so memory stays flat either way.
 */
export async function* exportRisksCsv(
  deps: { prisma: PrismaClient; db: Database },
  viewer: Viewer,
  filter: RiskFilter,
  opts: { everyReviewer?: boolean } = {},
): AsyncGenerator<string | Buffer> {
  const { prisma, db } = deps;
  const user = viewer.user;
  const report = Boolean(opts.everyReviewer);
  const [period, { visible }, where] = await Promise.all([viewer.decisionPeriod(), viewer.scope(), filterCondition(prisma, filter)]);
  const periodId = period?.id ?? null;
  const rowCells = EXPORT_COLUMNS.map(([, c]) => (c === 'last_executed_on' ? `to_char(r.${c}, 'YYYY-MM-DD')` : `r.${c}`));
  const extra = report
    ? [
        `coalesce(v.decision::text, '${PENDING}')`,
        'v.comments',
        ISO('v.updated_at'),
        "nullif(trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '') || ' <' || coalesce(u.email, '') || '>'), '<>')",
        "CASE WHEN v.id IS NULL THEN NULL WHEN s.id IS NULL THEN 'not submitted' ELSE s.status::text END",
        ISO('s.submitted_at'),
        "nullif(trim(coalesce(a.first_name, '') || ' ' || coalesce(a.last_name, '') || ' <' || coalesce(a.email, '') || '>'), '<>')",
        `CASE WHEN a.id IS NOT NULL THEN ${ISO('s.reviewed_at')} END`,
        'CASE WHEN v.id IS NOT NULL THEN p.name END',
      ]
    : [`coalesce(d.decision::text, '${PENDING}')`, 'd.comments', ISO('d.updated_at'), 'u.email'];
  const cells = [...rowCells, ...extra];
  // Columns that are never NULL skip the coalesce (a quarter of the CPU of a 1M-row report).
  const cols = Prisma.raw(cells.map((c, i) => `${sqlCsvText(c, !(c.startsWith('r.') && NOT_NULL_TEXT.has(c.slice(2))))} AS c${i}`).join(', '));
  const own = Prisma.sql`LEFT JOIN decisions d ON d.risk_row_id = r.id AND d.period_id = ${periodId}::uuid AND d.reviewer_id = ${user.id}::uuid`;
  // The report: every reviewer's decision for an administrator, else the viewer's own.
  const byReviewer = user.role === 'admin' ? Prisma.empty : Prisma.sql`AND v.reviewer_id = ${user.id}::uuid`;
  const rows = (id: Prisma.Sql, after: Prisma.Sql, limit: Prisma.Sql) =>
    report
      ? Prisma.sql`
      SELECT ${id}${cols}
        FROM (SELECT r.* FROM risk_rows r ${present(filter.decision) ? own : Prisma.empty}
               WHERE ${after} AND ${visible} AND ${where} ORDER BY r.id ${limit}) r
        LEFT JOIN decisions v ON v.risk_row_id = r.id AND v.period_id = ${periodId}::uuid ${byReviewer}
        LEFT JOIN users u ON u.id = v.reviewer_id
        LEFT JOIN submissions s ON s.id = v.submission_id
        LEFT JOIN users a ON a.id = s.reviewed_by_id AND s.status = 'approved'
        LEFT JOIN review_periods p ON p.id = v.period_id
       ORDER BY r.id, v.updated_at, v.id`
      : Prisma.sql`
      SELECT ${id}${cols}
        FROM risk_rows r ${own}
        LEFT JOIN users u ON u.id = d.reviewer_id
       WHERE ${after} AND ${visible} AND ${where}
       ORDER BY r.id ${limit}`;
  yield csvLine([...EXPORT_COLUMNS.map(([h]) => h), ...(report ? RISK_REPORT_EXTRA : QUEUE_EXPORT_EXTRA)]);
  if (db.sql.copyOut) {
    const q = rows(Prisma.empty, Prisma.sql`TRUE`, Prisma.empty);
    yield* crlfLines(db.sql.copyOut(q.text, q.values));
    return;
  }
  let after = '0';
  for (;;) {
    const q = rows(Prisma.sql`r.id::text AS id, `, Prisma.sql`r.id > ${after}::bigint`, Prisma.sql`LIMIT 10000`);
    const batch = await db.sql.query<Record<string, string>>(q.text, q.values);
    if (!batch.length) return;
    let chunk = '';
    for (const row of batch) chunk += csvLine(cells.map((_c, i) => row[`c${i}`]));
    yield chunk;
    after = batch[batch.length - 1]!.id!;
  }
}
