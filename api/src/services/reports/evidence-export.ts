// The auditor evidence as files: an XLSX workbook with one sheet per part
// (Summary, Decisions, Audit Trail, Scope), written as a stream (exceljs'
// streaming writer: rows are committed as they come, so memory stays flat),
// and the same parts as one CSV, each part under a title line and separated
// by an empty line. Every value is written as text or a number, never as a
// formula (XLSX), without unsafe control characters; CSV cells are neutralised
// (core/csv.ts).
import type { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { csvLine } from '../../core/csv.js';
import { workbookCell } from '../../core/validation.js';
import { AUDIT_COLUMNS, DECISION_COLUMNS, UPLOAD_COLUMNS, summaryRows } from './evidence.js';
import type { Evidence } from './period-evidence.js';

export const EVIDENCE_FORMATS = ['xlsx', 'csv'] as const;
export type EvidenceFormat = (typeof EVIDENCE_FORMATS)[number];

/** A file name for the download: the period's name made safe, and the date of the evidence. */
export function evidenceFileName(e: Evidence, format: EvidenceFormat): string {
  const name =
    e.scope.period.name
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'period';
  return `evidence-${name}-${e.scope.asOf.slice(0, 10)}.${format}`;
}

export async function* evidenceCsv(e: Evidence): AsyncGenerator<string> {
  yield csvLine(['Summary']);
  yield csvLine(['Item', 'Value']);
  for (const row of summaryRows(e.scope)) yield csvLine(row);
  yield '\r\n' + csvLine(['Decisions']);
  yield csvLine(DECISION_COLUMNS.map(([h]) => h));
  for await (const batch of e.decisions()) yield batch.map((r) => csvLine(DECISION_COLUMNS.map(([, k]) => r[k]))).join('');
  yield '\r\n' + csvLine(['Audit Trail']);
  yield csvLine(AUDIT_COLUMNS.map(([h]) => h));
  for await (const batch of e.audit()) yield batch.map((r) => csvLine(AUDIT_COLUMNS.map(([, k]) => r[k]))).join('');
  yield '\r\n' + csvLine(['Scope']);
  yield csvLine(UPLOAD_COLUMNS.map(([h]) => h));
  for (const u of e.scope.uploads) yield csvLine(UPLOAD_COLUMNS.map(([, k]) => workbookCell(u[k])));
}

/** Writes the workbook to `out` (ends it). */
export async function writeEvidenceXlsx(e: Evidence, out: Writable): Promise<void> {
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: false, useStyles: true });
  wb.creator = 'GRC Platform';
  wb.created = new Date(e.scope.asOf);
  wb.modified = new Date(e.scope.asOf);
  const sheet = (name: string, headers: string[], widths: number[]) => {
    const ws = wb.addWorksheet(name, { views: [{ state: 'frozen', ySplit: 1 }] });
    ws.columns = headers.map((h, i) => ({ header: h, width: widths[i] ?? 18 }));
    ws.getRow(1).font = { bold: true };
    ws.getRow(1).commit();
    return ws;
  };
  const summary = sheet('Summary', ['Item', 'Value'], [36, 90]);
  for (const row of summaryRows(e.scope)) summary.addRow(row.map(workbookCell)).commit();
  summary.commit();
  const decisions = sheet(
    'Decisions',
    DECISION_COLUMNS.map(([h]) => h),
    DECISION_COLUMNS.map(([, k]) => (k === 'riskDescription' || k === 'comments' ? 40 : 20)),
  );
  for await (const batch of e.decisions()) for (const r of batch) decisions.addRow(DECISION_COLUMNS.map(([, k]) => workbookCell(r[k]))).commit();
  decisions.commit();
  const audit = sheet(
    'Audit Trail',
    AUDIT_COLUMNS.map(([h]) => h),
    [10, 26, 36, 24, 16, 38, 50, 50, 16],
  );
  for await (const batch of e.audit()) for (const r of batch) audit.addRow(AUDIT_COLUMNS.map(([, k]) => workbookCell(r[k]))).commit();
  audit.commit();
  const scope = sheet(
    'Scope',
    UPLOAD_COLUMNS.map(([h]) => h),
    [38, 30, 12, 10, 12, 12, 36, 26, 26, 12, 66],
  );
  for (const u of e.scope.uploads) scope.addRow(UPLOAD_COLUMNS.map(([, k]) => workbookCell(u[k]))).commit();
  scope.commit();
  await wb.commit();
}
