// A run's conflict rows as a workbook: one sheet, the risk report's columns
// (ingest/columns.ts, the same as conflicts.csv), so the file loads back
// through Data Upload unchanged. Written as a stream by the project's XLSX
// writer (exceljs, as the evidence file): rows are committed a batch at a
// time, so memory stays flat. Cells are text (a spreadsheet never runs a text
// cell as a formula) without unsafe control characters; Execution Count is a
// number where the row has one.
import type { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { Caller } from '../caller.js';
import { neutralizeText } from '../../core/validation.js';
import { EXPORT_FIELDS } from '../../ingest/columns.js';
import { CONFLICT_CSV_HEADERS, conflictTextRows } from './conflicts.js';

const COUNT_COLUMN = EXPORT_FIELDS.findIndex((f) => f.column === 'execution_count');

/** Writes the run's rows to `out` (ends it). */
export async function writeConflictsXlsx(caller: Caller, runId: string, out: Writable): Promise<void> {
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: false, useStyles: true });
  wb.creator = 'GRC Platform';
  const ws = wb.addWorksheet('Conflicts', { views: [{ state: 'frozen', ySplit: 1 }] });
  ws.columns = CONFLICT_CSV_HEADERS.map((header) => ({ header, width: Math.max(12, header.length + 4) }));
  ws.getRow(1).font = { bold: true };
  ws.getRow(1).commit();
  for await (const batch of conflictTextRows(caller, runId)) {
    for (const cells of batch) {
      ws.addRow(cells.map((v, i) => (i === COUNT_COLUMN && v !== '' ? Number(v) : neutralizeText(v)))).commit();
    }
  }
  ws.commit();
  await wb.commit();
}
