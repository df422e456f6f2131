// Reads a legacy .xls with SheetJS in a child process of its own (started by
// openXls in xls/reader.ts). SheetJS holds the whole workbook in memory (some KB
// per row), so this runs in its own process, with its own heap limit
// (--max-old-space-size, given by the parent): the server keeps the heap cap
// it was started with, and a workbook too large for this heap makes V8 abort
// this process ("JavaScript heap out of memory" on stderr, which the parent
// reads), not the server. A worker thread cannot do this: V8 applies the
// server's heap flags to every isolate of the process, over a worker's limits.
//
// Plain JavaScript, so that it runs under plain node, without the server's
// loader (tsx).
//
// Arguments: file, size (bytes), batchRows, maxRows (0: every row; else only
// each sheet's first maxRows rows are kept as SheetJS reads the workbook, for a
// preview). Messages to the parent (IPC, advanced serialization):
//   { type: 'sheets', sheets: [{ name, rows }] } first: each sheet's first
//                                               non-blank rows ({ rowNo, cells }),
//                                               for the parent to choose the
//                                               sheet and header row
//                                               ({ sheet, headerRow } back)
//   { type: 'header', header, headerRow }      once, after the choice
//   { type: 'batch', records, bytesRead }       one per 'next' from the parent
//   { type: 'end' }                             after the last batch
//   { type: 'error', message }                  a file that cannot be loaded
// The parent asks for each batch with 'next', so at most the batch asked for
// waits in the channel; the rows are made from the sheet a slice at a time,
// so the sheet is not held twice (as cells and as rows) either. After 'end' or
// 'error' this process closes its channel and exits; it also exits when the
// channel is disconnected because the parent closed it or died (noticed once
// the step under way, such as reading the workbook, is done; the parent kills
// this process outright when its reader is closed).
import fs from 'node:fs';
import * as XLSX from 'xlsx';

if (!process.send) {
  console.error('xls-worker.mjs is started by openXls (xls/reader.ts), with an IPC channel.');
  process.exit(2);
}
process.on('disconnect', () => process.exit());

const file = process.argv[2];
const size = Number(process.argv[3]);
const batchRows = Number(process.argv[4]);
const maxRows = Number(process.argv[5]) || 0;
/** Sheet rows turned into arrays at a time. */
const SLICE = Math.max(batchRows, 1000);

class FileError extends Error {}

const notReadable = (e) => new FileError(`This .xls file is not a readable Excel workbook (${e.message}).`);

const text = (v) => (v instanceof Date ? v.toISOString().slice(0, 10) : v === null || v === undefined ? '' : String(v));

function readWorkbook() {
  try {
    const wb = XLSX.read(fs.readFileSync(file), { type: 'buffer', dense: true, cellDates: true, ...(maxRows ? { sheetRows: maxRows } : {}) });
    if (!wb.SheetNames.length) throw new Error('no worksheet');
    return wb;
  } catch (e) {
    throw notReadable(e);
  }
}

/** Rows looked at for the header (HEADER_SEARCH_ROWS in headers.ts). */
const HEAD_ROWS = 50;

/** Each sheet's first non-blank rows, as text. */
function sheetHeads(wb) {
  return wb.SheetNames.map((name) => {
    const rows = [];
    for (const { row, rowNo } of sheetRows(wb.Sheets[name], HEAD_ROWS * 4)) {
      rows.push({ rowNo, cells: row.map(text) });
      if (rows.length >= HEAD_ROWS) break;
    }
    return { name, rows };
  });
}

/**
 * The sheet's non-blank rows as SheetJS gives them (sheet_to_json with
 * header: 1, raw values, '' for empty cells; blank rows left out here, so that
 * each row keeps its number in the sheet), a slice of rows at a time, each
 * with its row number (1-based, as Excel shows it) and how far through the
 * sheet it is (0..1).
 */
function* sheetRows(ws, upTo = Infinity) {
  if (ws == null || ws['!ref'] == null) return;
  let range;
  try {
    range = XLSX.utils.decode_range(ws['!ref']);
  } catch (e) {
    throw notReadable(e);
  }
  const span = range.e.r - range.s.r + 1;
  const end = Math.min(range.e.r, range.s.r + upTo - 1);
  const peek = upTo !== Infinity;
  for (let r = range.s.r; r <= end; r += SLICE) {
    const last = Math.min(r + SLICE - 1, end);
    let rows;
    try {
      rows = XLSX.utils.sheet_to_json(ws, {
        header: 1,
        raw: true,
        defval: '',
        blankrows: true,
        range: { s: { r, c: range.s.c }, e: { r: last, c: range.e.c } },
      });
    } catch (e) {
      throw notReadable(e);
    }
    // The slice's cells are not needed again (dense sheets: an array of rows,
    // the sheet itself in SheetJS 0.18, its '!data' in later versions).
    const data = Array.isArray(ws) ? ws : ws['!data'];
    if (data && !peek) for (let k = r; k <= last; k++) data[k] = undefined;
    for (let k = 0; k < rows.length; k++) {
      const row = rows[k];
      if (row.some((v) => v !== '' && v !== null && v !== undefined)) yield { row, rowNo: r + k + 1, done: (last - range.s.r + 1) / span };
    }
  }
}

function* batches(ws, headerRow) {
  const rows = sheetRows(ws);
  // The header is the first non-blank row from the chosen one (rows above it,
  // a title or report parameters, are skipped); rows keep their numbers.
  let first = rows.next();
  while (!first.done && first.value.rowNo < headerRow) first = rows.next();
  const header = (first.done ? [] : first.value.row).map(text);
  while (header.length && header[header.length - 1] === '') header.pop();
  if (!header.length)
    throw new FileError(headerRow > 1 ? `The sheet has no row ${headerRow} or below it to read the header from.` : 'The first worksheet is empty.');
  yield { type: 'header', header, headerRow: first.value.rowNo };
  let out = [];
  for (const { row, rowNo, done } of rows) {
    const r = row.map(text);
    for (let j = header.length; j < r.length; j++) {
      if (r[j] !== '') throw new FileError(`Row ${rowNo} has values beyond the last header column (${header.length} columns).`);
    }
    out.push({ row: rowNo, fields: header.map((_h, j) => r[j] ?? '') });
    if (out.length >= batchRows) {
      yield { type: 'batch', records: out, bytesRead: Math.round(size * done) };
      out = [];
    }
  }
  if (out.length) yield { type: 'batch', records: out, bytesRead: size };
  yield { type: 'end' };
}

let gen;
let wb;
/**
 * Sends the next message. A file that cannot be loaded is reported as is; any
 * other error as the file not being readable, with its reason.
 */
function step(choice) {
  let m;
  try {
    if (!wb) {
      wb = readWorkbook();
      m = { type: 'sheets', sheets: sheetHeads(wb) };
    } else {
      if (choice) gen = batches(wb.Sheets[wb.SheetNames[choice.sheet]], choice.headerRow);
      if (!gen) throw new Error('no sheet was chosen');
      const n = gen.next();
      m = n.done ? { type: 'end' } : n.value;
    }
  } catch (e) {
    m = { type: 'error', message: e instanceof FileError ? e.message : `This .xls file could not be read: ${e instanceof Error ? e.message : String(e)}` };
  }
  const last = m.type === 'end' || m.type === 'error';
  if (last) process.off('message', onMessage);
  // The channel is closed once the last message has been written to it.
  process.send(m, (err) => {
    if ((err || last) && process.connected) process.disconnect();
  });
}

function onMessage(m) {
  if (m === 'next') step();
  else if (m && typeof m === 'object' && 'sheet' in m) step(m);
}

process.on('message', onMessage);
step();
