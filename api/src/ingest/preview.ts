// The preview before a load: the layout found in the
// file (format, sheet, header row, encoding, delimiter), each source column
// with the field it maps to (or what it looks like), the first rows as they
// will be stored, and the problems found in the first rows, read exactly as
// the load reads them (the same reader, mapping and row checks). Only the
// first group of records is read: a CSV or .xlsx file previews from its
// first megabyte or so, however large it is; of a legacy .xls (a container
// that is read whole) only the first rows of each sheet are built.
import { IngestError, OverLimitError } from './csv.js';
import type { ByteSource } from '../db/storage/index.js';
import { openMapped, refusalOf, type MappingChoice, type SourceLayout } from './open-file.js';
import { fieldLabel, looksLikeField, type CanonicalField } from './headers.js';
import { CopyBuffer, RowProblems, ROW_COLUMNS, rowNormalizer, storedValue } from './rows.js';

export interface PreviewColumn {
  header: string;
  /** The field it loads into, or null (not loaded). */
  field: CanonicalField | null;
  /** For a column not loaded: the field it looks like, which no column fills. */
  suggestion: CanonicalField | null;
}

export interface FilePreview {
  layout: SourceLayout;
  columns: PreviewColumn[];
  /** The stored fields the sample rows show, in the export's order. */
  fields: CanonicalField[];
  rows: { row: number; values: (string | null)[] }[];
  /** Problems in the rows read: a value that will not be read, or a row that stops the load. */
  problems: string[];
  /** Columns not loaded, in words (as the load will warn). */
  warnings: string[];
  /** Why the file cannot be loaded with this mapping (nothing would be written), or null. */
  refusal: string | null;
}

/** How many records are read for problems, and how many of them are shown. */
export const PREVIEW_SCAN_ROWS = 500;
export const PREVIEW_SHOW_ROWS = 10;

export async function previewFile(file: string | ByteSource, originalName: string, choice: MappingChoice = {}): Promise<FilePreview> {
  const { reader, map, layout, columnWarnings } = await openMapped(file, originalName, PREVIEW_SCAN_ROWS, choice, PREVIEW_SCAN_ROWS * 2);
  try {
    const mapped = new Set(Object.values(map.mapping));
    const columns = reader.header.map((raw, i) => {
      const header = raw.replace(/^\uFEFF/, '').trim();
      const field = map.byIndex[i] ?? null;
      return { header, field, suggestion: field ? null : (looksLikeField(header, mapped) ?? null) };
    });
    const refusal = refusalOf(map) ?? null;
    const fields = ROW_COLUMNS.map(([f]) => f).filter((f) => mapped.has(f));
    const indexOf = new Map<CanonicalField, number>();
    map.byIndex.forEach((f, i) => f && indexOf.set(f, i));
    const decimalComma = layout.decimalSeparator === ',';
    const rows: FilePreview['rows'] = [];
    const problems: string[] = [];
    let records: { row: number; fields: string[] }[] = [];
    try {
      const first = await reader.batches.next();
      if (!first.done) records = first.value.records;
      // A short first group: the file ends there, or a broken row stops it (said below).
      if (!first.done && records.length < PREVIEW_SCAN_ROWS) await reader.batches.next();
    } catch (err) {
      // A file that breaks within its first rows (a row with too many fields, an unterminated quote);
      // a file over a budget of ingest/limits.ts is refused whole, as the load refuses it.
      if (!(err instanceof IngestError) || err instanceof OverLimitError) throw err;
      problems.push(`${err.message} The load would stop here.`);
    }
    if (!refusal) {
      const rowProblems = new RowProblems(PREVIEW_SHOW_ROWS * 2);
      const check = rowNormalizer(map, reader.header, 'preview', { decimalComma, problems: rowProblems });
      const scratch = new CopyBuffer(64 * 1024);
      for (const r of records) {
        try {
          check(r.row, r.fields, scratch);
        } catch (err) {
          if (!(err instanceof IngestError)) throw err;
          problems.push(`${err.message} The load would stop here.`);
          break;
        }
        scratch.length = 0;
      }
      problems.unshift(
        ...rowProblems.warnings().map((w) =>
          w
            .replace('the row was loaded without it', 'the row will be loaded without it')
            .replace('each row was kept without it', 'each row will be kept without it')
            .replace(/were loaded\.$/, 'will be loaded.'),
        ),
      );
    }
    for (const r of records.slice(0, PREVIEW_SHOW_ROWS)) {
      rows.push({ row: r.row, values: fields.map((f) => storedValue(f, r.fields[indexOf.get(f)!] ?? '', decimalComma)) });
    }
    return { layout, columns, fields, rows, problems, warnings: columnWarnings, refusal };
  } finally {
    await reader.batches.return(undefined).catch(() => {});
  }
}

/** The fields a column can be mapped to, with their English names (for pickers). */
export function mappableFields(): { field: CanonicalField; label: string }[] {
  return ROW_COLUMNS.map(([f]) => ({ field: f, label: fieldLabel(f) }));
}
