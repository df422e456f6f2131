// The errors of reading a file: what the user is told, by the load (the
// upload fails with it) and the preview (a 4xx, or a problem shown).
import { MAX_CELL_CHARS, MAX_COLUMNS, MAX_ROW_CHARS, figure } from './limits.js';

export class IngestError extends Error {}

/**
 * A file over one of the budgets of ingest/limits.ts: refused whole, in the
 * preview too (where a broken row is otherwise shown as a problem).
 */
export class OverLimitError extends IngestError {}

/** The refusal of a cell, a row or a row's columns over its budget (`column`: 0-based, with the header's name when known). */
export function overLimit(what: 'cell' | 'row' | 'columns', row: number, column: number, header?: readonly string[]): OverLimitError {
  const name = header?.[column]?.trim();
  const col = `column ${figure(column + 1)}${name ? ` ('${name.slice(0, 100)}')` : ''}`;
  if (what === 'cell') {
    return new OverLimitError(
      `Row ${figure(row)}, ${col}: the value is longer than ${figure(MAX_CELL_CHARS)} characters, the most a cell may hold (as in Excel). The file was not loaded.`,
    );
  }
  if (what === 'row') {
    return new OverLimitError(
      `Row ${figure(row)} is longer than ${figure(MAX_ROW_CHARS)} characters (its values together), the most a row may hold. The file was not loaded.`,
    );
  }
  return new OverLimitError(`Row ${figure(row)} has more than ${figure(MAX_COLUMNS)} columns, the most a row may have (as in Excel). The file was not loaded.`);
}
