// CSV writing for every export. Cells that a spreadsheet would run as a
// formula (starting with =, +, -, @, tab or carriage return) are neutralised
// with a leading apostrophe, as OWASP recommends for CSV injection; control
// characters a terminal or viewer would act on (escape sequences, bidirectional
// overrides, byte order marks: core/validation.ts) are removed, since exported
// text also comes from uploaded files, which no edge check has seen.
import { StringDecoder } from 'node:string_decoder';
import { UNSAFE_CONTROL_SQL_CHARS, neutralizeText } from './validation.js';

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(v: unknown): string {
  if (v === null || v === undefined) return '';
  let s = neutralizeText(v instanceof Date ? v.toISOString() : String(v));
  if (FORMULA_START.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function csvLine(values: unknown[]): string {
  return values.map(csvCell).join(',') + '\r\n';
}

const FORMULA_CODES = '(61, 43, 45, 64, 9, 13)';

/**
 * The formula guard of csvCell, done by the database (for exports that
 * PostgreSQL writes itself): `expr` as text, '' for NULL, with an apostrophe
 * before a first character of = + - @ tab or carriage return, also when unsafe
 * control characters come before it (copyCsvLines removes those afterwards;
 * the ltrim is only reached for a cell not starting with printable ASCII).
 * `nullable` false: `expr` is a text column that is never NULL (no cast, no
 * coalesce). Removing the controls here (regexp_replace) would cost each cell
 * a regular expression, about 0.6 µs measured: 25 s over a 1M-row export.
 */
export function sqlCsvText(expr: string, nullable = true): string {
  const v = nullable ? `coalesce((${expr})::text, '')` : expr;
  const formula = `ascii(${v}) IN ${FORMULA_CODES} OR (ascii(${v}) NOT BETWEEN 32 AND 126 AND ascii(ltrim(${v}, ${UNSAFE_CONTROL_SQL_CHARS})) IN ${FORMULA_CODES})`;
  return `CASE WHEN ${formula} THEN '''' || ${v} ELSE ${v} END`;
}

/**
 * CSV as PostgreSQL's COPY writes it (cells made by sqlCsvText) turned into this
 * module's: without unsafe control characters, lines ending in CRLF (a line
 * break inside a quoted cell is left as it is).
 */
export async function* copyCsvLines(chunks: AsyncIterable<Buffer>): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  let quoted = false;
  const lines = (text: string): string => {
    const s = neutralizeText(text);
    let out = '';
    let from = 0;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c === 0x22) quoted = !quoted;
      else if (c === 0x0a && !quoted) {
        out += s.slice(from, i) + '\r\n';
        from = i + 1;
      }
    }
    return from === 0 ? s : out + s.slice(from);
  };
  for await (const chunk of chunks) {
    const s = lines(decoder.write(chunk));
    if (s) yield s;
  }
  const rest = lines(decoder.end());
  if (rest) yield rest;
}
