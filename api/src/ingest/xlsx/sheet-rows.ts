// The worksheet scanner: rows of SpreadsheetML read as bytes, in place, in
// the chunks the reader hands over (each ending after a complete row). The
// common cell shapes (<c r=".." t=".."><v>..</v></c> and inline strings) are
// read without decoding; anything else is decoded and takes the general path.
// The first non-empty row is the header; the others become records.
// One factory of closures (not a class), as the reader was written and measured: the hot loop in scanRow reads its state from the closure.
import { IngestError, overLimit } from '../errors.js';
import { MAX_CELL_CHARS, MAX_COLUMNS, MAX_ROW_CHARS } from '../limits.js';
import { HEADER_MIN_SCORE, HEADER_SEARCH_ROWS, findHeaderRow, headerScore, mapHeaders } from '../headers.js';
import { damaged } from './zip.js';
import { numberText, serialDate } from './workbook.js';
import { contentText, isNameEnd, richText, unescapeXml, type ByteTags, type Tags } from './xml.js';

// Cell types: constants of this module (not imported), as the hot loop reads them.
const T_NUMBER = 0;
const T_SHARED = 1;
const T_INLINE = 2;
const T_STR = 3;
const T_BOOL = 4;
const T_ERROR = 5;
const T_DATE = 6;

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

export interface SheetRows {
  /** Scans the complete rows in b[start, end). */
  scan(b: Buffer, start: number, end: number, T: ByteTags): void;
  /** The header once found (findHeaderRow's rule: rows above it, a title or report parameters, are skipped). */
  header(): string[] | undefined;
  headerRow(): number;
  /** True until the header is found; endHeaderSearch() settles it from the rows read (at the sheet's end). */
  searching(): boolean;
  endHeaderSearch(): void;
  /** The number of the last row read. */
  lastRow(): number;
  /** How many records wait to be taken. */
  waiting(): number;
  /** The records read since the last take. */
  take(): { row: number; fields: string[] }[];
}

/** A scanner of the worksheet `what`, with the workbook's shared strings and date formats; the header at row `headerAt` if chosen (else found). */
export function sheetRows(what: string, shared: string[], dateStyle: boolean[], date1904: boolean, headerAt = 0): SheetRows {
  const decode = (b: Buffer, from: number, to: number): string => b.toString('utf8', from, to);

  // Scanner state.
  let header: string[] | undefined;
  let headerRowNo = 0;
  /** Non-empty rows read while looking for the header. */
  let preamble: { row: number; fields: string[] }[] = [];
  let width = 0;
  let dateCol: boolean[] = [];
  let lastRow = 0;
  let out: { row: number; fields: string[] }[] = [];

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

  const setHeader = (fields: string[], rowNo: number) => {
    [header, headerRowNo, width, preamble] = [fields, rowNo, fields.length, []];
    dateCol = mapHeaders(header).byIndex.map((f) => f === 'lastExecutedOn');
  };
  const endHeaderSearch = () => {
    if (width || !preamble.length) return;
    const [rows, at] = [preamble, findHeaderRow(preamble.map((r) => r.fields))];
    preamble = [];
    setHeader(rows[at]!.fields, rows[at]!.row);
    for (const r of rows.slice(at + 1)) {
      if (r.fields.length > width) throw new IngestError(`Row ${r.row} has values beyond the last header column (${width} columns).`);
      finishRow(r.fields, r.row);
    }
  };

  /** Stores a row's fields: the header, a row above it, or a record. */
  function finishRow(fields: string[], rowNo: number) {
    if (!width) {
      for (let k = 0; k < fields.length; k++) if (fields[k] === undefined) fields[k] = '';
      if (headerAt) return void (rowNo >= headerAt && setHeader(fields, rowNo));
      const score = headerScore(fields);
      if (score >= HEADER_MIN_SCORE || (score >= 2 && !preamble.length)) setHeader(fields, rowNo);
      else if (preamble.push({ row: rowNo, fields }) >= HEADER_SEARCH_ROWS) endHeaderSearch();
      return;
    }
    for (let k = 0; k < width; k++) if (fields[k] === undefined) fields[k] = '';
    out.push({ row: rowNo, fields });
  }

  /** A number cell's text (t absent or "n"). */
  const numberCell = (raw: string, style: number, col: number): string => {
    if ((style >= 0 && dateStyle[style]) || dateCol[col]) {
      const n = Number(raw);
      // Serials from 1 (1900-01-01) to 2958465 (9999-12-31); 20260115 stays a number (YYYYMMDD).
      if (raw !== '' && n >= 1 && n < 2958466) return serialDate(n, date1904);
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
      if (col >= MAX_COLUMNS) throw overLimit('columns', rowNo, MAX_COLUMNS - 1);
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
    let rowChars = 0;
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
      if (v.length > MAX_CELL_CHARS) throw overLimit('cell', rowNo, col, header);
      if ((rowChars += v.length) > MAX_ROW_CHARS) throw overLimit('row', rowNo, col, header);
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

  return {
    scan,
    header: () => header,
    headerRow: () => headerRowNo,
    searching: () => !width,
    endHeaderSearch,
    lastRow: () => lastRow,
    waiting: () => out.length,
    take() {
      const records = out;
      out = [];
      return records;
    },
  };
}
