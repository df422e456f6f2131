// Reads a legacy .xls with SheetJS in a worker thread (started by openXls in
// tables.ts). SheetJS holds the whole workbook in memory (some KB per row), so
// this runs on the worker's own heap, with its own limit: a workbook too large
// for it ends the worker (ERR_WORKER_OUT_OF_MEMORY), not the server.
//
// Plain JavaScript, so that it runs the same under plain node and under tsx
// (a worker thread does not inherit tsx's in-process registration).
//
// workerData: { file, size, batchRows }. Messages to the parent:
//   { type: 'header', header }                 once, first
//   { type: 'batch', records, bytesRead }       one per 'next' from the parent
//   { type: 'end' }                             after the last batch
//   { type: 'error', message }                  a file that cannot be loaded
// The parent asks for each batch with 'next', so at most the batch asked for
// waits in the message queue; the rows are made from the sheet a slice at a
// time, so the sheet is not held twice (as cells and as rows) either.
import fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import XLSX from 'xlsx';

const { file, size, batchRows } = workerData;
/** Sheet rows turned into arrays at a time. */
const SLICE = Math.max(batchRows, 1000);

class FileError extends Error {}

const notReadable = (e) => new FileError(`This .xls file is not a readable Excel workbook (${e.message}).`);

const text = (v) => (v instanceof Date ? v.toISOString().slice(0, 10) : v === null || v === undefined ? '' : String(v));

function firstSheet() {
  try {
    const wb = XLSX.read(fs.readFileSync(file), { type: 'buffer', dense: true, cellDates: true });
    const ws = wb.Sheets[wb.SheetNames[0]];
    if (!ws) throw new Error('no worksheet');
    return ws;
  } catch (e) {
    throw notReadable(e);
  }
}

/**
 * The sheet's non-blank rows as SheetJS gives them (sheet_to_json with
 * header: 1, raw values, '' for empty cells, blank rows left out), a slice of
 * rows at a time, each with how far through the sheet it is (0..1).
 */
function* sheetRows(ws) {
  if (ws['!ref'] == null) return;
  let range;
  try {
    range = XLSX.utils.decode_range(ws['!ref']);
  } catch (e) {
    throw notReadable(e);
  }
  const span = range.e.r - range.s.r + 1;
  for (let r = range.s.r; r <= range.e.r; r += SLICE) {
    const last = Math.min(r + SLICE - 1, range.e.r);
    let rows;
    try {
      rows = XLSX.utils.sheet_to_json(ws, { header: 1, raw: true, defval: '', blankrows: false, range: { s: { r, c: range.s.c }, e: { r: last, c: range.e.c } } });
    } catch (e) {
      throw notReadable(e);
    }
    // The slice's cells are not needed again (dense sheets: an array of rows,
    // the sheet itself in SheetJS 0.18, its '!data' in later versions).
    const data = Array.isArray(ws) ? ws : ws['!data'];
    if (data) for (let k = r; k <= last; k++) data[k] = undefined;
    for (const row of rows) yield { row, done: (last - range.s.r + 1) / span };
  }
}

function* batches(ws) {
  const rows = sheetRows(ws);
  // The header is the first non-blank row; data rows are numbered from it
  // (row 2 is the first row after the header).
  const first = rows.next();
  const header = (first.done ? [] : first.value.row).map(text);
  while (header.length && header[header.length - 1] === '') header.pop();
  if (!header.length) throw new FileError('The first worksheet is empty.');
  yield { type: 'header', header };
  let out = [];
  let i = 0;
  for (const { row, done } of rows) {
    i++;
    const r = row.map(text);
    for (let j = header.length; j < r.length; j++) {
      if (r[j] !== '') throw new FileError(`Row ${i + 1} has values beyond the last header column (${header.length} columns).`);
    }
    out.push({ row: i + 1, fields: header.map((_h, j) => r[j] ?? '') });
    if (out.length >= batchRows) {
      yield { type: 'batch', records: out, bytesRead: Math.round(size * done) };
      out = [];
    }
  }
  if (out.length) yield { type: 'batch', records: out, bytesRead: size };
  yield { type: 'end' };
}

let gen;
/** Posts the next message; a file that cannot be loaded is reported, anything else ends the worker with its error. */
function step() {
  let m;
  try {
    gen ??= batches(firstSheet());
    const n = gen.next();
    m = n.done ? { type: 'end' } : n.value;
  } catch (e) {
    if (!(e instanceof FileError)) throw e;
    m = { type: 'error', message: e.message };
  }
  parentPort.postMessage(m);
  if (m.type === 'end' || m.type === 'error') parentPort.off('message', onMessage);
}

function onMessage(m) {
  if (m === 'next') step();
}

parentPort.on('message', onMessage);
step();
