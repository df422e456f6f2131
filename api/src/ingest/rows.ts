// Turns a record of the export into a risk row: trimmed values by canonical
// field, the risk level normalised (Critical and High count as high; French
// variants too), usage columns parsed, and a hash of the export columns.
// A duplicate is a row whose export columns are all equal (after trimming) to
// another row's, in the same file or already loaded.
import crypto from 'node:crypto';
import type { CanonicalField, HeaderMapping } from './headers.js';
import { IngestError } from './csv.js';
import { EXPORT_FIELDS } from './columns.js';

export const ROW_COLUMNS: [CanonicalField, string][] = EXPORT_FIELDS.map((f) => [f.field, f.column]);

/** The columns COPY writes, in order. */
export const COPY_COLUMNS = [...ROW_COLUMNS.map(([, c]) => c), 'risk_level_label', 'row_hash', 'upload_id'];

const LEVELS: Record<string, 'high' | 'medium' | 'low'> = {
  critical: 'high', critique: 'high', high: 'high', eleve: 'high', haut: 'high', 'tres eleve': 'high',
  medium: 'medium', moyen: 'medium', moyenne: 'medium', med: 'medium',
  low: 'low', faible: 'low', bas: 'low',
};

function levelOf(raw: string): 'high' | 'medium' | 'low' | undefined {
  const k = raw.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase().trim();
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

export interface NormalizedRow {
  /** The row as one COPY CSV line (with its label, hash and upload id). */
  line: string;
  hash: string;
}

/** A COPY CSV field: quoted, so an empty string stays an empty string (not NULL). */
function q(v: string): string {
  return v.includes('"') ? '"' + v.replace(/"/g, '""') + '"' : '"' + v + '"';
}

function trimmed(v: string): string {
  const n = v.length;
  return n && (v.charCodeAt(0) <= 32 || v.charCodeAt(n - 1) <= 32) ? v.trim() : v;
}

/**
 * Builds a function that turns a record into a COPY line (or throws an
 * IngestError naming row and column). The hash is of the export columns'
 * values, so equal rows hash equally whatever file they came from.
 */
export function rowNormalizer(map: HeaderMapping, headers: string[]) {
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

  return (row: number, fields: string[], uploadId: string): NormalizedRow => {
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
    let label = '';
    if (hasLevel) {
      label = values[kLevel]!;
      const level = levelOf(label);
      if (!level) throw new IngestError(`Row ${row}, column '${headerOf('riskLevel')}': '${label}' is not a risk level (use Critical, High, Medium or Low).`);
      values[kLevel] = level;
    } else values[kLevel] = 'high';

    let line = '';
    for (let k = 0; k < width; k++) {
      const v = values[k]!;
      if (k) line += ',';
      if (k === kCount) {
        if (!v) continue; // NULL
        const n = Number(v.replace(/[\s,]/g, ''));
        if (!Number.isInteger(n) || n < 0 || n > 2_147_483_647) throw new IngestError(`Row ${row}, column '${headerOf('executionCount')}': '${v}' is not a whole number.`);
        line += n;
      } else if (k === kDate) {
        const d = parseDate(v);
        if (d === undefined) throw new IngestError(`Row ${row}, column '${headerOf('lastExecutedOn')}': '${v}' is not a date (use YYYY-MM-DD or DD.MM.YYYY).`);
        if (d !== null) line += d;
      } else {
        line += q(v);
      }
    }
    const hash = crypto.hash('sha1', line, 'base64');
    return { line: line + ',' + q(label) + ',"' + hash + '","' + uploadId + '"\n', hash };
  };
}
