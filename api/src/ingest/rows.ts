// Turns a record of the export into a risk row: trimmed values by canonical
// field, the risk level normalised (Critical and High count as high; French
// variants too), usage columns parsed, and a hash of the export columns.
// A duplicate is a row whose export columns are all equal (after trimming) to
// another row's, in the same file or already loaded.
//
// Rows are written as COPY CSV bytes straight into one growing buffer per
// batch (no per-row strings to collect), and the hash is taken from those
// bytes: row_hash is the base64 SHA-1 of the row's export columns as a COPY
// line (the format earlier loads stored; replace joins old and new rows on it).
import crypto from 'node:crypto';
import type { CanonicalField, HeaderMapping } from './headers.js';
import { IngestError } from './csv.js';
import { EXPORT_FIELDS } from './columns.js';
import { MAX_KEY_BYTES, MAX_LABEL_CHARS, figure } from './limits.js';

export const ROW_COLUMNS: [CanonicalField, string][] = EXPORT_FIELDS.map((f) => [f.field, f.column]);

/** The columns COPY writes, in order. */
export const COPY_COLUMNS = [...ROW_COLUMNS.map(([, c]) => c), 'risk_level_label', 'row_hash', 'upload_id'];

const LEVELS: Record<string, 'high' | 'medium' | 'low'> = {
  critical: 'high',
  critique: 'high',
  high: 'high',
  eleve: 'high',
  haut: 'high',
  'tres eleve': 'high',
  medium: 'medium',
  moyen: 'medium',
  moyenne: 'medium',
  med: 'medium',
  low: 'low',
  faible: 'low',
  bas: 'low',
};

function levelOf(raw: string): 'high' | 'medium' | 'low' | undefined {
  const k = raw
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .trim();
  return LEVELS[k];
}

function parseDate(raw: string): string | null | undefined {
  if (!raw) return null;
  let m = /^(\d{4})-(\d{2})-(\d{2})/.exec(raw);
  if (m) return `${m[1]}-${m[2]}-${m[3]}`;
  m = /^(\d{2})\.(\d{2})\.(\d{4})$/.exec(raw) ?? /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(raw);
  if (m) return `${m[3]}-${m[2]}-${m[1]}`;
  m = /^(\d{4})(\d{2})(\d{2})$/.exec(raw);
  if (m) return `${m[1]}-${m[2]}-${m[3]}`;
  return undefined;
}

/** A small memo for values with few distinct forms (levels, dates); bounded, so a file of unique values cannot grow it. */
function memo<T>(fn: (raw: string) => T, max = 4096): (raw: string) => T {
  const cache = new Map<string, T>();
  return (raw) => {
    let v = cache.get(raw);
    if (v === undefined && !cache.has(raw)) {
      v = fn(raw);
      if (cache.size < max) cache.set(raw, v);
    }
    return v as T;
  };
}

/** COPY CSV text of one batch, as UTF-8 bytes in a buffer that grows by doubling and is reused. */
export class CopyBuffer {
  buf: Buffer;
  length = 0;
  constructor(initial = 1 << 20) {
    this.buf = Buffer.allocUnsafe(initial);
  }
  /** Room for n more bytes. */
  ensure(n: number) {
    if (this.length + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.length + n) size *= 2;
    const b = Buffer.allocUnsafe(size);
    this.buf.copy(b, 0, 0, this.length);
    this.buf = b;
  }
  /** The text so far, and empty again. */
  /** The bytes written so far (a copy), emptying the buffer. */
  take(): Buffer {
    const out = Buffer.from(this.buf.subarray(0, this.length));
    this.length = 0;
    return out;
  }
  /** A quoted COPY CSV field ("" doubled inside), so an empty string stays an empty string (not NULL). */
  quoted(v: string) {
    const n = v.length;
    // UTF-8 takes at most 3 bytes per UTF-16 unit; quotes double.
    this.ensure(3 * n + 2);
    const b = this.buf;
    let p = this.length;
    b[p++] = 34;
    for (let i = 0; i < n; i++) {
      const c = v.charCodeAt(i);
      if (c >= 128) {
        // Not ASCII: the rest through the encoder.
        const rest = v.slice(i);
        this.length = p;
        this.ensure(6 * rest.length + 1);
        const b2 = this.buf;
        p += b2.write(rest.includes('"') ? rest.replace(/"/g, '""') : rest, p, 'utf8');
        b2[p++] = 34;
        this.length = p;
        return;
      }
      if (c === 34) b[p++] = 34;
      b[p++] = c;
    }
    b[p++] = 34;
    this.length = p;
  }
  /** ASCII text as is (numbers, dates, separators). */
  ascii(v: string) {
    const n = v.length;
    this.ensure(n);
    const b = this.buf;
    let p = this.length;
    for (let i = 0; i < n; i++) b[p++] = v.charCodeAt(i);
    this.length = p;
  }
  byte(c: number) {
    this.ensure(1);
    this.buf[this.length++] = c;
  }
  /**
   * Drops the quotes of quoted fields in [start, this.length) that do not need
   * them (not empty, no comma, quote or line break inside): the same values
   * for COPY, in fewer bytes for PostgreSQL to parse. Unquoted numbers and
   * dates (and NULLs) stay as they are.
   */
  unquote(start: number) {
    const b = this.buf;
    const end = this.length;
    let r = start;
    let w = start;
    while (r < end) {
      if (b[r] === 34) {
        // A quoted field: find its closing quote ("" inside is an escaped quote).
        let e = r + 1;
        let plain = true;
        for (;;) {
          const c = b[e]!;
          if (c === 34) {
            if (b[e + 1] === 34) {
              plain = false;
              e += 2;
              continue;
            }
            break;
          }
          if (c === 44 || c === 10 || c === 13) plain = false;
          e++;
        }
        // Moved left in place (w <= r), byte by byte: fields are short.
        if (plain && e > r + 1) for (let k = r + 1; k < e; k++) b[w++] = b[k]!;
        else for (let k = r; k <= e; k++) b[w++] = b[k]!;
        r = e + 1;
      } else {
        // Unquoted: up to the next comma.
        while (r < end && b[r] !== 44) b[w++] = b[r++]!;
      }
      if (r < end) b[w++] = b[r++]!; // the comma
    }
    this.length = w;
  }
}

function trimmed(v: string): string {
  const n = v.length;
  return n && (v.charCodeAt(0) <= 32 || v.charCodeAt(n - 1) <= 32) ? v.trim() : v;
}

/**
 * A number as the file writes it, or undefined. With decimal commas (a
 * semicolon file, as Excel writes CSV in French or German) ',' is the decimal
 * mark and '.' or spaces group thousands: '313,5' is 313.5, '1.234,5' is
 * 1234.5. Otherwise '.' is the decimal mark and a comma followed by exactly
 * three digits groups thousands ('1,234'); any other comma is a decimal mark
 * ('313,5' is 313.5 in any file, never 3135); '1.234,5' (dots grouping
 * thousands before a decimal comma, as a workbook's text cell may hold it) is
 * 1234.5.
 */
export function parseNumber(v: string, decimalComma: boolean): number | undefined {
  let plain = v.length > 0 && v.length <= 15;
  for (let i = 0; plain && i < v.length; i++) {
    const d = v.charCodeAt(i) - 48;
    if (d < 0 || d > 9) plain = false;
  }
  if (plain) return Number(v);
  let s = v.replace(/[\s\u00a0\u202f']/g, '');
  if (decimalComma) {
    if (/^[+-]?\d{1,3}(\.\d{3})+(,\d*)?$/.test(s)) s = s.replace(/\./g, '');
    s = s.replace(',', '.');
  } else if (/^[+-]?\d{1,3}(,\d{3})+(\.\d*)?$/.test(s)) {
    s = s.replace(/,/g, '');
  } else if (/^[+-]?\d{1,3}(\.\d{3})+,\d*$/.test(s)) {
    // A number typed the French or German way in a workbook's text cell: '1.234,5'.
    s = s.replace(/\./g, '').replace(',', '.');
  } else {
    s = s.replace(',', '.');
  }
  if (!/^[+-]?(\d+\.?\d*|\.\d+)$/.test(s)) return undefined;
  const n = Number(s);
  return Number.isFinite(n) && Math.abs(n) < 1e15 ? n : undefined;
}

/**
 * Values that could not be read (a number or date that is not one): the row
 * is kept without the value, and the upload warns with row and column. The
 * first `keep` are named; the rest are counted.
 */
export class RowProblems {
  readonly listed: string[] = [];
  count = 0;
  /** Which of the columns the product uses (USED_FIELDS) had a value on some row. */
  readonly filled = new Set<CanonicalField>();
  constructor(readonly keep = 20) {}
  add(message: string) {
    this.count++;
    if (this.listed.length < this.keep) this.listed.push(message);
  }
  /** The warnings to record: the listed ones, and how many more there were. */
  warnings(): string[] {
    const more = this.count - this.listed.length;
    return more > 0
      ? [...this.listed, `... and ${more.toLocaleString('en-US')} more value${more === 1 ? '' : 's'} that could not be read (each row was kept without it).`]
      : [...this.listed];
  }
}

/**
 * A value as it will be stored (for the preview): trimmed; the risk level as
 * high, medium or low; execution counts and dates parsed as the load parses
 * them (null when empty or unreadable).
 */
export function storedValue(field: CanonicalField, raw: string, decimalComma: boolean): string | null {
  const v = trimmed(raw);
  if (field === 'riskLevel') return levelOf(v) ?? v;
  if (field === 'executionCount') {
    const n = v ? parseNumber(v, decimalComma) : undefined;
    return n === undefined ? null : String(n);
  }
  if (field === 'lastExecutedOn') return parseDate(v) ?? null;
  return v;
}

/** Values that key the database's indexes (MAX_KEY_BYTES), and the names kept beside them for search (MAX_LABEL_CHARS). */
const KEY_FIELDS: CanonicalField[] = ['userId', 'userGroup', 'accessRiskId', 'system', 'roleProfile', 'compositeBusinessRole'];
const LABEL_FIELDS: CanonicalField[] = ['userName', 'riskDescription'];

/** The first `n` characters of v, without cutting a character in two (a surrogate pair). */
function cut(v: string, n: number): string {
  const c = v.charCodeAt(n - 1);
  return v.slice(0, c >= 0xd800 && c <= 0xdbff ? n - 1 : n);
}

/** Columns the product uses whose emptiness on every row is worth a warning (when another column looks like them). */
export const USED_FIELDS: CanonicalField[] = ['compositeBusinessRole', 'function', 'ruleId', 'executionCount', 'lastExecutedOn', 'mitigationControl'];

/**
 * Builds a function that appends a record's COPY line to `out` and returns
 * its hash (or throws an IngestError naming row and column). The hash is of
 * the export columns' values, so equal rows hash equally whatever file they
 * came from. To drop the row again (a duplicate), set out.length back.
 */
export function rowNormalizer(map: HeaderMapping, headers: string[], uploadId: string, opts: { decimalComma?: boolean; problems?: RowProblems } = {}) {
  const decimalComma = opts.decimalComma ?? false;
  const problems = opts.problems ?? new RowProblems();
  const indexOf = new Map<CanonicalField, number>();
  map.byIndex.forEach((f, i) => f && indexOf.set(f, i));
  const headerOf = (f: CanonicalField) => headers[indexOf.get(f)!]?.trim() ?? f;
  const source = ROW_COLUMNS.map(([f]) => indexOf.get(f) ?? -1);
  const at = (f: CanonicalField) => ROW_COLUMNS.findIndex(([x]) => x === f);
  const kUser = at('userId');
  const kRisk = at('accessRiskId');
  const kSystem = at('system');
  const kRole = at('roleProfile');
  const kComposite = at('compositeBusinessRole');
  const kLevel = at('riskLevel');
  const kCount = at('executionCount');
  const kDate = at('lastExecutedOn');
  const hasLevel = source[kLevel]! >= 0;
  const width = ROW_COLUMNS.length;
  const values: string[] = new Array(width);
  const level = memo(levelOf);
  const date = memo(parseDate);
  const tail = `","${uploadId}"\n`;
  const used = USED_FIELDS.map((f) => at(f));
  let unfilled = used.length;
  const keys = KEY_FIELDS.map((f) => at(f));
  const labels = LABEL_FIELDS.map((f) => at(f));

  return (row: number, fields: string[], out: CopyBuffer): string => {
    for (let k = 0; k < width; k++) {
      const i = source[k]!;
      values[k] = i < 0 ? '' : trimmed(fields[i] ?? '');
    }
    if (!values[kUser]) throw new IngestError(`Row ${row}, column '${headerOf('userId')}': the value is empty, but every row needs one.`);
    if (!values[kRisk]) throw new IngestError(`Row ${row}, column '${headerOf('accessRiskId')}': the value is empty, but every row needs one.`);
    if (!values[kSystem]) throw new IngestError(`Row ${row}, column '${headerOf('system')}': the value is empty, but every row needs one.`);
    if (!values[kRole] && !values[kComposite]) {
      throw new IngestError(`Row ${row}: both Role/Profile and Composite Role are empty; every row needs one of them.`);
    }
    for (let j = 0; j < keys.length; j++) {
      // A character takes 1 to 3 bytes: only a long value is measured.
      const v = values[keys[j]!]!;
      const bytes = v.length > MAX_KEY_BYTES / 3 ? Buffer.byteLength(v) : 0;
      if (bytes > MAX_KEY_BYTES) {
        throw new IngestError(
          `Row ${row}, column '${headerOf(KEY_FIELDS[j]!)}': the value takes ${figure(bytes)} bytes; a value of this column may take at most ${figure(MAX_KEY_BYTES)} (as many Latin letters and digits, fewer characters of other scripts).`,
        );
      }
    }
    for (let j = 0; j < labels.length; j++) {
      const v = values[labels[j]!]!;
      if (v.length > MAX_LABEL_CHARS) {
        values[labels[j]!] = cut(v, MAX_LABEL_CHARS);
        problems.add(
          `Row ${row}, column '${headerOf(LABEL_FIELDS[j]!)}': the value is ${figure(v.length)} characters long; its first ${figure(MAX_LABEL_CHARS)} were loaded.`,
        );
      }
    }
    if (unfilled) {
      for (let j = 0; j < used.length; j++) {
        if (values[used[j]!] && !problems.filled.has(USED_FIELDS[j]!)) {
          problems.filled.add(USED_FIELDS[j]!);
          unfilled--;
        }
      }
    }
    let label = '';
    if (hasLevel) {
      label = values[kLevel]!;
      const l = level(label);
      if (!l) throw new IngestError(`Row ${row}, column '${headerOf('riskLevel')}': '${label}' is not a risk level (use Critical, High, Medium or Low).`);
      values[kLevel] = l;
    } else values[kLevel] = 'high';

    const start = out.length;
    for (let k = 0; k < width; k++) {
      const v = values[k]!;
      if (k) out.byte(44); // ','
      if (k === kCount) {
        if (!v) continue; // NULL
        const n = parseNumber(v, decimalComma);
        if (n === undefined) {
          problems.add(`Row ${row}, column '${headerOf('executionCount')}': '${v.slice(0, 50)}' is not a number; the row was loaded without it.`);
          continue; // NULL
        }
        out.ascii(String(n));
      } else if (k === kDate) {
        const d = date(v);
        if (d === undefined) {
          problems.add(
            `Row ${row}, column '${headerOf('lastExecutedOn')}': '${v.slice(0, 50)}' is not a date (YYYY-MM-DD or DD.MM.YYYY); the row was loaded without it.`,
          );
          continue; // NULL
        }
        if (d !== null) out.ascii(d);
      } else {
        out.quoted(v);
      }
    }
    const hash = crypto.hash('sha1', out.buf.subarray(start, out.length), 'base64');
    out.unquote(start);
    out.byte(44);
    out.quoted(label);
    out.ascii(',"');
    out.ascii(hash);
    out.ascii(tail);
    return hash;
  };
}
