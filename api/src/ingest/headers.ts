// Header mapping for Access Risk Analysis exports (ARCHITECTURE.md 'Import
// format'): headers are matched ignoring case, accents, spacing and
// punctuation, with the variants of header-dictionary.ts (English, French,
// SAP's abbreviations, other known layouts such as USER_ID). Unknown columns
// are reported; missing required ones fail the upload. Also where the header
// row is (title lines and report parameters above it are skipped), and which
// field an unmapped column looks like.
import { HEADER_DICTIONARY, type CanonicalField } from './header-dictionary.js';

export type { CanonicalField } from './header-dictionary.js';

export const REQUIRED: { label: string; any: CanonicalField[] }[] = [
  { label: 'User ID', any: ['userId'] },
  { label: 'Access Risk ID', any: ['accessRiskId'] },
  { label: 'Role/Profile or Composite Role', any: ['roleProfile', 'compositeBusinessRole'] },
  { label: 'System', any: ['system'] },
];

/** Lower case, accents removed, and only letters and digits kept. */
export function normalizeHeader(h: string): string {
  return h
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
}

const LOOKUP = new Map<string, CanonicalField>();
for (const [field, names] of Object.entries(HEADER_DICTIONARY) as [CanonicalField, readonly string[]][]) {
  for (const n of [field, ...names]) {
    const key = normalizeHeader(n);
    if (!LOOKUP.has(key)) LOOKUP.set(key, field);
  }
}

/** The field a header maps to, or undefined. */
export function fieldOf(header: string): CanonicalField | undefined {
  return LOOKUP.get(normalizeHeader(header.replace(/^\uFEFF/, '')));
}

export interface HeaderMapping {
  /** Column index -> canonical field (unmapped columns absent). */
  byIndex: (CanonicalField | undefined)[];
  /** Source header -> canonical field, for the upload's record. */
  mapping: Record<string, CanonicalField>;
  unknown: string[];
  missing: string[];
  /** Columns a confirmed mapping or profile leaves out on purpose (also in unknown). */
  excluded: string[];
}

/**
 * A mapping chosen by an administrator (in the preview, or saved as a
 * profile): normalised source header -> field, or null to leave the column
 * out. It comes before the dictionary.
 */
export type ColumnOverrides = ReadonlyMap<string, CanonicalField | null>;

export function isCanonicalField(f: string): f is CanonicalField {
  return Object.prototype.hasOwnProperty.call(HEADER_DICTIONARY, f);
}

/** The overrides of a list of { header, field } (field null or '' leaves the column out). */
export function overridesOf(columns: readonly { header: string; field: string | null }[]): ColumnOverrides {
  const out = new Map<string, CanonicalField | null>();
  for (const c of columns) {
    const key = normalizeHeader(c.header);
    if (key) out.set(key, c.field && isCanonicalField(c.field) ? c.field : null);
  }
  return out;
}

export function mapHeaders(headers: string[], overrides?: ColumnOverrides): HeaderMapping {
  const byIndex: (CanonicalField | undefined)[] = [];
  const mapping: Record<string, CanonicalField> = {};
  const unknown: string[] = [];
  const excluded: string[] = [];
  const seen = new Set<CanonicalField>();
  const clean = headers.map((raw) => raw.replace(/^\uFEFF/, '').trim());
  const keys = clean.map(normalizeHeader);
  // The chosen fields first, so a column the dictionary would map cannot take them.
  const chosen = keys.map((k) => (overrides?.has(k) ? overrides.get(k)! : undefined));
  for (const f of chosen) if (f) seen.add(f);
  const taken = new Set<CanonicalField>();
  clean.forEach((h, i) => {
    const own = chosen[i];
    const field = own !== undefined ? own : LOOKUP.get(keys[i]!);
    if (own === null) {
      if (h) {
        unknown.push(h);
        excluded.push(h);
      }
    } else if (field && !taken.has(field) && (own !== undefined || !seen.has(field))) {
      byIndex[i] = field;
      mapping[h] = field;
      seen.add(field);
      taken.add(field);
    } else if (h) {
      unknown.push(h);
    }
  });
  const missing = REQUIRED.filter((r) => !r.any.some((f) => seen.has(f))).map((r) => r.label);
  return { byIndex, mapping, unknown, missing, excluded };
}

/** How many distinct known columns a row names. */
export function headerScore(fields: readonly string[]): number {
  const seen = new Set<CanonicalField>();
  for (const f of fields) {
    if (typeof f !== 'string' || f.length > 100) continue;
    const field = LOOKUP.get(normalizeHeader(f));
    if (field) seen.add(field);
  }
  return seen.size;
}

/** True when a line looks like a header row at all (at least two known columns). */
export function looksLikeHeader(headers: string[]): boolean {
  return headerScore(headers) >= 2;
}

/**
 * How many lines above the header are looked at: a report's title, its
 * parameters (system, date, variant, selection) and blank lines.
 */
export const HEADER_SEARCH_ROWS = 50;

/** A row naming at least this many known columns is a header (a title or parameter line names at most one or two). */
export const HEADER_MIN_SCORE = 3;

/**
 * The index of the header among a file's first non-blank rows: the first row
 * if it names two known columns, else the first that names HEADER_MIN_SCORE,
 * else the one naming the most (at least two), else (another tool's report,
 * whose column names the dictionary does not know) the first row as wide as
 * the widest, when that is 3 cells or more: a title or parameter line above
 * it is narrower. The file is then mapped by a profile, or refused.
 */
export function findHeaderRow(rows: readonly (readonly string[])[]): number {
  let best = 0;
  let bestScore = 0;
  for (let i = 0; i < rows.length && i < HEADER_SEARCH_ROWS; i++) {
    const s = headerScore(rows[i]!);
    if (s >= HEADER_MIN_SCORE || (s >= 2 && i === 0)) return i;
    if (s > bestScore) {
      best = i;
      bestScore = s;
    }
  }
  return bestScore >= 2 ? best : widestRow(rows);
}

/** The first of the first rows as wide (in cells with a value) as the widest, if that is 3 or more; else 0. */
export function widestRow(rows: readonly (readonly string[])[]): number {
  const widths = rows.slice(0, HEADER_SEARCH_ROWS).map((r) => r.filter((c) => typeof c === 'string' && c.trim() !== '').length);
  const widest = Math.max(0, ...widths);
  return widest >= 3 ? widths.indexOf(widest) : 0;
}

/** English names of the fields, as the export writes them (for messages). */
export function fieldLabel(f: CanonicalField): string {
  return HEADER_DICTIONARY[f][0];
}

/**
 * The field an unmapped column looks like: one whose name (or a variant of at
 * least 5 letters) it contains, and that no other column filled. 'User ID
 * (SAP)' looks like User ID; 'Composite Role Name' like Composite/Business Role.
 */
export function looksLikeField(header: string, mapped: ReadonlySet<CanonicalField>): CanonicalField | undefined {
  const h = normalizeHeader(header);
  if (!h) return undefined;
  let best: CanonicalField | undefined;
  let bestLength = 0;
  for (const [key, field] of LOOKUP) {
    if (key.length < 5 || key.length <= bestLength || mapped.has(field)) continue;
    if (h.includes(key)) {
      best = field;
      bestLength = key.length;
    }
  }
  return best;
}
