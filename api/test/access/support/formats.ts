// An extract's tables written the ways SAP users download them: SE16's
// 'unconverted' list (title lines, ruled lines, '|'-separated padded cells)
// and the spreadsheet (XLSX) download, with dates as date cells and numbers
// as numbers; and a .zip of such files under any name.
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { ESTATE_COLUMNS, type Row } from '../../../../scripts/access-estate.js';

const NUMBERS = new Set(['UFLAG', 'COUNT']);
const DATES = new Set(['GLTGV', 'GLTGB', 'FROM_DAT', 'TO_DAT', 'LAST_USED']);

export interface ListOptions {
  /** Rows after which the list breaks to a new page (its title and header again). */
  pageBreakAfter?: number;
  /** The ruled line under the header as ALV lists draw it ('|----+----|'). */
  innerRule?: boolean;
}

/** A table as SE16's unconverted list: numbers right-aligned, text left-aligned, every cell padded. */
export function se16List(table: string, rows: Row[], opts: ListOptions = {}): string {
  const cols = ESTATE_COLUMNS[table]!;
  const widths = cols.map((c) => Math.max(c.length, ...rows.map((r) => (r[c] ?? '').length)) + 1);
  const line = (cells: string[]) =>
    '|' + cells.map((v, i) => (NUMBERS.has(cols[i]!) ? ` ${v.padStart(widths[i]!)}` : ` ${v.padEnd(widths[i]!)}`)).join('|') + '|';
  const width = line(cols).length;
  const rule = '-'.repeat(width);
  const inner = '|' + widths.map((w) => '-'.repeat(w + 1)).join('+') + '|';
  const head = [
    `07.12.2026                 Dynamic List Display                   1`,
    '',
    `Table:          ${table}`,
    `Displayed Fields:  ${cols.length} of  ${cols.length}  Fixed Columns:  1  List Width 0250`,
    '',
    rule,
    line(cols),
    opts.innerRule ? inner : rule,
  ];
  const out = [...head];
  rows.forEach((r, i) => {
    out.push(line(cols.map((c) => r[c] ?? '')));
    if (opts.pageBreakAfter && i + 1 === opts.pageBreakAfter && i + 1 < rows.length) out.push(rule, '', ...head);
  });
  out.push(rule);
  return out.join('\r\n') + '\r\n';
}

/** A table as the spreadsheet download: field names in row 1, dates as date cells (initial dates empty), numbers as numbers. */
export async function xlsxTable(table: string, rows: Row[]): Promise<Buffer> {
  const cols = ESTATE_COLUMNS[table]!;
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet(table);
  ws.addRow(cols);
  for (const r of rows) {
    ws.addRow(
      cols.map((c) => {
        const v = r[c] ?? '';
        if (DATES.has(c) && /^\d{8}$/.test(v)) return /^0+$/.test(v) ? null : new Date(Date.UTC(+v.slice(0, 4), +v.slice(4, 6) - 1, +v.slice(6, 8)));
        if (NUMBERS.has(c) && /^\d+$/.test(v)) return Number(v);
        return v;
      }),
    );
  }
  cols.forEach((c, i) => {
    if (DATES.has(c)) ws.getColumn(i + 1).numFmt = 'dd.mm.yyyy';
  });
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** Files (name -> content) as a .zip. */
export async function filesZip(files: Record<string, string | Buffer>): Promise<Buffer> {
  const zip = new JSZip();
  for (const [name, content] of Object.entries(files)) zip.file(name, content);
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}
