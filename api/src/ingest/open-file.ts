// Opening a stored upload's file: the reader for its type (.csv, .xlsx,
// .xls), the header checked and mapped to the canonical fields. A file that
// is missing, has no recognisable header or lacks a required column is
// refused (IngestError) before any row is read, and left closed.
import path from 'node:path';
import { openCsv, IngestError, type CsvReader, type LayoutChoice } from './csv.js';
import { openXls, openXlsx } from './tables.js';
import { asSource, type ByteSource } from '../db/storage/index.js';
import { MAX_LISTED_COLUMNS, figure } from './limits.js';
import {
  HEADER_SEARCH_ROWS,
  fieldLabel,
  fieldOf,
  looksLikeField,
  mapHeaders,
  normalizeHeader,
  overridesOf,
  type CanonicalField,
  type ColumnOverrides,
  type HeaderMapping,
} from './headers.js';

/** What was found in the file, for View Details. */
export interface SourceLayout {
  format: 'CSV' | 'XLSX' | 'XLS';
  /** CSV: the text encoding (UTF-8, UTF-8 with BOM, UTF-16 LE/BE, Windows-1252). */
  encoding?: string;
  /** CSV: 'comma', 'semicolon' or 'tab'. */
  delimiter?: string;
  /** Workbooks: the sheet read, and the sheets it had. */
  sheet?: string;
  sheets?: string[];
  /** The row (1-based, as the file or sheet numbers it) that holds the header. */
  headerRow: number;
  /** The decimal mark numbers are read with. */
  decimalSeparator: '.' | ',';
  /** The saved column mapping applied (a file of another tool), if any. */
  profile?: string;
}

export interface OpenedFile {
  reader: CsvReader;
  map: HeaderMapping;
  layout: SourceLayout;
  /** One warning per source column that was not loaded, saying why. */
  columnWarnings: string[];
}

const DELIMITER_NAMES: Record<string, string> = { ',': 'comma', ';': 'semicolon', '\t': 'tab', '|': 'pipe' };

/** A header as a message or list shows it: at most 100 characters. */
const named = (h: string) => (h.length > 100 ? `${h.slice(0, 100)}…` : h);

/**
 * The columns not loaded as an upload keeps them (`unknownColumns`, shown in
 * every listing): the first MAX_LISTED_COLUMNS, each name at most 100
 * characters; columnWarnings counts the rest.
 */
export function listedUnknownColumns(map: HeaderMapping): string[] {
  return map.unknown.slice(0, MAX_LISTED_COLUMNS).map(named);
}

/**
 * Why each unmapped column was not loaded, in words (what it looks like, what
 * to rename it to): the first MAX_LISTED_COLUMNS, and how many more (an
 * upload keeps its warnings and every listing shows them).
 */
export function columnWarnings(map: HeaderMapping): string[] {
  const mapped = new Set<CanonicalField>(Object.values(map.mapping));
  const headerOf = new Map(Object.entries(map.mapping).map(([h, f]) => [f, h]));
  const excluded = new Set(map.excluded);
  const more = map.unknown.length - MAX_LISTED_COLUMNS;
  const listed = map.unknown.slice(0, MAX_LISTED_COLUMNS).map((raw) => {
    const h = named(raw);
    if (excluded.has(raw)) return `Column '${h}' was not loaded: the column mapping leaves it out.`;
    const same = fieldOf(raw);
    if (same) return `Column '${h}' was not loaded: column '${headerOf.get(same)}' already fills ${fieldLabel(same)}.`;
    const like = looksLikeField(raw, mapped);
    if (like)
      return `Column '${h}' was not loaded: its name matches no field. It looks like ${fieldLabel(like)}, which no column filled; rename it '${fieldLabel(like)}' to load it.`;
    return `Column '${h}' was not loaded: its name matches no field.`;
  });
  if (more > 0) listed.push(`... and ${figure(more)} more column${more === 1 ? ' was' : 's were'} not loaded.`);
  return listed;
}

/**
 * A column the product uses that was mapped but stayed empty on every row,
 * while a column that looks like it was not loaded: said in words (the
 * composite roles of a 'successful' upload must not be empty in silence).
 */
export function emptyColumnWarnings(map: HeaderMapping, used: readonly CanonicalField[], filled: ReadonlySet<CanonicalField>): string[] {
  const out: string[] = [];
  for (const [header, field] of Object.entries(map.mapping)) {
    if (!used.includes(field) || filled.has(field)) continue;
    const others = new Set<CanonicalField>(Object.values(map.mapping).filter((f) => f !== field));
    const like = map.unknown.find((h) => looksLikeField(h, others) === field);
    if (like) {
      out.push(
        `Column '${header}' (${fieldLabel(field)}) is empty on every row, while column '${like}', which looks like it, was not loaded. Rename the columns so that '${like}' is '${fieldLabel(field)}', and upload the file again.`,
      );
    }
  }
  return out;
}

/** A role-level risk analysis: risks inside roles, no user columns. */
export const ROLE_LEVEL_REPORT =
  "This is a role-level risk analysis (the risks inside roles, with no user columns). Reviews here are of users' access: in SAP Access Control run Access Risk Analysis at user level (Analysis Type 'User Level', Report Type 'Permission Level', Report Format 'Detailed') and upload that export. No rows were loaded.";

export const NOT_A_HEADER =
  'The first row is not a recognisable header. An Access Risk Analysis export starts with column names such as User ID, Access Risk ID, Role/Profile and System. A file of another tool loads once its columns are mapped: use Preview to map them and save the mapping as a profile.';

/** A saved column mapping (services keep them; ingest only applies them). */
export interface MappingProfileData {
  name: string;
  columns: readonly { header: string; field: string | null }[];
}

/**
 * The profile for a file's header: one whose every column the file has (the
 * one with the most columns; the first of equals). A file of another tool
 * then maps as the administrator saved it.
 */
export function matchProfile(header: readonly string[], profiles: readonly MappingProfileData[]): MappingProfileData | undefined {
  const keys = new Set(header.map(normalizeHeader).filter(Boolean));
  let best: MappingProfileData | undefined;
  for (const p of profiles) {
    if (!p.columns.length || !p.columns.every((c) => keys.has(normalizeHeader(c.header)))) continue;
    if (!best || p.columns.length > best.columns.length) best = p;
  }
  return best;
}

/** Why a file with this mapping cannot be loaded (before any row is read), or undefined. */
export function refusalOf(map: HeaderMapping): string | undefined {
  const fields = new Set(Object.values(map.mapping));
  if (fields.size < 2) return NOT_A_HEADER;
  if (map.missing.includes('User ID') && fields.has('accessRiskId') && (fields.has('roleProfile') || fields.has('compositeBusinessRole'))) {
    return ROLE_LEVEL_REPORT;
  }
  if (map.missing.length) {
    return (
      `Missing required column${map.missing.length > 1 ? 's' : ''}: ${map.missing.join(', ')}. No rows were loaded.` +
      (map.unknown.length ? ` Columns not recognised: ${map.unknown.slice(0, 10).join(', ')}.` : '')
    );
  }
  return undefined;
}

/**
 * How the columns are chosen: a confirmed mapping first, else a matching
 * profile, else the dictionary alone; and where the header is, when the
 * administrator chose the sheet or header row in the preview.
 */
export interface MappingChoice {
  overrides?: ColumnOverrides;
  profiles?: readonly MappingProfileData[];
  layout?: LayoutChoice;
}

/**
 * A file opened and mapped, not yet checked: for the load (which refuses) and
 * the preview (which shows why). `peekRows` (a preview): only about that many
 * rows below the header are needed, so a legacy .xls builds no more.
 */
export async function openMapped(file: string | ByteSource, originalName: string, groupRows: number, choice: MappingChoice = {}, peekRows = 0) {
  const source = asSource(file);
  await source.size().catch((err: { code?: string }) => {
    throw err.code === 'ENOENT' ? new IngestError('The stored file is missing; upload it again.') : err;
  });
  const ext = path.extname(originalName).toLowerCase();
  const at = choice.layout ?? {};
  const xlsRows = peekRows ? peekRows + (at.headerRow ?? HEADER_SEARCH_ROWS * 4) : 0;
  const reader =
    ext === '.xlsx'
      ? await openXlsx(source, groupRows, at)
      : ext === '.xls'
        ? await openXls(source, groupRows, at, xlsRows)
        : await openCsv(source, groupRows, at);
  const profile = choice.overrides ? undefined : matchProfile(reader.header, choice.profiles ?? []);
  const map = mapHeaders(reader.header, choice.overrides ?? (profile ? overridesOf(profile.columns) : undefined));
  const format = ext === '.xlsx' ? 'XLSX' : ext === '.xls' ? 'XLS' : 'CSV';
  const layout: SourceLayout = {
    format,
    ...(format === 'CSV' ? { encoding: reader.encoding, delimiter: DELIMITER_NAMES[reader.delimiter] ?? reader.delimiter } : {}),
    ...(reader.sheet !== undefined ? { sheet: reader.sheet, sheets: reader.sheets } : {}),
    headerRow: reader.headerRow,
    decimalSeparator: reader.delimiter === ';' ? ',' : '.',
    ...(profile ? { profile: profile.name } : {}),
  };
  return { reader, map, layout, columnWarnings: columnWarnings(map) };
}

/**
 * Opens `file` as the type its original name says, mapped as `choice` says,
 * and refuses it (IngestError, file closed) when it cannot be loaded. The
 * reader hands over groups of at most `groupRows` records, so only one
 * group's parsed fields are held at a time.
 */
export async function openUploadFile(file: string | ByteSource, originalName: string, groupRows: number, choice: MappingChoice = {}): Promise<OpenedFile> {
  const opened = await openMapped(file, originalName, groupRows, choice);
  const refusal = refusalOf(opened.map);
  if (refusal) {
    await opened.reader.batches.return(undefined).catch(() => {});
    throw new IngestError(refusal);
  }
  return opened;
}

/**
 * A generous guess of the rows in a file of this size (an export line is 400+
 * bytes, an .xlsx row ~240 compressed), to size the duplicate set up front.
 */
export function expectedRows(sizeBytes: number, originalName: string): number {
  return sizeBytes / (path.extname(originalName).toLowerCase() === '.xlsx' ? 230 : 400);
}
