// The workbook around the worksheet: which part is the first worksheet
// (through the package relationships), its shared strings (streamed), which
// cell formats are dates (styles.xml), and how numbers and dates print.
import path from 'node:path';
import type yauzl from 'yauzl';
import { IngestError, OverLimitError } from '../csv.js';
import { MAX_CELL_CHARS, MAX_ELEMENT_CHARS, MAX_SHARED_STRINGS, MAX_SHARED_STRING_CHARS, figure } from '../limits.js';
import { damaged, findEntry, inflateEntry, readPart, type Zip } from './zip.js';
import { elements, isNameEnd, localAttr, richText, rootPrefix } from './xml.js';

// --- numbers and dates ---------------------------------------------------

const BUILTIN_DATE_FORMATS = new Set([
  14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51, 52, 53, 54, 55, 56, 57, 58,
]);

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
export function dateStyles(styles: string | undefined): boolean[] {
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
export function serialDate(serial: number, date1904: boolean): string {
  const ms = Math.round((serial + (date1904 ? 1462 : 0) - 25569) * 86_400_000);
  return new Date(ms).toISOString().slice(0, 10);
}

/** A number as text, as JavaScript prints it ('5000', '0.1', '1e+21'). */
export function numberText(raw: string): string {
  const n = Number(raw);
  return raw !== '' && Number.isFinite(n) ? String(n) : raw.trim();
}

export interface Workbook {
  /** The worksheets in the workbook's order (chart and dialog sheets left out). */
  sheets: { entry: yauzl.Entry; name: string }[];
  sharedStrings?: yauzl.Entry;
  styles?: string;
  date1904: boolean;
}

export async function locateSheet(z: Zip): Promise<Workbook> {
  const rels = (xml: string | undefined) =>
    new Map(
      elements(xml ?? '', 'Relationship').map((a) => [a.Id ?? '', { type: a.Type ?? '', target: a.Target ?? '', external: a.TargetMode === 'External' }]),
    );
  const resolve = (base: string, target: string) =>
    target.startsWith('/') ? target.slice(1) : path.posix.normalize(path.posix.join(path.posix.dirname(base), target));
  let workbookPath = 'xl/workbook.xml';
  for (const r of rels(await readPart(z, '_rels/.rels')).values()) {
    if (r.type.endsWith('/officeDocument') && !r.external) workbookPath = resolve('', r.target);
  }
  const workbook = await readPart(z, workbookPath);
  const wbRels = rels(await readPart(z, path.posix.join(path.posix.dirname(workbookPath), '_rels', path.posix.basename(workbookPath) + '.rels')));
  const sheets: Workbook['sheets'] = [];
  if (workbook) {
    for (const a of elements(workbook, 'sheet')) {
      const id = localAttr(a, 'id');
      const rel = id !== undefined ? wbRels.get(id) : undefined;
      if (!rel || !rel.type.endsWith('/worksheet')) continue; // chart sheets, dialog sheets
      const entry = findEntry(z, resolve(workbookPath, rel.target));
      if (entry) sheets.push({ entry, name: a.name ?? '' });
    }
  }
  if (!sheets.length) {
    // No usable workbook part: the worksheet parts in the archive.
    for (const [name, e] of z.entries) {
      if (/^xl\/worksheets\/[^/]+\.xml$/i.test(name)) sheets.push({ entry: e, name: '' });
    }
  }
  if (!sheets.length) throw new IngestError('The workbook has no worksheet.');
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
  return { sheets, sharedStrings, styles, date1904 };
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

/** Shared strings over their budget (MAX_SHARED_STRINGS, MAX_SHARED_STRING_CHARS, MAX_CELL_CHARS): the file is refused. */
function tooManyStrings(count: number, chars: number, longest: number): OverLimitError {
  const why =
    longest > MAX_CELL_CHARS
      ? `its shared string ${figure(count)} is longer than ${figure(MAX_CELL_CHARS)} characters, the most a cell may hold (as in Excel)`
      : count > MAX_SHARED_STRINGS
        ? `its shared-strings part (the workbook's table of distinct text values) holds more than ${figure(MAX_SHARED_STRINGS)} strings, the most a workbook read here may have`
        : `its shared-strings part (the workbook's table of distinct text values) holds more than ${figure(MAX_SHARED_STRING_CHARS)} characters, the most a workbook read here may have`;
  return new OverLimitError(`This .xlsx file was not loaded: ${why}. Export the report as CSV instead, or split it into smaller files.`);
}

/**
 * The shared strings, in order, within their budget: at most
 * MAX_SHARED_STRINGS strings and MAX_SHARED_STRING_CHARS characters (they are
 * held while the workbook is read), none longer than a cell may be.
 */
export async function readSharedStrings(z: Zip, e: yauzl.Entry | undefined): Promise<string[]> {
  const out: string[] = [];
  if (!e) return out;
  const what = 'its shared-strings part';
  let chars = 0;
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
      if (out.length >= MAX_SHARED_STRINGS) throw tooManyStrings(out.length + 1, chars, 0);
      if (s.charCodeAt(gt - 1) === 47) {
        out.push('');
        p = gt + 1;
        continue;
      }
      const end = s.indexOf(SI_END, gt);
      if (end < 0) throw damaged(what, 'ends in the middle of a string (the file may be truncated)');
      const v = richText(s, gt + 1, end, T, T_END, RPH, RPH_END);
      chars += v.length;
      if (v.length > MAX_CELL_CHARS || chars > MAX_SHARED_STRING_CHARS) throw tooManyStrings(out.length + 1, chars, v.length);
      // A slice would keep the whole chunk of XML alive for the rest of the
      // load; concatenating and slicing again makes V8 copy just this text.
      out.push(v.length >= 13 ? (' ' + v).slice(1) : v);
      p = end + SI_END.length;
    }
    if (last && s.indexOf(`</${prefix}sst>`) < 0) throw damaged(what, 'ends early (the file may be truncated)');
  }
  return out;
}
