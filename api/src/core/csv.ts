// CSV writing for every export. Cells that a spreadsheet would run as a
// formula (starting with =, +, -, @, tab or carriage return) are neutralised
// with a leading apostrophe, as OWASP recommends for CSV injection.
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(v: unknown): string {
  if (v === null || v === undefined) return '';
  let s = v instanceof Date ? v.toISOString() : String(v);
  if (FORMULA_START.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function csvLine(values: unknown[]): string {
  return values.map(csvCell).join(',') + '\r\n';
}

/**
 * The same neutralisation as csvCell, done by the database (for exports that
 * PostgreSQL writes itself): `expr` as text, '' for NULL, with an apostrophe
 * before a first character of = + - @ tab or carriage return. `nullable`
 * false: `expr` is a text column that is never NULL (no cast, no coalesce).
 */
export function sqlCsvText(expr: string, nullable = true): string {
  const v = nullable ? `coalesce((${expr})::text, '')` : expr;
  return `CASE WHEN ascii(${v}) IN (61, 43, 45, 64, 9, 13) THEN '''' || ${v} ELSE ${v} END`;
}

/**
 * CSV lines as PostgreSQL's COPY writes them (ending in LF) turned into this
 * module's (ending in CRLF); a line break inside a quoted cell is left as it is.
 */
export async function* crlfLines(chunks: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  let quoted = false;
  for await (const chunk of chunks) {
    const start = quoted;
    let breaks = 0;
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i];
      if (b === 0x22) quoted = !quoted;
      else if (b === 0x0a && !quoted) breaks++;
    }
    if (!breaks) {
      yield chunk;
      continue;
    }
    const out = Buffer.allocUnsafe(chunk.length + breaks);
    let q = start;
    let j = 0;
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i]!;
      if (b === 0x22) q = !q;
      else if (b === 0x0a && !q) out[j++] = 0x0d;
      out[j++] = b;
    }
    yield out;
  }
}
