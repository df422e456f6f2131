// The budgets of an uploaded file, in one place: what a file may hold at
// most, so that no file, however crafted, makes the server hold more than a
// few tens of MB of it at once (`npm start` runs with a 192 MB heap). Each is
// checked where the reader already looks at the value (a length compare, no
// per-byte work), and a file over one is refused with a message naming the
// part, row and column and the limit (ingest/csv.ts IngestError).
// The figures are Excel's own where it has one (a cell, the columns), so any
// file Excel writes stays within them; docs/operations.md lists them.

/** Characters in one cell (Excel's own limit: a cell holds at most 32,767). */
export const MAX_CELL_CHARS = 32_767;

/** Columns in a row (Excel's own limit: XFD is column 16,384). */
export const MAX_COLUMNS = 16_384;

/** Characters in one row, all its cells together (an export's row is about 1,000). */
export const MAX_ROW_CHARS = 1024 * 1024;

/**
 * Records handed over at once are cut short at this many characters or
 * cells, whatever the group's row count (a file of very wide or very long
 * rows comes in smaller groups; an export's 2,000-row group is about 2 M
 * characters and 70,000 cells, under both).
 */
export const GROUP_CHARS = 8 * 1024 * 1024;
export const GROUP_CELLS = 256 * 1024;

/**
 * An .xlsx's shared strings (its table of distinct text values, held while
 * the workbook is read): at most this many strings and characters. A
 * million distinct values is far more than an export of a few million rows
 * has (users, roles, risks and their descriptions repeat); held, they cost
 * about 60 MB of the heap.
 */
export const MAX_SHARED_STRINGS = 1_000_000;
export const MAX_SHARED_STRING_CHARS = 32 * 1024 * 1024;

/** One row (or shared string) of an .xlsx's XML longer than this is refused. */
export const MAX_ELEMENT_CHARS = 32 * 1024 ** 2;

/**
 * Values that key the database's indexes (a user, a risk, a system, a role, a
 * composite role, a user group): at most this many bytes of UTF-8 (as many
 * Latin letters and digits), so that an index entry of up to four of them
 * stays under PostgreSQL's 2,704 bytes. Longer ones are refused with their
 * row and column.
 */
export const MAX_KEY_BYTES = 600;

/**
 * The names kept beside those keys for search (the user's name, the risk's
 * description): longer ones are loaded cut to this many characters (at most
 * 1,500 bytes, beside a key of 600), with a warning naming row and column.
 */
export const MAX_LABEL_CHARS = 500;

/** Warnings about columns not loaded that are listed one by one; the rest are counted in one more. */
export const MAX_LISTED_COLUMNS = 20;

/** 1,234,567 as people write it. */
export const figure = (n: number) => n.toLocaleString('en-US');
