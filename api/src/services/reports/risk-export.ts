// The CSV exports of the risk rows: Export Results (the filtered queue with
// the viewer's own decision) and the dashboard's risk report (one line per
// reviewer decision with its review metadata). SPEC §7 /api/risks/export and
// /api/reports/risk-report.
import { Prisma } from '../../generated/prisma/client.js';
import { copyCsvLines, csvLine, sqlCsvText } from '../../core/csv.js';
import { personLabelSql } from '../../core/people.js';
import { EXPORT_FIELDS } from '../../ingest/columns.js';
import type { Caller } from '../caller.js';
import { holdersOf, holdersTextSql, type Holder } from '../holds.js';
import { PENDING } from '../risk-rules.js';
import { recommendationValueJoins } from '../review/recommendations.js';
import { filterCondition, present, type RiskFilter } from '../review/risks.js';

/** Every column of the export, in the order the CSV writes them (the level as exported). */
export const EXPORT_COLUMNS: [header: string, column: string][] = EXPORT_FIELDS.map((f) => [
  f.header,
  f.column === 'risk_level' ? 'risk_level_label' : f.column,
]);

/**
 * The review metadata after the export's columns: Export Results (the viewer's
 * own decision, and the recommendation the viewer is shown beside the row:
 * advice, never applied).
 */
export const QUEUE_EXPORT_EXTRA = [
  'Decision',
  'Decision Comments',
  'Decided At',
  'Reviewed By',
  'Mitigating Control',
  'Mitigation Expires',
  'Approver Comment',
  'Recommendation',
];
/**
 * The risk report's review metadata (SPEC §7 /api/reports/risk-report): one
 * line per reviewer decision in the decision period (a row two reviewers
 * decided is two lines, each with its reviewer; a row nobody decided is one
 * line, 'pending'), so disagreeing reviewers stay apart and every decision
 * keeps its own reviewer, time, comments, submission and approval. 'Approver
 * Comment' is the approver's comment on the item in the decision's
 * submission; 'Assigned To' who holds the row now by the visibility rule
 * (criteria and single items moved, rowHoldersSql), the same on each of its
 * lines: a decision made stays with its author ('Reviewed By').
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
  'Mitigating Control',
  'Mitigation Expires',
  'Approver Comment',
  'Assigned To',
];

const ISO = (expr: string) => `to_char(${expr} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const NOT_NULL_TEXT = new Set(EXPORT_COLUMNS.map(([, c]) => c).filter((c) => c !== 'last_executed_on' && c !== 'execution_count'));

/** The risk report's metadata cells (RISK_REPORT_EXTRA), over riskReportMetadata's aliases x and hx. */
export const RISK_REPORT_CELLS = [
  `coalesce(x.decision, '${PENDING}')`,
  'x.comments',
  'x.decided_at',
  'x.reviewer',
  'x.submission',
  'x.submitted_at',
  'x.approved_by',
  'x.approved_at',
  'x.period',
  'x.mitigation_control',
  'x.mitigation_expires',
  'x.approver_comment',
  'hx.assigned_to',
];

const person = personLabelSql;

/**
 * The risk report's review metadata of row r (alias x, one line per decision):
 * every reviewer's decision in the period, or only `reviewerId`'s; 'Assigned
 * To' names the `holders` holding the row (holdersOf: every reviewer with work,
 * or only `reviewerId`, so a reviewer's report names no other reviewer). Read per row
 * (LATERAL, by the decisions' risk_row_id index) so the lines come out in row
 * order as the rows are read: no sort of the joined lines, the first bytes go
 * out at once. 'Assigned To' is worked out once a line: OFFSET 0 keeps its
 * subquery from being folded into the select list, where each CSV cell's
 * guard (sqlCsvText) would repeat the whole holders expression. Also the
 * baseline of `npm run bench:reports` (the same joins).
 */
export function riskReportMetadata(periodId: string | null, reviewerId: string | null, holders: Holder[]): Prisma.Sql {
  const byReviewer = reviewerId == null ? Prisma.empty : Prisma.sql`AND v.reviewer_id = ${reviewerId}::uuid`;
  return Prisma.sql`LEFT JOIN LATERAL (
          SELECT v.decision::text AS decision, v.comments, ${Prisma.raw(ISO('v.updated_at'))} AS decided_at, ${Prisma.raw(person('u'))} AS reviewer,
                 coalesce(s.status::text, 'not submitted') AS submission, ${Prisma.raw(ISO('s.submitted_at'))} AS submitted_at,
                 ${Prisma.raw(person('a'))} AS approved_by, CASE WHEN a.id IS NOT NULL THEN ${Prisma.raw(ISO('s.reviewed_at'))} END AS approved_at,
                 p.name AS period, v.mitigation_control, to_char(v.mitigation_expires_at, 'YYYY-MM-DD') AS mitigation_expires,
                 ic.comment AS approver_comment
            FROM decisions v
            JOIN users u ON u.id = v.reviewer_id
            JOIN review_periods p ON p.id = v.period_id
            LEFT JOIN submissions s ON s.id = v.submission_id
            LEFT JOIN users a ON a.id = s.reviewed_by_id AND s.status = 'approved'
            LEFT JOIN submission_item_comments ic ON ic.submission_id = v.submission_id AND ic.risk_row_id = v.risk_row_id
           WHERE v.risk_row_id = r.id AND v.period_id = ${periodId}::uuid ${byReviewer}
           ORDER BY v.updated_at, v.id
        ) x ON TRUE
        CROSS JOIN LATERAL (SELECT ${holdersTextSql(holders)} AS assigned_to OFFSET 0) hx`;
}

/**
 * The filtered rows the viewer may see, as CSV: Export Results (one line per
 * row, with the viewer's own decision) or, with `everyReviewer`, the risk
 * report (one line per reviewer decision, see RISK_REPORT_EXTRA; an
 * administrator sees every reviewer's, a reviewer their own). Every cell is
 * made text by the database (dates as the CSV shows them, not read in the
 * server's time zone; formulas and control characters neutralised, see core/csv.ts). On PostgreSQL the
 * database writes the CSV itself (COPY TO STDOUT); on PGlite, which cannot
 * stream a COPY, batches of 10,000 rows by id, so memory stays flat either way.
 */
export async function* exportRisksCsv(caller: Caller, filter: RiskFilter, opts: { everyReviewer?: boolean } = {}): AsyncGenerator<string | Buffer> {
  const { viewer } = caller;
  const { prisma, db } = caller.deps;
  const user = viewer.user;
  const report = Boolean(opts.everyReviewer);
  const reviewerId = user.role === 'admin' ? null : user.id;
  const [period, { visible }, holders] = await Promise.all([viewer.decisionPeriod(), viewer.scope(), report ? holdersOf(prisma, reviewerId) : []]);
  const where = await filterCondition(prisma, filter, { periodId: period?.id ?? null, viewerId: user.id });
  const periodId = period?.id ?? null;
  const rowCells = EXPORT_COLUMNS.map(([, c]) => (c === 'last_executed_on' ? `to_char(r.${c}, 'YYYY-MM-DD')` : `r.${c}`));
  const extra = report
    ? RISK_REPORT_CELLS
    : [
        `coalesce(d.decision::text, '${PENDING}')`,
        'd.comments',
        ISO('d.updated_at'),
        'u.email',
        'd.mitigation_control',
        `to_char(d.mitigation_expires_at, 'YYYY-MM-DD')`,
        'ic.comment',
        'rec.value',
      ];
  const cells = [...rowCells, ...extra];
  // The export's own text columns are never NULL: no cast, no coalesce.
  const cols = Prisma.raw(cells.map((c, i) => `${sqlCsvText(c, !(c.startsWith('r.') && NOT_NULL_TEXT.has(c.slice(2))))} AS c${i}`).join(', '));
  const own = Prisma.sql`LEFT JOIN decisions d ON d.risk_row_id = r.id AND d.period_id = ${periodId}::uuid AND d.reviewer_id = ${user.id}::uuid`;
  const metadata = riskReportMetadata(periodId, reviewerId, holders);
  const decisionFilter = present(filter.decision) ? own : Prisma.empty;
  const rows = (id: Prisma.Sql, after: Prisma.Sql, limit: Prisma.Sql | null) =>
    !report
      ? Prisma.sql`
      SELECT ${id}${cols}
        FROM risk_rows r ${own}
        LEFT JOIN users u ON u.id = d.reviewer_id
        LEFT JOIN submission_item_comments ic ON ic.submission_id = d.submission_id AND ic.risk_row_id = d.risk_row_id
        ${recommendationValueJoins({ periodId, viewerId: user.id })}
       WHERE ${after} AND ${visible} AND ${where}
       ORDER BY r.id ${limit ?? Prisma.empty}`
      : limit === null
        ? Prisma.sql`
      SELECT ${id}${cols}
        FROM risk_rows r ${decisionFilter} ${metadata}
       WHERE ${after} AND ${visible} AND ${where}
       ORDER BY r.id`
        : // A batch holds whole rows: the limit counts rows, not their lines.
          Prisma.sql`
      SELECT ${id}${cols}
        FROM (SELECT r.* FROM risk_rows r ${decisionFilter} WHERE ${after} AND ${visible} AND ${where} ORDER BY r.id ${limit}) r ${metadata}
       ORDER BY r.id`;
  yield csvLine([...EXPORT_COLUMNS.map(([h]) => h), ...(report ? RISK_REPORT_EXTRA : QUEUE_EXPORT_EXTRA)]);
  if (db.sql.copyOut) {
    const q = rows(Prisma.empty, Prisma.sql`TRUE`, null);
    yield* copyCsvLines(db.sql.copyOut(q.text, q.values));
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
