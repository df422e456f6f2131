// A table of a zip read whole or in batches by its column names: the header
// (line 1) matched case-insensitively, blanks and case aside, to the columns a
// table needs; a required column missing is refused with the file named.
// Columns not asked for are ignored.
import { IngestError, type CsvReader } from '../csv.js';

export interface ColumnSpec {
  /** The column's name as files write it ('Access Risk ID', 'BNAME'). */
  name: string;
  required: boolean;
}

const key = (s: string) => s.trim().toLowerCase().replace(/\s+/g, ' ');

/** Where each asked column is in the header (-1: absent, optional). */
export function columnPositions(fileName: string, reader: Pick<CsvReader, 'header'>, specs: readonly ColumnSpec[]): number[] {
  const header = reader.header.map((h) => key(h.replace(/^\uFEFF/, '')));
  return specs.map((s) => {
    const at = header.indexOf(key(s.name));
    if (at < 0 && s.required)
      throw new IngestError(`${fileName}, line 1: the column '${s.name}' is missing (the header has ${reader.header.map((h) => `'${h.trim()}'`).join(', ')}).`);
    return at;
  });
}

/** A refusal naming the file, line and column. */
export function cellError(fileName: string, line: number, column: string, why: string): IngestError {
  return new IngestError(`${fileName}, line ${line}, column '${column}': ${why}`);
}
