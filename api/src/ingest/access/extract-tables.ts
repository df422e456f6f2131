// The SAP tables of an access extract and how each loads: the columns used
// (others ignored), their kinds, and a table's records streamed into its
// access_x_* table with COPY in chunks of a few MB (bounded memory at any
// size), each row with its extract and its line in the file. A value that is
// not a date (YYYYMMDD, YYYY-MM-DD or DD.MM.YYYY; 00000000 or empty is
// unlimited, stored NULL) or not a whole number is refused with the file,
// line and column.
import type { Sql } from '../../db/client.js';
import { CopyBuffer } from '../rows.js';
import { cellError, columnPositions } from './table-columns.js';
import type { ZipTables } from './zip-tables.js';

type Kind = 'text' | 'date' | 'int';
interface Column {
  sap: string;
  column: string;
  kind: Kind;
  required: boolean;
}
export interface ExtractTable {
  name: string;
  table: string;
  required: boolean;
  columns: Column[];
}

const col = (sap: string, kind: Kind = 'text', required = true): Column => ({ sap, column: sap.toLowerCase(), kind, required });

/** Every table an extract may hold, in load order. */
export const EXTRACT_TABLES: ExtractTable[] = [
  {
    name: 'usr02',
    table: 'access_x_usr02',
    required: true,
    columns: [
      col('BNAME'),
      col('CLASS', 'text', false),
      col('USTYP', 'text', false),
      col('UFLAG', 'int'),
      col('GLTGV', 'date', false),
      col('GLTGB', 'date', false),
    ],
  },
  {
    name: 'user_addr',
    table: 'access_x_user_addr',
    required: false,
    columns: [col('BNAME'), col('NAME_FIRST', 'text', false), col('NAME_LAST', 'text', false)],
  },
  {
    name: 'agr_users',
    table: 'access_x_agr_users',
    required: true,
    columns: [col('AGR_NAME'), col('UNAME'), col('FROM_DAT', 'date', false), col('TO_DAT', 'date', false), col('COL_FLAG', 'text', false)],
  },
  { name: 'agr_agrs', table: 'access_x_agr_agrs', required: true, columns: [col('AGR_NAME'), col('CHILD_AGR')] },
  {
    name: 'agr_1251',
    table: 'access_x_agr_1251',
    required: true,
    columns: [col('AGR_NAME'), col('OBJECT'), col('AUTH'), col('FIELD'), col('LOW', 'text', false), col('HIGH', 'text', false), col('DELETED', 'text', false)],
  },
  { name: 'agr_texts', table: 'access_x_agr_texts', required: false, columns: [col('AGR_NAME'), col('TEXT', 'text', false)] },
  { name: 'usage', table: 'access_x_usage', required: false, columns: [col('BNAME'), col('TCODE'), col('COUNT', 'int'), col('LAST_USED', 'date', false)] },
];

/** The tables an extract must hold. */
export const REQUIRED_TABLES = EXTRACT_TABLES.filter((t) => t.required).map((t) => t.name);

const CHUNK_BYTES = 4 * 1024 * 1024;
const BATCH_ROWS = 5000;

/** A date as ISO text, '' for unlimited, undefined when it is not a date. */
export function sapDate(v: string): string | undefined {
  // SAP's initial date, as tables hold it (00000000) or as lists print it (00.00.0000).
  if (v === '' || /^0+([.\-/]0+)*$/.test(v)) return '';
  let m = /^(\d{4})(\d{2})(\d{2})$/.exec(v) ?? /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
  let y: number, mo: number, d: number;
  if (m) [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  else {
    m = /^(\d{2})\.(\d{2})\.(\d{4})$/.exec(v);
    if (!m) return undefined;
    [y, mo, d] = [Number(m[3]), Number(m[2]), Number(m[1])];
  }
  const t = new Date(Date.UTC(y, mo - 1, d));
  if (y < 1 || t.getUTCFullYear() !== y || t.getUTCMonth() !== mo - 1 || t.getUTCDate() !== d) return undefined;
  return `${String(y).padStart(4, '0')}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/**
 * A whole number as digits, undefined when it is not one. Lists print counts
 * with thousands separators ('1.234', '1,234', '1 234'): a whole-number
 * column has no decimals, so groups of three digits are read as thousands.
 */
export function wholeNumber(v: string): string | undefined {
  const digits = /^\d{1,3}([.,\u00a0\u202f ]\d{3})+$/.test(v) ? v.replace(/\D/g, '') : v;
  return /^\d{1,15}$/.test(digits) ? String(Number(digits)) : undefined;
}

/**
 * Checks that every table of the zip an extract loads has the columns it
 * needs, reading only each file's first lines (the header): a table or
 * column missing is refused before the extract is kept.
 */
export async function checkExtractColumns(zip: ZipTables): Promise<void> {
  for (const t of EXTRACT_TABLES) {
    const entry = zip.tables.get(t.name);
    if (!entry) continue;
    const header = await zip.header(t.name);
    columnPositions(
      entry.fileName,
      { header },
      t.columns.map((c) => ({ name: c.sap, required: c.required })),
    );
  }
}

export interface TableProgress {
  /** Rows of this table so far. */
  rows: number;
}

/**
 * Loads one table of the zip into its access_x_* table for `extractId`.
 * Returns the rows loaded; `onChunk` is told after each chunk is written.
 */
export async function loadExtractTable(
  sql: Sql,
  zip: ZipTables,
  t: ExtractTable,
  extractId: string,
  onChunk: (rows: number) => Promise<void>,
): Promise<number> {
  const fileName = zip.tables.get(t.name)!.fileName;
  const reader = await zip.open(t.name, BATCH_ROWS);
  const at = columnPositions(
    fileName,
    reader,
    t.columns.map((c) => ({ name: c.sap, required: c.required })),
  );
  const columns = ['extract_id', 'line', ...t.columns.map((c) => c.column)];
  const buf = new CopyBuffer();
  let copy: Awaited<ReturnType<Sql['openCopy']>> | undefined;
  let rows = 0;
  const flush = async () => {
    if (!buf.length) return;
    copy ??= await sql.openCopy(t.table, columns);
    await copy.write(buf.take());
    await onChunk(rows);
  };
  try {
    for await (const batch of reader.batches) {
      for (const rec of batch.records) {
        buf.ascii(extractId);
        buf.byte(44);
        buf.ascii(String(rec.row));
        for (let i = 0; i < t.columns.length; i++) {
          const c = t.columns[i]!;
          const v = at[i]! < 0 ? '' : (rec.fields[at[i]!] ?? '').trim();
          buf.byte(44);
          if (c.kind === 'text') buf.quoted(v);
          else if (c.kind === 'int') {
            const n = wholeNumber(v);
            if (n === undefined) throw cellError(fileName, rec.row, c.sap, `'${v}' is not a whole number.`);
            buf.ascii(n);
          } else {
            const d = sapDate(v);
            if (d === undefined) throw cellError(fileName, rec.row, c.sap, `'${v}' is not a date (YYYYMMDD; 00000000 for unlimited).`);
            buf.ascii(d);
          }
        }
        buf.byte(10);
        rows++;
      }
      if (buf.length >= CHUNK_BYTES) await flush();
    }
    await flush();
    await copy?.end();
    copy = undefined;
  } catch (e) {
    copy?.abort();
    throw e;
  }
  return rows;
}
