// Excel workbooks as tables: .xlsx read as a stream by our own reader, so
// memory does not grow with the number of rows; legacy .xls through SheetJS,
// in a child process with its own heap (SheetJS reads the whole workbook, so
// those files are capped, and a workbook too large for that heap fails its
// upload, not the server). Both yield the same batches as the CSV reader. An .xlsx is checked as a zip first: not a
// zip, or one that inflates out of proportion (a zip bomb), is refused before
// parsing.
//
// The .xlsx reader: yauzl gives the zip directory; the first worksheet is
// found through the package relationships (_rels/.rels -> workbook.xml -> its
// rels; the part is not assumed to be sheet1.xml). xl/sharedStrings.xml is read
// first (streamed, decoded with a streaming TextDecoder) into an array: its
// size grows with the number of *distinct* strings in the workbook, not with
// rows, but a column of unique values does cost its text once (about 60 MB for
// a million unique 20-character strings). styles.xml is read only for which
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
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Readable } from 'node:stream';
import { isUtf8 } from 'node:buffer';
import { fork, type ChildProcess } from 'node:child_process';
import yauzl from 'yauzl';
import { IngestError, closing, type CsvBatch, type CsvReader } from './csv.js';
import { mapHeaders } from './headers.js';

/** An .xlsx whose parts inflate past this, or past this ratio, is refused. */
const MAX_INFLATED_BYTES = 8 * 1024 ** 3;
const MAX_RATIO = 200;
const MAX_XLS_BYTES = 100 * 1024 ** 2;
/** Parts read whole (workbook, relationships, styles) may not exceed this. */
const MAX_PART_BYTES = 64 * 1024 ** 2;
/** One row (or shared string) of the XML longer than this is refused. */
const MAX_ELEMENT_CHARS = 32 * 1024 ** 2;
/** Inflated bytes handed over at a time. */
const INFLATE_CHUNK = 256 * 1024;

const NOT_A_ZIP = 'This .xlsx file is not a valid Excel workbook (it is not a zip archive). Save it again from Excel, or export the report as CSV.';
const BAD_DIRECTORY = 'This .xlsx file is damaged: its zip directory cannot be read.';

interface Zip {
  zip: yauzl.ZipFile;
  entries: Map<string, yauzl.Entry>;
  size: number;
}

/** Opens the zip directory and refuses a zip bomb (declared sizes; actual ones are checked while inflating). */
async function openZip(file: string): Promise<Zip> {
  const size = (await fs.promises.stat(file)).size;
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true, autoClose: false }, (err, z) => (err || !z ? reject(new IngestError(NOT_A_ZIP)) : resolve(z)));
  });
  const entries = new Map<string, yauzl.Entry>();
  try {
    const total = await new Promise<number>((resolve, reject) => {
      let sum = 0;
      zip.on('entry', (e: yauzl.Entry) => {
        sum += e.uncompressedSize;
        entries.set(e.fileName, e);
        zip.readEntry();
      });
      zip.on('end', () => resolve(sum));
      zip.on('error', () => reject(new IngestError(BAD_DIRECTORY)));
      zip.readEntry();
    });
    if (total > MAX_INFLATED_BYTES || (size > 0 && total / size > MAX_RATIO && total > 100 * 1024 ** 2)) {
      throw new IngestError(
        `This .xlsx file would inflate to ${(total / 1024 ** 3).toFixed(1)} GB from ${(size / 1024 ** 2).toFixed(1)} MB; it was refused as a possible zip bomb.`,
      );
    }
  } catch (e) {
    zip.close();
    throw e;
  }
  // Later errors reach the reader through its streams.
  zip.on('error', () => {});
  return { zip, entries, size };
}

function findEntry(z: Zip, name: string): yauzl.Entry | undefined {
  const e = z.entries.get(name);
  if (e) return e;
  const lower = name.toLowerCase();
  for (const [k, v] of z.entries) if (k.toLowerCase() === lower) return v;
  return undefined;
}

const damaged = (what: string, why: string) => new IngestError(`This .xlsx file is damaged: ${what} ${why}. Save it again from Excel, or export the report as CSV.`);

/**
 * The inflated bytes of an entry, as they stream from the file, with the
 * compressed bytes read so far. The inflated size is held to what the zip
 * directory declares (the zip-bomb check relies on it).
 */
async function* inflateEntry(z: Zip, e: yauzl.Entry, what: string, progress?: (compressedBytes: number) => void): AsyncGenerator<Buffer> {
  if (e.isEncrypted()) throw new IngestError('This .xlsx file is encrypted (password-protected). Save it without a password, or export the report as CSV.');
  if (e.compressionMethod !== 0 && e.compressionMethod !== 8) throw damaged(what, `uses a compression method Excel does not write (${e.compressionMethod})`);
  let raw: Readable;
  try {
    raw = await z.zip.openReadStreamPromise(e, { decodeFileData: false });
  } catch (err) {
    throw damaged(what, `cannot be read (${(err as Error).message})`);
  }
  let compressed = 0;
  let source: AsyncIterable<Buffer> = raw;
  let inflate: zlib.InflateRaw | undefined;
  if (e.compressionMethod === 8) {
    // Up to a few chunks inflated ahead (zlib works on another thread meanwhile).
    inflate = zlib.createInflateRaw({ chunkSize: INFLATE_CHUNK, readableHighWaterMark: 4 * INFLATE_CHUNK } as zlib.ZlibOptions);
    raw.on('data', (c: Buffer) => (compressed += c.length));
    raw.on('error', (err) => inflate!.destroy(err));
    raw.pipe(inflate);
    source = inflate;
  }
  let inflated = 0;
  try {
    for await (const chunk of source) {
      inflated += chunk.length;
      if (!inflate) compressed = inflated;
      if (inflated > e.uncompressedSize) throw damaged(what, `inflates to more than the ${e.uncompressedSize.toLocaleString('en-US')} bytes its zip directory declares`);
      progress?.(compressed);
      yield chunk;
    }
  } catch (err) {
    if (err instanceof IngestError) throw err;
    throw damaged(what, `cannot be decompressed (${(err as Error).message})`);
  } finally {
    raw.unpipe();
    raw.destroy();
    inflate?.destroy();
  }
  if (inflated !== e.uncompressedSize) throw damaged(what, `is shorter than its zip directory declares (the file may be truncated)`);
}

/** A whole, small part as text. */
async function readPart(z: Zip, name: string): Promise<string | undefined> {
  const e = findEntry(z, name);
  if (!e) return undefined;
  if (e.uncompressedSize > MAX_PART_BYTES) throw new IngestError(`This .xlsx file cannot be read: its part ${name} is larger than ${MAX_PART_BYTES / 1024 ** 2} MB.`);
  const chunks: Buffer[] = [];
  for await (const c of inflateEntry(z, e, `its part ${name}`)) chunks.push(c);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw damaged(`its part ${name}`, 'is not valid UTF-8 text');
  }
}

// --- small helpers for the parts read whole --------------------------------

const ATTR = /([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
function attributes(tag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of tag.matchAll(ATTR)) out[m[1]!] = unescapeXml(m[2] ?? m[3] ?? '');
  return out;
}
/** Attributes of every element with this local name (any namespace prefix). */
function elements(xml: string, local: string): Record<string, string>[] {
  const re = new RegExp(`<(?:[\\w.-]+:)?${local}(?=[\\s/>])([^>]*)>`, 'g');
  return [...xml.matchAll(re)].map((m) => attributes(m[1]!));
}
function localAttr(a: Record<string, string>, local: string): string | undefined {
  for (const [k, v] of Object.entries(a)) if (k === local || k.endsWith(':' + local)) return v;
  return undefined;
}

/** The namespace prefix ('x:' or '') of the document's root element. */
function rootPrefix(xml: string): string | undefined {
  const m = /<(?![?!])([\w.-]+:)?[\w.-]+[\s/>]/.exec(xml);
  return m ? (m[1] ?? '') : undefined;
}

// --- text ----------------------------------------------------------------

const ENTITY = /&(?:(amp|lt|gt|quot|apos)|#([0-9]+)|#[xX]([0-9a-fA-F]+));/g;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const OOXML_ESCAPE = /_x([0-9A-Fa-f]{4})_/g;

function codePoint(n: number, m: string): string {
  return n >= 0 && n <= 0x10ffff ? String.fromCodePoint(n) : m;
}

/** XML text: entities, then Excel's _xHHHH_ escapes (e.g. _x000D_ for a carriage return). */
function unescapeXml(v: string): string {
  if (v.indexOf('&') >= 0) v = v.replace(ENTITY, (m, name: string | undefined, dec: string | undefined, hex: string | undefined) => (name ? NAMED[name]! : codePoint(dec ? parseInt(dec, 10) : parseInt(hex!, 16), m)));
  if (v.indexOf('_x') >= 0) v = v.replace(OOXML_ESCAPE, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
  return v;
}

/** Element content: text, possibly with CDATA sections. */
function contentText(s: string, from: number, to: number): string {
  const lt = s.indexOf('<', from);
  if (lt < 0 || lt >= to) return unescapeXml(s.slice(from, to));
  let out = '';
  let p = from;
  while (p < to) {
    const c = s.indexOf('<![CDATA[', p);
    if (c < 0 || c >= to) {
      out += unescapeXml(s.slice(p, to));
      break;
    }
    out += unescapeXml(s.slice(p, c));
    const e = s.indexOf(']]>', c + 9);
    if (e < 0 || e >= to) throw damaged('a worksheet', 'has an unterminated CDATA section');
    out += s.slice(c + 9, e);
    p = e + 3;
  }
  return out;
}

function isNameEnd(c: number): boolean {
  // whitespace, '>' or '/'
  return c === 62 || c === 47 || c === 32 || c === 9 || c === 10 || c === 13;
}

/**
 * The text of a rich-text container (<si> or <is>) between from and to: every
 * <t>, in runs or not, except those in phonetic runs (<rPh>).
 */
function richText(s: string, from: number, to: number, T: string, T_END: string, RPH: string, RPH_END: string): string {
  let out = '';
  let p = from;
  let first = true;
  for (;;) {
    const t = s.indexOf(T, p);
    if (t < 0 || t >= to) return out;
    if (!isNameEnd(s.charCodeAt(t + T.length))) {
      // <tag...> of another name starting with t (none in SpreadsheetML today); skip it.
      p = t + T.length;
      continue;
    }
    // A phonetic run between the last text and this one? (Searched in that
    // stretch only: an unbounded search would scan the rest of the chunk.)
    const r = t - p > RPH.length ? s.slice(p, t).indexOf(RPH) + p : -1;
    if (r >= p && isNameEnd(s.charCodeAt(r + RPH.length))) {
      // A phonetic run before this <t>: skip past its end.
      const re = s.indexOf(RPH_END, r);
      if (re < 0 || re >= to) return out;
      p = re + RPH_END.length;
      continue;
    }
    const gt = s.indexOf('>', t);
    if (gt < 0 || gt >= to) return out;
    if (s.charCodeAt(gt - 1) === 47) {
      p = gt + 1;
      continue;
    }
    const e = s.indexOf(T_END, gt);
    if (e < 0 || e > to) throw damaged('a worksheet', 'has a text element that never ends');
    const piece = contentText(s, gt + 1, e);
    out = first ? piece : out + piece;
    first = false;
    p = e + T_END.length;
  }
}

// --- numbers and dates ---------------------------------------------------

const BUILTIN_DATE_FORMATS = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51, 52, 53, 54, 55, 56, 57, 58]);

/** True when a number format code shows a date (d, y, or m without h/s). */
function isDateFormat(code: string): boolean {
  const f = code
    .split(';')[0]!
    .replace(/"[^"]*"/g, '')
    .replace(/\\./g, '')
    .replace(/[_*]./g, '')
    .replace(/\[[^\]]*\]/g, '');
  return /[dy]/i.test(f) || (/m/i.test(f) && !/[hs]/i.test(f) && !/[0#?]/.test(f));
}

/** Which cell formats (the s="" index) are dates. */
function dateStyles(styles: string | undefined): boolean[] {
  if (!styles) return [];
  const custom = new Map<number, string>();
  for (const a of elements(styles, 'numFmt')) custom.set(Number(a.numFmtId), a.formatCode ?? '');
  const xfs = /<(?:[\w.-]+:)?cellXfs\b[^>]*>([\s\S]*?)<\/(?:[\w.-]+:)?cellXfs>/.exec(styles);
  if (!xfs) return [];
  return elements(xfs[1]!, 'xf').map((a) => {
    const id = Number(a.numFmtId ?? 0);
    const code = custom.get(id);
    return code !== undefined ? isDateFormat(code) : BUILTIN_DATE_FORMATS.has(id);
  });
}

/** An Excel serial day as YYYY-MM-DD. */
function serialDate(serial: number, date1904: boolean): string {
  const ms = Math.round((serial + (date1904 ? 1462 : 0) - 25569) * 86_400_000);
  return new Date(ms).toISOString().slice(0, 10);
}

/** A number as text, as JavaScript prints it ('5000', '0.1', '1e+21'). */
function numberText(raw: string): string {
  const n = Number(raw);
  return raw !== '' && Number.isFinite(n) ? String(n) : raw.trim();
}

// --- the worksheet scanner ------------------------------------------------

const T_NUMBER = 0;
const T_SHARED = 1;
const T_INLINE = 2;
const T_STR = 3;
const T_BOOL = 4;
const T_ERROR = 5;
const T_DATE = 6;

interface Workbook {
  sheet: yauzl.Entry;
  sheetName: string;
  sharedStrings?: yauzl.Entry;
  styles?: string;
  date1904: boolean;
}

async function locateSheet(z: Zip): Promise<Workbook> {
  const rels = (xml: string | undefined) =>
    new Map(elements(xml ?? '', 'Relationship').map((a) => [a.Id ?? '', { type: a.Type ?? '', target: a.Target ?? '', external: a.TargetMode === 'External' }]));
  const resolve = (base: string, target: string) =>
    target.startsWith('/') ? target.slice(1) : path.posix.normalize(path.posix.join(path.posix.dirname(base), target));
  let workbookPath = 'xl/workbook.xml';
  for (const r of rels(await readPart(z, '_rels/.rels')).values()) {
    if (r.type.endsWith('/officeDocument') && !r.external) workbookPath = resolve('', r.target);
  }
  const workbook = await readPart(z, workbookPath);
  const wbRels = rels(await readPart(z, path.posix.join(path.posix.dirname(workbookPath), '_rels', path.posix.basename(workbookPath) + '.rels')));
  let sheet: yauzl.Entry | undefined;
  let sheetName = '';
  if (workbook) {
    for (const a of elements(workbook, 'sheet')) {
      const id = localAttr(a, 'id');
      const rel = id !== undefined ? wbRels.get(id) : undefined;
      if (!rel || !rel.type.endsWith('/worksheet')) continue; // chart sheets, dialog sheets
      sheet = findEntry(z, resolve(workbookPath, rel.target));
      sheetName = a.name ?? '';
      if (sheet) break;
    }
  }
  if (!sheet) {
    // No usable workbook part: the first worksheet part in the archive.
    for (const [name, e] of z.entries) {
      if (/^xl\/worksheets\/[^/]+\.xml$/i.test(name)) {
        sheet = e;
        break;
      }
    }
  }
  if (!sheet) throw new IngestError('The workbook has no worksheet.');
  let sharedStrings: yauzl.Entry | undefined;
  let stylesPath: string | undefined;
  for (const r of wbRels.values()) {
    if (r.external) continue;
    if (r.type.endsWith('/sharedStrings')) sharedStrings = findEntry(z, resolve(workbookPath, r.target));
    if (r.type.endsWith('/styles')) stylesPath = resolve(workbookPath, r.target);
  }
  sharedStrings ??= findEntry(z, 'xl/sharedStrings.xml');
  const styles = await readPart(z, stylesPath ?? 'xl/styles.xml');
  const pr = workbook ? elements(workbook, 'workbookPr')[0] : undefined;
  const date1904 = pr?.date1904 === '1' || pr?.date1904 === 'true';
  return { sheet, sheetName, sharedStrings, styles, date1904 };
}

/**
 * Runs `scan` over the complete elements of an entry as it inflates: the text
 * up to the last `closing` tag of each chunk, keeping the rest for the next.
 * At the end, `scan` gets the final rest (with `last` true).
 */
async function* elementsOf(
  z: Zip,
  e: yauzl.Entry,
  what: string,
  closingTag: (prefix: string) => string,
  progress?: (compressed: number) => void,
): AsyncGenerator<{ text: string; prefix: string; last: boolean }> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let buf = '';
  let prefix: string | undefined;
  let closing = '';
  const decode = (chunk?: Buffer) => {
    try {
      return chunk ? decoder.decode(chunk, { stream: true }) : decoder.decode();
    } catch {
      throw damaged(what, 'is not valid UTF-8 text');
    }
  };
  for await (const chunk of inflateEntry(z, e, what, progress)) {
    buf = buf ? buf + decode(chunk) : decode(chunk);
    if (prefix === undefined) {
      prefix = rootPrefix(buf);
      if (prefix === undefined) continue;
      closing = closingTag(prefix);
    }
    const end = buf.lastIndexOf(closing);
    if (end < 0) {
      if (buf.length > MAX_ELEMENT_CHARS) throw damaged(what, `has an element longer than ${MAX_ELEMENT_CHARS / 1024 ** 2} MB characters`);
      continue;
    }
    const cut = end + closing.length;
    const text = buf.slice(0, cut);
    buf = buf.slice(cut);
    yield { text, prefix, last: false };
  }
  buf += decode();
  yield { text: buf, prefix: prefix ?? rootPrefix(buf) ?? '', last: true };
}

/** The shared strings, in order. */
async function readSharedStrings(z: Zip, e: yauzl.Entry | undefined): Promise<string[]> {
  const out: string[] = [];
  if (!e) return out;
  const what = 'its shared-strings part';
  for await (const { text: s, prefix, last } of elementsOf(z, e, what, (p) => `</${p}si>`)) {
    const SI = `<${prefix}si`;
    const SI_END = `</${prefix}si>`;
    const T = `<${prefix}t`;
    const T_END = `</${prefix}t>`;
    const RPH = `<${prefix}rPh`;
    const RPH_END = `</${prefix}rPh>`;
    let p = 0;
    for (;;) {
      const i = s.indexOf(SI, p);
      if (i < 0) break;
      if (!isNameEnd(s.charCodeAt(i + SI.length))) {
        p = i + SI.length;
        continue;
      }
      const gt = s.indexOf('>', i);
      if (gt < 0) throw damaged(what, 'ends in the middle of a string (the file may be truncated)');
      if (s.charCodeAt(gt - 1) === 47) {
        out.push('');
        p = gt + 1;
        continue;
      }
      const end = s.indexOf(SI_END, gt);
      if (end < 0) throw damaged(what, 'ends in the middle of a string (the file may be truncated)');
      const v = richText(s, gt + 1, end, T, T_END, RPH, RPH_END);
      // A slice would keep the whole chunk of XML alive for the rest of the
      // load; concatenating and slicing again makes V8 copy just this text.
      out.push(v.length >= 13 ? (' ' + v).slice(1) : v);
      p = end + SI_END.length;
    }
    if (last && s.indexOf(`</${prefix}sst>`) < 0) throw damaged(what, 'ends early (the file may be truncated)');
  }
  return out;
}

export async function openXlsx(file: string, batchRows: number): Promise<CsvReader> {
  if ((await fs.promises.stat(file)).size === 0) throw new IngestError('The file is empty (0 bytes).');
  const z = await openZip(file);
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
    const what = `its worksheet${wb.sheetName ? ` '${wb.sheetName}'` : ''}`;
    const sheetStart = wb.sheet.relativeOffsetOfLocalHeader;
    let bytesRead = 0;
    const chunks = inflateEntry(z, wb.sheet, what, (c) => (bytesRead = Math.min(z.size, sheetStart + c)));
    // Each stretch of complete rows is checked as UTF-8 once (it ends at a
    // '>', so no character is split), then values are decoded without checks.
    const checkUtf8 = (b: Buffer, start: number, end: number) => {
      if (!isUtf8(start === 0 && end === b.length ? b : b.subarray(start, end))) throw damaged(what, `is not valid UTF-8 text (after row ${lastRow})`);
    };
    const decode = (b: Buffer, from: number, to: number): string => b.toString('utf8', from, to);

    // Scanner state.
    let header: string[] | undefined;
    let width = 0;
    let dateCol: boolean[] = [];
    let lastRow = 0;
    let out: { row: number; fields: string[] }[] = [];
    let ended = false;
    let tags: ByteTags | undefined;
    /** Bytes after the last complete row, waiting for the next chunk. */
    let pending: Buffer | undefined;

    // Per row: where each cell's value comes from. Values read in place are
    // copied into `scratch`, separated by NUL (which XML text cannot hold),
    // and decoded with one call per row; other values are strings already.
    let scratch = Buffer.allocUnsafe(64 * 1024);
    let sp = 0;
    let cols = new Int32Array(256);
    let kinds = new Uint8Array(256); // type of a piece in scratch, or DIRECT
    let styles = new Int32Array(256);
    let escaped = new Uint8Array(256);
    const direct: (string | undefined)[] = [];
    let cells = 0;
    let pieceCount = 0;
    const DIRECT = 255;

    const grow = () => {
      const n = cols.length * 2;
      const c = new Int32Array(n);
      c.set(cols);
      cols = c;
      const k = new Uint8Array(n);
      k.set(kinds);
      kinds = k;
      const s = new Int32Array(n);
      s.set(styles);
      styles = s;
      const e = new Uint8Array(n);
      e.set(escaped);
      escaped = e;
    };
    const copyPiece = (b: Uint8Array, from: number, to: number) => {
      const need = sp + (to - from) + 1;
      if (need > scratch.length) {
        const bigger = Buffer.allocUnsafe(Math.max(need, scratch.length * 2));
        scratch.copy(bigger, 0, 0, sp);
        scratch = bigger;
      }
      const s = scratch;
      let p = sp;
      for (let k = from; k < to; k++) s[p++] = b[k]!;
      s[p++] = 0;
      sp = p;
      pieceCount++;
    };

    /** Stores a row's fields: the header (first non-empty row) or a record. */
    const finishRow = (fields: string[], rowNo: number) => {
      if (!width) {
        for (let k = 0; k < fields.length; k++) if (fields[k] === undefined) fields[k] = '';
        header = fields;
        width = fields.length;
        dateCol = mapHeaders(header).byIndex.map((f) => f === 'lastExecutedOn');
        return;
      }
      for (let k = 0; k < width; k++) if (fields[k] === undefined) fields[k] = '';
      out.push({ row: rowNo, fields });
    };

    /** A number cell's text (t absent or "n"). */
    const numberCell = (raw: string, style: number, col: number): string => {
      if ((style >= 0 && dateStyle[style]) || dateCol[col]) {
        const n = Number(raw);
        // Serials from 1 (1900-01-01) to 2958465 (9999-12-31); 20260115 stays a number (YYYYMMDD).
        if (raw !== '' && n >= 1 && n < 2958466) return serialDate(n, wb.date1904);
      }
      return numberText(raw);
    };

    const sharedAt = (idx: number, rowNo: number): string => {
      const v = shared[idx];
      if (v === undefined) throw damaged(what, `refers to shared string ${idx}, but the workbook has ${shared.length} (row ${rowNo})`);
      return v;
    };

    /** The value of a cell of this type from the text of its <v> (entities decoded, except for numbers). */
    const typedValue = (raw: string, type: number, style: number, col: number, rowNo: number): string => {
      switch (type) {
        case T_SHARED: {
          const t = raw.trim();
          if (!/^\d+$/.test(t)) throw damaged(what, `has a shared-string cell with the index '${raw}' (row ${rowNo})`);
          return sharedAt(Number(t), rowNo);
        }
        case T_STR:
        case T_INLINE:
          return raw;
        case T_BOOL: {
          const b = raw.trim();
          return b === '1' || b === 'true' ? 'true' : 'false';
        }
        case T_ERROR:
          return '';
        case T_DATE: {
          const d = raw.trim();
          return /^\d{4}-\d{2}-\d{2}/.test(d) ? d.slice(0, 10) : d;
        }
        default:
          return numberCell(raw, style, col);
      }
    };

    /** Any cell's value, from the XML between its start tag and its end tag, as text: the general path. */
    const cellValue = (s: string, type: number, style: number, col: number, rowNo: number, P: Tags): string => {
      const to = s.length;
      if (type === T_INLINE) return richText(s, 0, to, P.t, P.tEnd, P.rph, P.rphEnd);
      let vs = s.indexOf(P.v, 0);
      while (vs >= 0 && !isNameEnd(s.charCodeAt(vs + P.v.length))) vs = s.indexOf(P.v, vs + 1);
      if (vs < 0) return '';
      const gt = s.indexOf('>', vs);
      if (s.charCodeAt(gt - 1) === 47) return '';
      const ve = s.indexOf(P.vEnd, gt);
      if (ve < 0) throw damaged(what, `has a value that never ends (row ${rowNo})`);
      return typedValue(type === T_NUMBER || type === T_SHARED || type === T_BOOL ? s.slice(gt + 1, ve) : contentText(s, gt + 1, ve), type, style, col, rowNo);
    };

    const truncated = (rowNo: number) => damaged(what, `ends in the middle of row ${rowNo} (the file may be truncated)`);

    /**
     * One row, from just after '<row' (at) to just after '</row>' (returned),
     * in the bytes b up to end. Written for speed on the common shapes
     * (<c r=".." t=".."><v>..</v></c> and <c t="inlineStr"><is><t>..</t></is></c>),
     * reading bytes in place; anything else is decoded and takes the general path.
     */
    const scanRow = (b: Buffer, at: number, end: number, T: ByteTags): number => {
      // The row's attributes: r.
      let rowNo = 0;
      let i = at;
      for (;;) {
        if (i >= end) throw truncated(lastRow + 1);
        const ch = b[i]!;
        if (ch === 62) break; // '>'
        if (ch === 47 && b[i + 1] === 62) {
          // <row/>: an empty row.
          lastRow = rowNo || lastRow + 1;
          return i + 2;
        }
        if (ch === 114 && b[i + 1] === 61 && b[i - 1]! <= 32) {
          // r="12"
          for (let k = i + 3; k < end; k++) {
            const d = b[k]! - 48;
            if (d < 0 || d > 9) break;
            rowNo = rowNo * 10 + d;
          }
        }
        if (ch === 34 || ch === 39) {
          let e = i + 1;
          while (e < end && b[e] !== ch) e++;
          i = e + 1;
          continue;
        }
        i++;
      }
      if (!rowNo) rowNo = lastRow + 1;
      lastRow = rowNo;
      i++;

      sp = 0;
      pieceCount = 0;
      cells = 0;
      let next = 0;
      const cLen = T.c.length;
      for (;;) {
        while (i < end && b[i]! <= 32) i++;
        if (i >= end) throw truncated(rowNo);
        if (b[i] === 60 && b[i + 1] === 47 && matchBytes(b, i, T.rowEnd)) {
          i += T.rowEnd.length;
          break;
        }
        if (!matchBytes(b, i, T.c) || !isNameEnd(b[i + cLen]!)) {
          // Another element inside the row (an extension list): skip to the next cell or the row's end.
          const c = b.indexOf(T.c, i + 1);
          const e = b.indexOf(T.rowEnd, i);
          if (e < 0 || e >= end) throw truncated(rowNo);
          i = c >= 0 && c < e ? c : e;
          continue;
        }
        // The cell's attributes r, t, s.
        i += cLen;
        let col = -1;
        let type = T_NUMBER;
        let style = -1;
        let empty = false;
        for (;;) {
          if (i >= end) throw truncated(rowNo);
          const ch = b[i]!;
          if (ch === 62) {
            i++;
            break;
          }
          if (ch === 47) {
            if (b[i + 1] !== 62) throw damaged(what, `has a malformed cell (row ${rowNo})`);
            i += 2;
            empty = true;
            break;
          }
          if (ch <= 32) {
            i++;
            continue;
          }
          const ns = i;
          while (i < end && b[i] !== 61 && b[i]! > 32) i++;
          const nameLen = i - ns;
          while (i < end && b[i] !== 34 && b[i] !== 39) i++;
          const quote = b[i];
          const vs = i + 1;
          let ve = vs;
          while (ve < end && b[ve] !== quote) ve++;
          if (ve >= end) throw truncated(rowNo);
          if (nameLen === 1) {
            const a = b[ns];
            if (a === 114) {
              // r="AB12": the column letters.
              let c = 0;
              for (let k = vs; k < ve; k++) {
                const l = b[k]!;
                if (l >= 65 && l <= 90) c = c * 26 + (l - 64);
                else if (l >= 97 && l <= 122) c = c * 26 + (l - 96);
                else break;
              }
              if (c > 0) col = c - 1;
            } else if (a === 116) type = typeOfBytes(b, vs, ve);
            else if (a === 115) {
              let st = 0;
              for (let k = vs; k < ve; k++) st = st * 10 + (b[k]! - 48);
              style = st;
            }
          }
          i = ve + 1;
        }
        if (col < 0) col = next;
        next = col + 1;
        if (empty) continue;
        if (cells === cols.length) grow();
        const k = cells;

        // Fast paths: <v>text</v></c>, and <is><t>text</t></is></c>.
        let from = -1;
        let j = i;
        if (type !== T_INLINE) {
          if (matchBytes(b, i, T.vOpen)) from = i + T.vOpen.length;
        } else if (matchBytes(b, i, T.isOpen) && matchBytes(b, i + T.isOpen.length, T.t) && isNameEnd(b[i + T.isOpen.length + T.t.length]!)) {
          let g = i + T.isOpen.length + T.t.length;
          while (g < end && b[g] !== 62) g++;
          if (b[g - 1] !== 47) from = g + 1;
        }
        let esc = 0;
        if (from >= 0) {
          j = from;
          for (;;) {
            if (j >= end) throw truncated(rowNo);
            const ch = b[j]!;
            if (ch === 60) break; // '<'
            if (ch === 38 || ch === 95) esc = 1; // '&', or '_' of an _xHHHH_ escape
            j++;
          }
          const close = type === T_INLINE ? T.inlineEnd : T.vcEnd;
          if (!matchBytes(b, j, close)) from = -1;
          else if (type === T_SHARED) {
            // The index, read in place.
            let idx = 0;
            let ok = j > from;
            for (let q = from; q < j; q++) {
              const d = b[q]! - 48;
              if (d < 0 || d > 9) ok = false;
              idx = idx * 10 + d;
            }
            if (!ok) from = -1;
            else {
              kinds[k] = DIRECT;
              direct[k] = sharedAt(idx, rowNo);
              cols[k] = col;
              cells++;
              i = j + close.length;
              continue;
            }
          } else {
            if (type !== T_ERROR && j > from) {
              copyPiece(b, from, j);
              kinds[k] = type;
              styles[k] = style;
              escaped[k] = esc;
              cols[k] = col;
              cells++;
            }
            i = j + close.length;
            continue;
          }
        }
        // Anything else: formulas, rich text, CDATA, empty <v/>.
        const ce = b.indexOf(T.cEnd, i);
        if (ce < 0 || ce >= end) throw truncated(rowNo);
        const v = cellValue(decode(b, i, ce), type, style, col, rowNo, T.text);
        i = ce + T.cEnd.length;
        if (v === '') continue;
        kinds[k] = DIRECT;
        direct[k] = v;
        cols[k] = col;
        cells++;
      }

      if (cells === 0) return i; // empty rows are skipped
      const pieces = sp ? decode(scratch, 0, sp - 1).split('\u0000') : [];
      // A NUL byte in a value (not allowed in XML) would shift the values.
      if (pieces.length !== pieceCount) throw damaged(what, `has a character XML does not allow (a NUL byte) in row ${rowNo}`);
      const fields: string[] = width ? new Array<string>(width) : [];
      let any = false;
      let piece = 0;
      for (let k = 0; k < cells; k++) {
        let v: string;
        const kind = kinds[k]!;
        if (kind === DIRECT) {
          v = direct[k]!;
          direct[k] = undefined;
        } else {
          const raw = pieces[piece++]!;
          v = typedValue(escaped[k] && kind !== T_NUMBER ? unescapeXml(raw) : raw, kind, styles[k]!, cols[k]!, rowNo);
        }
        if (v === '') continue;
        const col = cols[k]!;
        any = true;
        if (width) {
          if (col >= width) throw new IngestError(`Row ${rowNo} has values beyond the last header column (${width} columns).`);
        } else {
          for (let q = fields.length; q < col; q++) fields.push('');
        }
        fields[col] = v;
      }
      if (any) finishRow(fields, rowNo);
      return i;
    };

    /** Scans the complete rows in b[start, end). */
    const scan = (b: Buffer, start: number, end: number, T: ByteTags) => {
      let p = start;
      for (;;) {
        const rs = b.indexOf(T.row, p);
        if (rs < 0 || rs >= end) break;
        const ra = rs + T.row.length;
        if (!isNameEnd(b[ra]!)) {
          p = ra;
          continue;
        }
        p = scanRow(b, ra, end, T);
      }
    };

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
        scan(rest, 0, rest.length, tags);
        if (rest.indexOf(`</${tags.prefix}worksheet>`) < 0) throw damaged(what, `ends early, after row ${lastRow} (the file may be truncated)`);
        return false;
      }
      let data = n.value;
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
        scan(head, 0, head.length, T);
      }
      const cut = data.lastIndexOf(T.rowEnd);
      const end = cut + T.rowEnd.length;
      if (cut < 0 || end <= start) {
        if (data.length - start > MAX_ELEMENT_CHARS) throw damaged(what, `has a row longer than ${MAX_ELEMENT_CHARS / 1024 ** 2} MB`);
        pending = data.subarray(start);
        return true;
      }
      checkUtf8(data, start, end);
      scan(data, start, end, T);
      if (end < data.length) pending = data.subarray(end);
      return true;
    };

    // The header is the first non-empty row.
    while (!header && (await pump()));
    if (!header) throw new IngestError('The first worksheet is empty.');

    async function* batches(): AsyncGenerator<CsvBatch> {
      try {
        for (;;) {
          while (out.length < batchRows && (await pump()));
          if (!out.length) break;
          const records = out;
          out = [];
          yield { records, bytesRead: ended ? z.size : bytesRead };
        }
      } finally {
        close();
        await chunks.return(undefined);
      }
    }
    return { header: header as string[], delimiter: '', encoding: 'xlsx', batches: closing(batches(), close) };
  } catch (e) {
    close();
    throw e;
  }
}

interface Tags {
  prefix: string;
  v: string;
  vEnd: string;
  t: string;
  tEnd: string;
  rph: string;
  rphEnd: string;
}

function tagsFor(p: string): Tags {
  return { prefix: p, v: `<${p}v`, vEnd: `</${p}v>`, t: `<${p}t`, tEnd: `</${p}t>`, rph: `<${p}rPh`, rphEnd: `</${p}rPh>` };
}

/** The worksheet's tags as bytes, for its namespace prefix. */
interface ByteTags {
  prefix: string;
  text: Tags;
  row: Buffer;
  rowEnd: Buffer;
  c: Buffer;
  cEnd: Buffer;
  vOpen: Buffer;
  /** </v></c> */
  vcEnd: Buffer;
  isOpen: Buffer;
  t: Buffer;
  /** </t></is></c> */
  inlineEnd: Buffer;
}

function byteTags(p: string): ByteTags {
  const b = (s: string) => Buffer.from(s, 'latin1');
  return {
    prefix: p,
    text: tagsFor(p),
    row: b(`<${p}row`),
    rowEnd: b(`</${p}row>`),
    c: b(`<${p}c`),
    cEnd: b(`</${p}c>`),
    vOpen: b(`<${p}v>`),
    vcEnd: b(`</${p}v></${p}c>`),
    isOpen: b(`<${p}is>`),
    t: b(`<${p}t`),
    inlineEnd: b(`</${p}t></${p}is></${p}c>`),
  };
}

/** True when b has tag at i. */
function matchBytes(b: Uint8Array, i: number, tag: Uint8Array): boolean {
  const n = tag.length;
  if (i + n > b.length) return false;
  for (let k = 0; k < n; k++) if (b[i + k] !== tag[k]) return false;
  return true;
}

function typeOfBytes(b: Uint8Array, from: number, to: number): number {
  const len = to - from;
  const c = b[from];
  if (len === 1) return c === 115 ? T_SHARED : c === 98 ? T_BOOL : c === 101 ? T_ERROR : c === 100 ? T_DATE : T_NUMBER;
  if (len === 3 && c === 115) return T_STR; // str
  if (len === 9 && c === 105) return T_INLINE; // inlineStr
  return T_NUMBER;
}

// --- legacy .xls -------------------------------------------------------------

/**
 * The heap of the child process that reads an .xls. SheetJS holds the whole
 * workbook: 20,000 rows of 35 columns (a 25 MB file) take 300-400 MB at the
 * peak, so a full sheet (65,536 rows, the format's limit) needs about 1.2 GB.
 */
const XLS_HEAP_MB = 1536;

/** How much of the child's stderr is kept (its end: V8's fatal error is there). */
const XLS_STDERR_CHARS = 16 * 1024;

/** What V8 prints when a heap runs out ("... Allocation failed - JavaScript heap out of memory"). */
const OUT_OF_MEMORY = /JavaScript heap out of memory|Allocation failed/;

/**
 * Starts the .xls reader (xls-worker.mjs) as a child process of plain node.
 * A process of its own, not a worker thread: V8 applies the server's heap
 * flags (`npm start` runs with --max-old-space-size=192) to every isolate of
 * the process, over a worker's resourceLimits, whereas a child gets its own
 * flags, so it has the heap SheetJS needs while the server keeps its cap; and
 * a workbook too large for that heap ends the child (V8 aborts on running out
 * of heap), never the server.
 * Nothing of the server's is inherited: execArgv is only the heap limit (no
 * loader flags such as tsx's: the reader is JavaScript) and NODE_OPTIONS is
 * left out. Messages use the advanced (structured clone) serialization, so a
 * batch is not turned into JSON; stderr is piped to tell a heap out of memory
 * from other failures; stdin and stdout are not used.
 */
function startXlsChild(args: { file: string; size: number; batchRows: number }, heapMb: number): ChildProcess {
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  return fork(new URL('./xls-worker.mjs', import.meta.url), [args.file, String(args.size), String(args.batchRows)], {
    execArgv: [`--max-old-space-size=${heapMb}`],
    env,
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
}

type XlsMessage =
  | { type: 'header'; header: string[] }
  | { type: 'batch'; records: CsvBatch['records']; bytesRead: number }
  | { type: 'end' }
  | { type: 'error'; message: string };

/**
 * A legacy .xls, read by SheetJS in a child process (xls-worker.mjs, see
 * startXlsChild) with its own heap (XLS_HEAP_MB; XLS_WORKER_HEAP_MB in the
 * environment overrides it): a workbook too large for that, or one SheetJS
 * fails on, fails its upload, not the server. Batches come one at a time, the
 * next asked for as one is handed over, so the server holds at most two.
 * Closing the reader (the upload done, failed or given up) kills the child and
 * waits until it has gone; the child also exits when the server does (its IPC
 * channel closes).
 */
export async function openXls(file: string, batchRows: number): Promise<CsvReader> {
  const size = (await fs.promises.stat(file)).size;
  if (size === 0) throw new IngestError('The file is empty (0 bytes).');
  if (size > MAX_XLS_BYTES) {
    throw new IngestError('Legacy .xls files over 100 MB cannot be loaded (the format must be read whole); save it as .xlsx or CSV.');
  }
  const heapMb = Number(process.env.XLS_WORKER_HEAP_MB) || XLS_HEAP_MB;
  const child = startXlsChild({ file, size, batchRows }, heapMb);
  const inbox: XlsMessage[] = [];
  let failure: IngestError | undefined;
  let wake: (() => void) | undefined;
  let closed = false;
  let stderr = '';
  const notify = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  // Settles once the child has gone (or was never started): close() waits on it.
  const gone = new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.once('error', () => {
      if (child.pid === undefined) resolve();
    });
  });
  child.on('message', (m: XlsMessage) => {
    inbox.push(m);
    notify();
  });
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-XLS_STDERR_CHARS);
  });
  // Listened to for the child's whole life: an unheard 'error' would be thrown in the server.
  child.on('error', (e: Error) => {
    failure ??= new IngestError(`This .xls file could not be read: ${e.message}`);
    notify();
  });
  // 'close' comes after the child has exited, its stderr has ended and every
  // message it sent has been delivered.
  child.on('close', (code: number | null, signal: NodeJS.Signals | null) => {
    failure ??= OUT_OF_MEMORY.test(stderr)
      ? new IngestError(`This .xls file is too large to read: the legacy format is read whole, and this one needs more than the ${heapMb} MB set aside for it. Save it as .xlsx or CSV (those are read as a stream, at any size).`)
      : new IngestError(`This .xls file could not be read: its reader stopped (${signal ? `signal ${signal}` : `exit code ${code}`}).`);
    notify();
  });
  const close = async () => {
    if (!closed) {
      closed = true;
      failure ??= new IngestError('The .xls reader was closed.');
      notify();
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    await gone;
  };
  /** Asks for the next message; a child that has gone is reported by 'close'. */
  const next = () => {
    if (child.connected) child.send('next', () => {});
  };
  const receive = async (): Promise<XlsMessage> => {
    for (;;) {
      const m = inbox.shift();
      if (m) {
        if (m.type === 'error') throw new IngestError(m.message);
        return m;
      }
      if (failure) throw failure;
      await new Promise<void>((r) => (wake = r));
    }
  };

  let header: string[];
  try {
    const first = await receive();
    if (first.type !== 'header') throw new IngestError('This .xls file could not be read: its reader gave no header.');
    header = first.header;
    next();
  } catch (e) {
    await close();
    throw e;
  }
  async function* batches(): AsyncGenerator<CsvBatch> {
    try {
      for (;;) {
        const m = await receive();
        if (m.type === 'end') break;
        if (m.type !== 'batch') throw new IngestError('This .xls file could not be read: its reader gave an unexpected message.');
        // The next batch is read while this one is loaded.
        next();
        yield { records: m.records, bytesRead: m.bytesRead };
      }
    } finally {
      await close();
    }
  }
  return { header, delimiter: '', encoding: 'xls', batches: closing(batches(), close) };
}
