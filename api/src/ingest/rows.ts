// Turns a record of the export into a risk row: trimmed values by canonical
// field, the risk level normalised (Critical and High count as high; French
// variants too), usage columns parsed, and a hash of the export columns.
// A duplicate is a row whose export columns are all equal (after trimming) to
// another row's, in the same file or already loaded.
import crypto from 'node:crypto';
import type { CanonicalField, HeaderMapping } from './headers.js';
import { IngestError } from './csv.js';

export const ROW_COLUMNS: [CanonicalField, string][] = [
  ['userId', 'user_id'], ['userName', 'user_name'], ['userGroup', 'user_group'], ['accessRiskId', 'access_risk_id'],
  ['riskDescription', 'risk_description'], ['riskLevel', 'risk_level'], ['riskType', 'risk_type'], ['ruleId', 'rule_id'],
  ['orgRuleId', 'org_rule_id'], ['orgLevel', 'org_level'], ['orgValue', 'org_value'], ['businessProcess', 'business_process'],
  ['businessProcessDescription', 'business_process_description'], ['function', 'function'], ['functionDescription', 'function_description'],
  ['system', 'system'], ['action', 'action'], ['actionDescription', 'action_description'], ['resource', 'resource'],
  ['resourceDescription', 'resource_description'], ['resourceExtn', 'resource_extn'], ['resourceExtnDesc', 'resource_extn_desc'],
  ['valueFrom', 'value_from'], ['valueTo', 'value_to'], ['roleProfile', 'role_profile'], ['roleProfileDescription', 'role_profile_description'],
  ['compositeBusinessRole', 'composite_business_role'], ['compositeRoleDescription', 'composite_role_description'],
  ['mitigationControl', 'mitigation_control'], ['mitigationControlDescription', 'mitigation_control_description'],
  ['monitor', 'monitor'], ['monitorName', 'monitor_name'], ['shortDescription', 'short_description'],
  ['executionCount', 'execution_count'], ['lastExecutedOn', 'last_executed_on'],
];

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
  values: (string | null)[];
  hash: string;
}

/** Builds a function that turns a record into COPY values (or throws an IngestError naming row and column). */
export function rowNormalizer(map: HeaderMapping, headers: string[]) {
  const indexOf = new Map<CanonicalField, number>();
  map.byIndex.forEach((f, i) => f && indexOf.set(f, i));
  const headerOf = (f: CanonicalField) => headers[indexOf.get(f)!]?.trim() ?? f;
  const required: CanonicalField[] = ['userId', 'accessRiskId', 'system'];
  const roleFields: CanonicalField[] = ['roleProfile', 'compositeBusinessRole'];
  const hasLevel = indexOf.has('riskLevel');

  return (row: number, fields: string[], uploadId: string): NormalizedRow => {
    const get = (f: CanonicalField) => {
      const i = indexOf.get(f);
      return i === undefined ? '' : (fields[i] ?? '').trim();
    };
    for (const f of required) {
      if (!get(f)) throw new IngestError(`Row ${row}, column '${headerOf(f)}': the value is empty, but every row needs one.`);
    }
    if (!roleFields.some((f) => get(f))) {
      throw new IngestError(`Row ${row}: both Role/Profile and Composite Role are empty; every row needs one of them.`);
    }
    const values: (string | null)[] = [];
    let label = '';
    for (const [f] of ROW_COLUMNS) {
      const v = get(f);
      if (f === 'riskLevel') {
        if (!hasLevel) {
          values.push('high');
          continue;
        }
        const level = levelOf(v);
        if (!level) {
          throw new IngestError(
            `Row ${row}, column '${headerOf(f)}': '${v}' is not a risk level (use Critical, High, Medium or Low).`,
          );
        }
        label = v;
        values.push(level);
      } else if (f === 'executionCount') {
        if (!v) values.push(null);
        else {
          const n = Number(v.replace(/[\s,]/g, ''));
          if (!Number.isInteger(n) || n < 0 || n > 2_147_483_647) {
            throw new IngestError(`Row ${row}, column '${headerOf(f)}': '${v}' is not a whole number.`);
          }
          values.push(String(n));
        }
      } else if (f === 'lastExecutedOn') {
        const d = parseDate(v);
        if (d === undefined) throw new IngestError(`Row ${row}, column '${headerOf(f)}': '${v}' is not a date (use YYYY-MM-DD or DD.MM.YYYY).`);
        values.push(d);
      } else {
        values.push(v);
      }
    }
    const hash = crypto.createHash('sha1').update(values.map((v) => v ?? '').join('\u001f')).digest('base64');
    values.push(label, hash, uploadId);
    return { values, hash };
  };
}

/** One COPY CSV line. */
export function copyLine(values: (string | null)[]): string {
  let s = '';
  for (let i = 0; i < values.length; i++) {
    const v = values[i] ?? null;
    if (i) s += ',';
    if (v === null) continue; // unquoted empty = NULL in COPY CSV
    s += '"' + (v.includes('"') ? v.replace(/"/g, '""') : v) + '"';
  }
  return s + '\n';
}
