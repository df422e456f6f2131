// Excel workbooks as tables: .xlsx read as a stream (exceljs), so memory does
// not grow with the file; legacy .xls through SheetJS (it reads the whole
// workbook, so those files are capped). Both yield the same batches as the
// CSV reader. An .xlsx is checked as a zip first: not a zip, or one that
// inflates out of proportion (a zip bomb), is refused before parsing.
import fs from 'node:fs';
import yauzl from 'yauzl';
import ExcelJS from 'exceljs';
import { IngestError, type CsvBatch, type CsvReader } from './csv.js';

/** An .xlsx whose parts inflate past this, or past this ratio, is refused. */
const MAX_INFLATED_BYTES = 8 * 1024 ** 3;
const MAX_RATIO = 200;
const MAX_XLS_BYTES = 100 * 1024 ** 2;

async function checkZip(file: string): Promise<void> {
  const compressed = (await fs.promises.stat(file)).size;
  const total = await new Promise<number>((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true, autoClose: true }, (err, zip) => {
      if (err || !zip) return reject(new IngestError('This .xlsx file is not a valid Excel workbook (it is not a zip archive). Save it again from Excel, or export the report as CSV.'));
      let sum = 0;
      zip.on('entry', (e: yauzl.Entry) => {
        sum += e.uncompressedSize;
        zip.readEntry();
      });
      zip.on('end', () => resolve(sum));
      zip.on('error', () => reject(new IngestError('This .xlsx file is damaged: its zip directory cannot be read.')));
      zip.readEntry();
    });
  });
  if (total > MAX_INFLATED_BYTES || (compressed > 0 && total / compressed > MAX_RATIO && total > 100 * 1024 ** 2)) {
    throw new IngestError(
      `This .xlsx file would inflate to ${(total / 1024 ** 3).toFixed(1)} GB from ${(compressed / 1024 ** 2).toFixed(1)} MB; it was refused as a possible zip bomb.`,
    );
  }
}

function cellText(v: ExcelJS.CellValue): string {
  if (v === null || v === undefined) return '';
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  if (typeof v === 'object') {
    const o = v as { richText?: { text: string }[]; text?: unknown; result?: unknown; error?: string };
    if (o.richText) return o.richText.map((r) => r.text).join('');
    if ('result' in o) return cellText(o.result as ExcelJS.CellValue);
    if (o.text !== undefined) return cellText(o.text as ExcelJS.CellValue);
    if (o.error) return '';
    return String(v);
  }
  return String(v);
}

export async function openXlsx(file: string, batchRows: number): Promise<CsvReader> {
  if ((await fs.promises.stat(file)).size === 0) throw new IngestError('The file is empty (0 bytes).');
  await checkZip(file);
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(file, {
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'ignore',
    worksheets: 'emit',
    entries: 'emit',
  });
  const sheets = reader[Symbol.asyncIterator]();
  const first = await sheets.next().catch((e: Error) => {
    throw new IngestError(`This .xlsx file cannot be read: ${e.message}`);
  });
  if (first.done) throw new IngestError('The workbook has no worksheet.');
  const rows = (first.value as AsyncIterable<ExcelJS.Row>)[Symbol.asyncIterator]();
  const toFields = (r: ExcelJS.Row, width: number) => {
    const values = r.values as ExcelJS.CellValue[];
    const out: string[] = [];
    for (let i = 1; i <= width; i++) out.push(cellText(values[i]));
    return out;
  };
  // The header is the first non-empty row.
  let header: string[] | undefined;
  for (;;) {
    const n = await rows.next();
    if (n.done) break;
    const r = n.value;
    const vals = (r.values as ExcelJS.CellValue[]).slice(1).map(cellText);
    while (vals.length && vals[vals.length - 1] === '') vals.pop();
    if (vals.length) {
      header = vals;
      break;
    }
  }
  if (!header) throw new IngestError('The first worksheet is empty.');
  const width = header.length;
  const size = (await fs.promises.stat(file)).size;
  async function* batches(): AsyncGenerator<CsvBatch> {
    let out: { row: number; fields: string[] }[] = [];
    for (;;) {
      const n = await rows.next();
      if (n.done) break;
      const r = n.value;
      const fields = toFields(r, width);
      const extra = (r.values as ExcelJS.CellValue[]).slice(width + 1).some((v) => cellText(v) !== '');
      if (extra) throw new IngestError(`Row ${r.number} has values beyond the last header column (${width} columns).`);
      if (fields.every((f) => f === '')) continue;
      out.push({ row: r.number, fields });
      if (out.length >= batchRows) {
        // The zip is inflated as it streams; bytes of the file read so far are not known here.
        yield { records: out, bytesRead: 0 };
        out = [];
      }
    }
    if (out.length) yield { records: out, bytesRead: size };
  }
  return { header, delimiter: '', encoding: 'xlsx', batches: batches() };
}

export async function openXls(file: string, batchRows: number): Promise<CsvReader> {
  const size = (await fs.promises.stat(file)).size;
  if (size === 0) throw new IngestError('The file is empty (0 bytes).');
  if (size > MAX_XLS_BYTES) {
    throw new IngestError('Legacy .xls files over 100 MB cannot be loaded (the format must be read whole); save it as .xlsx or CSV.');
  }
  const XLSX = (await import('xlsx')).default;
  let rows: unknown[][];
  try {
    const wb = XLSX.read(await fs.promises.readFile(file), { type: 'buffer', dense: true, cellDates: true });
    const ws = wb.Sheets[wb.SheetNames[0]!];
    if (!ws) throw new Error('no worksheet');
    rows = XLSX.utils.sheet_to_json(ws, { header: 1, raw: true, defval: '', blankrows: false });
  } catch (e) {
    throw new IngestError(`This .xls file is not a readable Excel workbook (${(e as Error).message}).`);
  }
  const text = (v: unknown) => (v instanceof Date ? v.toISOString().slice(0, 10) : v === null || v === undefined ? '' : String(v));
  const header = (rows[0] ?? []).map(text);
  while (header.length && header[header.length - 1] === '') header.pop();
  if (!header.length) throw new IngestError('The first worksheet is empty.');
  async function* batches(): AsyncGenerator<CsvBatch> {
    let out: { row: number; fields: string[] }[] = [];
    for (let i = 1; i < rows.length; i++) {
      const r = rows[i]!.map(text);
      if (r.slice(header.length).some((v) => v !== '')) throw new IngestError(`Row ${i + 1} has values beyond the last header column (${header.length} columns).`);
      out.push({ row: i + 1, fields: header.map((_h, j) => r[j] ?? '') });
      if (out.length >= batchRows) {
        yield { records: out, bytesRead: Math.round((size * i) / rows.length) };
        out = [];
      }
    }
    if (out.length) yield { records: out, bytesRead: size };
  }
  return { header, delimiter: '', encoding: 'xls', batches: batches() };
}
