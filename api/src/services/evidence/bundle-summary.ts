// The human-readable summary inside an evidence bundle (summary.xlsx),
// written as a stream like the evidence workbook (services/reports/evidence-export.ts):
// every value text or a number, never a formula, without unsafe control characters.
import type { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { workbookCell } from '../../core/validation.js';
import { UPLOAD_COLUMNS, summaryRows, type EvidenceScope } from '../reports/evidence.js';
import type { ChangeCounts } from './bundle-entries.js';

const cell = workbookCell;

/**
 * The human-readable summary inside an evidence bundle (summary.xlsx): the
 * Summary sheet, the reconciliation of the population per upload with its
 * differences, the uploads in scope, and what changed since the previous
 * version. The bundle's line files hold every decision and event.
 */
export async function writeBundleSummaryXlsx(scope: EvidenceScope, changes: ChangeCounts | null, out: Writable): Promise<void> {
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: false, useStyles: true });
  wb.creator = 'GRC Platform';
  wb.created = new Date(scope.asOf);
  wb.modified = new Date(scope.asOf);
  const sheet = (name: string, headers: string[], rows: unknown[][]) => {
    const ws = wb.addWorksheet(name, { views: [{ state: 'frozen', ySplit: 1 }] });
    ws.columns = headers.map((h) => ({ header: h, width: Math.max(14, Math.min(60, h.length + 6)) }));
    ws.getRow(1).font = { bold: true };
    ws.getRow(1).commit();
    for (const r of rows) ws.addRow(r.map(cell)).commit();
    ws.commit();
  };
  const recon = scope.reconciliation;
  sheet(
    'Summary',
    ['Item', 'Value'],
    [
      ['Bundle version', scope.version ?? ''],
      ...summaryRows(scope),
      ['Population reconciled', recon ? (recon.unexplainedRows ? `no: ${recon.unexplainedRows} rows differ without an explanation` : 'yes') : 'not recorded'],
    ],
  );
  sheet(
    'Reconciliation',
    [
      'Upload ID',
      'File',
      'Rows in File',
      'Duplicates Skipped',
      'Rows Loaded',
      'Rows in Scope',
      'Retained',
      'Removed',
      'Mitigated',
      'Default at Close',
      'Undecided',
      'Differences',
    ],
    (recon?.entries ?? []).map((e) => [
      e.uploadId,
      e.fileName,
      e.rowsInFile,
      e.duplicatesSkipped,
      e.rowsLoaded,
      e.rowsInScope,
      e.decided.retain,
      e.decided.remove,
      e.decided.mitigated,
      e.decided.defaultAtClose,
      e.undecided,
      e.differences.map((d) => `${d.rows}: ${d.reason}`).join('; '),
    ]),
  );
  sheet(
    'Scope',
    UPLOAD_COLUMNS.map(([h]) => h),
    scope.uploads.map((u) => UPLOAD_COLUMNS.map(([, k]) => u[k])),
  );
  if (changes) {
    sheet(
      'Changes',
      ['Change', 'Count'],
      [
        [`Since version`, changes.sinceVersion],
        ['Decisions changed', changes.decisionsChanged],
        ['Decisions added', changes.decisionsAdded],
        ['Decisions removed', changes.decisionsRemoved],
        ...changes.rowsInScope.map((c) => [`Rows in scope of ${c.fileName}`, `${c.before} → ${c.after}`]),
      ],
    );
  }
  await wb.commit();
}
