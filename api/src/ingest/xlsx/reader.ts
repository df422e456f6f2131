// The .xlsx reader, as a stream, so memory does not grow with the number of
// rows; it yields the same batches as the CSV reader. An .xlsx is checked as
// a zip first (zip.ts): not a zip, or one that inflates out of proportion (a
// zip bomb), is refused before parsing.
//
// yauzl gives the zip directory; the first worksheet is found through the package relationships (_rels/.rels -> workbook.xml -> its
// rels; the part is not assumed to be sheet1.xml). xl/sharedStrings.xml is read
// first (streamed, decoded with a streaming TextDecoder) into an array: its
// size grows with the number of *distinct* strings in the workbook, not with
// rows, but a column of unique values does cost its text once (about 60 MB for
// a million unique 20-character strings; limits.ts caps them, and a cell, a
// row, the columns and a group of records). styles.xml is read only for which
// cell formats are dates. Then the worksheet entry is inflated with zlib as it
// streams from the file and scanned by hand, as bytes: each chunk is scanned
// up to its last complete </row>, and the unfinished rest is kept for the next
// chunk, so a tag or a multibyte UTF-8 character split between chunks is only
// read once it is whole. Each stretch of complete rows is checked as UTF-8,
// and a row's values are decoded with one call. Memory holds one chunk, one
// row group and the shared strings, whatever the number of rows.
// The scanner knows shared strings (t="s"), inline strings (<is><t>, rich-text
// runs <r><t>, phonetic runs <rPh> left out), formula results (t="str", <f>
// ignored), booleans ('true'/'false'), errors (empty), numbers, ISO dates
// (t="d"), XML entities and Excel's _xHHHH_ escapes, CDATA, xml:space, cells
// left out of a row (their column letters in r="..": the gaps become ''), rows
// left out (empty rows are skipped, row numbers come from r="..") and
// namespace prefixes (<x:row>).
// Dates: a number in a cell whose format is a date, or in the column whose
// header maps to Last Executed On, becomes YYYY-MM-DD (Excel serial, 1900 or
// 1904 system); other numbers are written as JavaScript prints them ('42',
// '0.5'), as the exceljs reader used here before gave them.
// Files: zip.ts (the container), workbook.ts (which sheet, shared strings,
// date styles), xml.ts (text and tags), sheet-rows.ts (the row scanner); this
// file feeds the worksheet's chunks to the scanner and hands out batches.
import { asSource, type ByteSource } from '../../db/storage/index.js';
import { isUtf8 } from 'node:buffer';
import { IngestError, closing, type CsvBatch, type CsvReader, type LayoutChoice } from '../csv.js';
import { GROUP_CELLS, GROUP_CHARS, MAX_ELEMENT_CHARS } from '../limits.js';
import { damaged, inflateEntry, openZip } from './zip.js';
import { dateStyles, locateSheet, readSharedStrings } from './workbook.js';
import { byteTags, rootPrefix, type ByteTags } from './xml.js';
import { sheetRows } from './sheet-rows.js';
import type yauzl from 'yauzl';
import type { Zip } from './zip.js';
import { HEADER_MIN_SCORE, headerScore } from '../headers.js';

export async function openXlsx(file: string | ByteSource, batchRows: number, at: LayoutChoice = {}): Promise<CsvReader> {
  const source = asSource(file);
  if ((await source.size()) === 0) throw new IngestError('The file is empty (0 bytes).');
  const z = await openZip(source);
  let closed = false;
  const close = () => {
    if (!closed) {
      closed = true;
      z.zip.close();
    }
  };
  try {
    const wb = await locateSheet(z);
    const shared = await readSharedStrings(z, wb.sharedStrings);
    const dateStyle = dateStyles(wb.styles);
    // The sheet chosen; else the one whose header is recognisable (a workbook
    // may hold a cover or parameters sheet first); with none, the first sheet,
    // refused later. A sheet that fails while its first rows are read is
    // passed over if another has a header; its error is the answer only if it
    // is the one used.
    const open = (k: number) => openSheet(z, wb.sheets[k]!, shared, dateStyle, wb.date1904, at.headerRow);
    const recognised = (x: ReturnType<typeof openSheet>) =>
      !x.failure && (at.headerRow ? !!x.rows.header() : headerScore(x.rows.header() ?? []) >= HEADER_MIN_SCORE);
    const chosen = at.sheet === undefined ? 0 : wb.sheets.findIndex((x) => x.name === at.sheet);
    if (chosen < 0) throw new IngestError(`The workbook has no sheet '${at.sheet}'; its sheets are ${wb.sheets.map((x) => `'${x.name}'`).join(', ')}.`);
    let sheet = open(chosen);
    await sheet.findHeader();
    for (let k = 1; at.sheet === undefined && k < wb.sheets.length && !recognised(sheet); k++) {
      const next = open(k);
      await next.findHeader();
      if (recognised(next)) {
        await sheet.chunks.return(undefined);
        sheet = next;
      } else await next.chunks.return(undefined);
    }
    const { rows, pump, chunks } = sheet;
    const header = rows.header();
    // A bad row below the header: the rows above it are handed over first (a preview shows them).
    if (sheet.failure && !header) throw sheet.failure;
    if (!header && at.headerRow) throw new IngestError(`Sheet '${sheet.name}' has no row ${at.headerRow} or below it to read the header from.`);
    if (!header && at.sheet !== undefined) throw new IngestError(`Sheet '${sheet.name}' is empty.`);
    if (!header) throw new IngestError(wb.sheets.length > 1 ? 'No worksheet of this workbook has a header row.' : 'The first worksheet is empty.');

    // A group ends at batchRows records, or earlier at GROUP_CELLS cells or
    // GROUP_CHARS bytes of the worksheet scanned (wide or long rows).
    const groupRows = Math.min(batchRows, Math.max(1, Math.floor(GROUP_CELLS / header.length)));
    async function* batches(): AsyncGenerator<CsvBatch> {
      try {
        if (sheet.failure) {
          if (rows.waiting()) yield { records: rows.take(), bytesRead: sheet.bytesRead() };
          throw sheet.failure;
        }
        for (;;) {
          const from = sheet.scanned();
          while (rows.waiting() < groupRows && sheet.scanned() - from < GROUP_CHARS && (await pump()));
          if (!rows.waiting()) break;
          const records = rows.take();
          yield { records, bytesRead: sheet.ended() ? z.size : sheet.bytesRead() };
        }
      } finally {
        close();
        await chunks.return(undefined);
      }
    }
    return {
      header,
      delimiter: '',
      encoding: 'xlsx',
      headerRow: rows.headerRow(),
      sheet: sheet.name,
      sheets: wb.sheets.map((x) => x.name),
      batches: closing(batches(), close),
    };
  } catch (e) {
    close();
    throw e;
  }
}

/**
 * One worksheet as it inflates: its row scanner, and pump() to scan its next
 * chunk (false at its end).
 */
function openSheet(z: Zip, ws: { entry: yauzl.Entry; name: string }, shared: string[], dateStyle: boolean[], date1904: boolean, headerAt?: number) {
  const what = `its worksheet${ws.name ? ` '${ws.name}'` : ''}`;
  const sheetStart = ws.entry.relativeOffsetOfLocalHeader;
  let bytesRead = 0;
  const chunks = inflateEntry(z, ws.entry, what, (c) => (bytesRead = Math.min(z.size, sheetStart + c)));
  // Each stretch of complete rows is checked as UTF-8 once (it ends at a
  // '>', so no character is split), then values are decoded without checks.
  const checkUtf8 = (b: Buffer, start: number, end: number) => {
    if (!isUtf8(start === 0 && end === b.length ? b : b.subarray(start, end))) throw damaged(what, `is not valid UTF-8 text (after row ${rows.lastRow()})`);
  };

  const rows = sheetRows(what, shared, dateStyle, date1904, headerAt);
  let ended = false;
  /** Bytes of the worksheet inflated so far. */
  let scanned = 0;
  let tags: ByteTags | undefined;
  /** Bytes after the last complete row, waiting for the next chunk. */
  let pending: Buffer | undefined;

  /** Scans the next chunk of the worksheet; false at its end. */
  const pump = async (): Promise<boolean> => {
    if (ended) return false;
    const n = await chunks.next();
    if (n.done) {
      ended = true;
      const rest = pending ?? Buffer.alloc(0);
      pending = undefined;
      tags ??= byteTags(rootPrefix(rest.toString('latin1', 0, Math.min(rest.length, 64 * 1024))) ?? '');
      checkUtf8(rest, 0, rest.length);
      rows.scan(rest, 0, rest.length, tags);
      if (rest.indexOf(`</${tags.prefix}worksheet>`) < 0) throw damaged(what, `ends early, after row ${rows.lastRow()} (the file may be truncated)`);
      return false;
    }
    let data = n.value;
    scanned += data.length;
    if (!tags) {
      if (pending) data = Buffer.concat([pending, data]);
      pending = undefined;
      const prefix = rootPrefix(data.toString('latin1', 0, Math.min(data.length, 64 * 1024)));
      if (prefix === undefined) {
        if (data.length > MAX_ELEMENT_CHARS) throw damaged(what, 'does not start like a worksheet');
        pending = data;
        return true;
      }
      tags = byteTags(prefix);
    }
    const T = tags;
    let start = 0;
    if (pending) {
      // The row begun in the last chunk is finished in a small buffer; the
      // rest of this chunk is scanned where it is (no copy of the chunk).
      const first = data.indexOf(T.rowEnd);
      if (first < 0) {
        if (pending.length + data.length > MAX_ELEMENT_CHARS) throw damaged(what, `has a row longer than ${MAX_ELEMENT_CHARS / 1024 ** 2} MB`);
        pending = Buffer.concat([pending, data]);
        return true;
      }
      start = first + T.rowEnd.length;
      const head = Buffer.concat([pending, data.subarray(0, start)]);
      pending = undefined;
      checkUtf8(head, 0, head.length);
      rows.scan(head, 0, head.length, T);
    }
    const cut = data.lastIndexOf(T.rowEnd);
    const end = cut + T.rowEnd.length;
    if (cut < 0 || end <= start) {
      if (data.length - start > MAX_ELEMENT_CHARS) throw damaged(what, `has a row longer than ${MAX_ELEMENT_CHARS / 1024 ** 2} MB`);
      pending = data.subarray(start);
      return true;
    }
    checkUtf8(data, start, end);
    rows.scan(data, start, end, T);
    if (end < data.length) pending = data.subarray(end);
    return true;
  };

  /** Reads until the header is found (or the sheet ends, or HEADER_SEARCH_ROWS rows had none). */
  let failure: unknown;
  const findHeader = async () => {
    try {
      while (rows.searching() && (await pump()));
      rows.endHeaderSearch();
    } catch (e) {
      failure = e;
    }
  };
  return {
    name: ws.name,
    rows,
    pump,
    chunks,
    findHeader,
    get failure() {
      return failure;
    },
    ended: () => ended,
    bytesRead: () => bytesRead,
    scanned: () => scanned,
  };
}
