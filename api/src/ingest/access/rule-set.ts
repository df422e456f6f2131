// A rule set's files read and checked whole before anything is written: every
// file and column there, enumerations (Risk Level, Risk Type, Status, Analysis
// Scope) read case-insensitively, no duplicate key, every function of
// risk_functions, function_actions and function_permissions defined, every
// risk with its functions (types A and P: one), every permission of an action
// of its function. A refusal names the file, line (header = line 1) and column.
import type { ByteSource } from '../../db/storage/index.js';
import { IngestError } from '../csv.js';
import { cellError, columnPositions, type ColumnSpec } from './table-columns.js';
import { openZipTables, type ZipTables } from './zip-tables.js';

export type RiskLevel = 'Critical' | 'High' | 'Medium' | 'Low';
export interface RuleRisk {
  riskId: string;
  description: string;
  level: RiskLevel;
  type: 'S' | 'A' | 'P';
  businessProcess: string;
  enabled: boolean;
  line: number;
}
export interface RuleFunction {
  functionId: string;
  description: string;
  businessProcess: string;
  scope: 'Single' | 'Cross';
  line: number;
}
export interface RuleRiskFunction {
  riskId: string;
  functionId: string;
  line: number;
}
export interface RuleAction {
  functionId: string;
  system: string;
  action: string;
  description: string;
  enabled: boolean;
  line: number;
}
export interface RulePermission {
  functionId: string;
  system: string;
  action: string;
  object: string;
  field: string;
  valueFrom: string;
  valueTo: string;
  enabled: boolean;
  line: number;
}
export interface RuleProcess {
  process: string;
  description: string;
}

export interface RuleSetData {
  risks: RuleRisk[];
  functions: RuleFunction[];
  riskFunctions: RuleRiskFunction[];
  actions: RuleAction[];
  permissions: RulePermission[];
  processes: RuleProcess[];
}

/** The files of a rule set and their columns (descriptions may be left out). */
export const RULE_SET_FILES = {
  risks: ['Access Risk ID', 'Risk Description?', 'Risk Level', 'Risk Type', 'Business Process?', 'Status'],
  risk_functions: ['Access Risk ID', 'Function ID'],
  functions: ['Function ID', 'Function Description?', 'Business Process?', 'Analysis Scope'],
  function_actions: ['Function ID', 'System', 'Action', 'Action Description?', 'Status'],
  function_permissions: ['Function ID', 'System', 'Action', 'Auth Object', 'Field', 'Value From', 'Value To?', 'Status'],
  business_processes: ['Business Process', 'Description?'],
} as const;
type FileName = keyof typeof RULE_SET_FILES;

const specsOf = (f: FileName): ColumnSpec[] => RULE_SET_FILES[f].map((c) => ({ name: c.replace(/\?$/, ''), required: !c.endsWith('?') }));

/** A row of a file: its line and a reader of its cells by column name. */
interface Row {
  line: number;
  get(column: string): string;
}

async function readAll(zip: ZipTables, file: FileName, rows: (r: Row) => void): Promise<void> {
  const reader = await zip.open(file, 10_000);
  const fileName = zip.tables.get(file)!.fileName;
  const specs = specsOf(file);
  const at = columnPositions(fileName, reader, specs);
  const index = new Map(specs.map((s, i) => [s.name, at[i]!]));
  for await (const batch of reader.batches) {
    for (const rec of batch.records) {
      rows({ line: rec.row, get: (c) => (index.get(c)! < 0 ? '' : (rec.fields[index.get(c)!] ?? '').trim()) });
    }
  }
}

function choice<T extends string>(fileName: string, r: Row, column: string, allowed: Record<string, T>): T {
  const v = r.get(column);
  const found = allowed[v.toLowerCase()];
  if (!found) throw cellError(fileName, r.line, column, `'${v}' is not one of ${[...new Set(Object.values(allowed))].join(', ')}.`);
  return found;
}

function required(fileName: string, r: Row, column: string): string {
  const v = r.get(column);
  if (!v) throw cellError(fileName, r.line, column, 'the value is empty.');
  return v;
}

const LEVELS: Record<string, RiskLevel> = { critical: 'Critical', high: 'High', medium: 'Medium', low: 'Low' };
const TYPES: Record<string, 'S' | 'A' | 'P'> = { s: 'S', a: 'A', p: 'P', 'segregation of duties': 'S', 'critical action': 'A', 'critical permission': 'P' };
const STATUS: Record<string, 'Enabled' | 'Disabled'> = { enabled: 'Enabled', disabled: 'Disabled' };
const SCOPES: Record<string, 'Single' | 'Cross'> = { single: 'Single', cross: 'Cross' };

/** A key seen once per file: the second is refused with the line of the first. */
function uniqueKeys(fileName: string, column: string) {
  const seen = new Map<string, number>();
  return (r: Row, ...parts: string[]) => {
    const k = JSON.stringify(parts);
    const first = seen.get(k);
    if (first !== undefined) throw cellError(fileName, r.line, column, `a duplicate of line ${first} (${parts.filter(Boolean).join(' / ')}).`);
    seen.set(k, r.line);
  };
}

/** Reads and checks a rule set's .zip; nothing is written. */
export async function readRuleSet(file: string | ByteSource): Promise<RuleSetData> {
  const zip = await openZipTables(file, 'The rule set');
  try {
    for (const f of Object.keys(RULE_SET_FILES) as FileName[]) {
      if (f !== 'business_processes' && !zip.tables.has(f)) {
        throw new IngestError(
          `The rule set has no file '${f}' (it needs ${Object.keys(RULE_SET_FILES)
            .filter((n) => n !== 'business_processes')
            .join(', ')}; business_processes is optional).`,
        );
      }
    }
    const data: RuleSetData = { risks: [], functions: [], riskFunctions: [], actions: [], permissions: [], processes: [] };
    const rkName = zip.tables.get('risks')!.fileName;
    const rkDupe = uniqueKeys(rkName, 'Access Risk ID');
    await readAll(zip, 'risks', (r) => {
      const riskId = required(rkName, r, 'Access Risk ID');
      rkDupe(r, riskId);
      data.risks.push({
        riskId,
        description: r.get('Risk Description'),
        level: choice(rkName, r, 'Risk Level', LEVELS),
        type: choice(rkName, r, 'Risk Type', TYPES),
        businessProcess: r.get('Business Process'),
        enabled: choice(rkName, r, 'Status', STATUS) === 'Enabled',
        line: r.line,
      });
    });
    const risks = new Set(data.risks.map((x) => x.riskId));

    const fnName = zip.tables.get('functions')!.fileName;
    const fnDupe = uniqueKeys(fnName, 'Function ID');
    await readAll(zip, 'functions', (r) => {
      const functionId = required(fnName, r, 'Function ID');
      fnDupe(r, functionId);
      data.functions.push({
        functionId,
        description: r.get('Function Description'),
        businessProcess: r.get('Business Process'),
        scope: choice(fnName, r, 'Analysis Scope', SCOPES),
        line: r.line,
      });
    });
    const functions = new Set(data.functions.map((f) => f.functionId));
    const knownFunction = (fileName: string, r: Row) => {
      const id = required(fileName, r, 'Function ID');
      if (!functions.has(id)) throw cellError(fileName, r.line, 'Function ID', `the function '${id}' is not in ${fnName}.`);
      return id;
    };

    const rfName = zip.tables.get('risk_functions')!.fileName;
    const rfDupe = uniqueKeys(rfName, 'Function ID');
    await readAll(zip, 'risk_functions', (r) => {
      const riskId = required(rfName, r, 'Access Risk ID');
      if (!risks.has(riskId)) throw cellError(rfName, r.line, 'Access Risk ID', `the risk '${riskId}' is not in ${rkName}.`);
      const functionId = knownFunction(rfName, r);
      rfDupe(r, riskId, functionId);
      data.riskFunctions.push({ riskId, functionId, line: r.line });
    });
    const fnCount = new Map<string, number>();
    for (const rf of data.riskFunctions) fnCount.set(rf.riskId, (fnCount.get(rf.riskId) ?? 0) + 1);
    for (const risk of data.risks) {
      const n = fnCount.get(risk.riskId) ?? 0;
      if (n === 0) throw cellError(rkName, risk.line, 'Access Risk ID', `the risk '${risk.riskId}' has no function in ${rfName}.`);
      if (risk.type !== 'S' && n !== 1)
        throw cellError(rkName, risk.line, 'Risk Type', `a risk of type ${risk.type} has one function; '${risk.riskId}' has ${n} in ${rfName}.`);
    }

    const faName = zip.tables.get('function_actions')!.fileName;
    const faDupe = uniqueKeys(faName, 'Action');
    await readAll(zip, 'function_actions', (r) => {
      const functionId = knownFunction(faName, r);
      const system = r.get('System');
      const action = required(faName, r, 'Action');
      faDupe(r, functionId, system, action);
      data.actions.push({
        functionId,
        system,
        action,
        description: r.get('Action Description'),
        enabled: choice(faName, r, 'Status', STATUS) === 'Enabled',
        line: r.line,
      });
    });
    const actionsOf = new Set(data.actions.map((a) => `${a.functionId}\u0000${a.action}`));

    const fpName = zip.tables.get('function_permissions')!.fileName;
    const fpDupe = uniqueKeys(fpName, 'Value From');
    await readAll(zip, 'function_permissions', (r) => {
      const functionId = knownFunction(fpName, r);
      const action = required(fpName, r, 'Action');
      if (!actionsOf.has(`${functionId}\u0000${action}`))
        throw cellError(fpName, r.line, 'Action', `'${action}' is not an action of the function '${functionId}' in ${faName}.`);
      const p = {
        functionId,
        system: r.get('System'),
        action,
        object: required(fpName, r, 'Auth Object'),
        field: required(fpName, r, 'Field'),
        valueFrom: required(fpName, r, 'Value From'),
        valueTo: r.get('Value To'),
        enabled: choice(fpName, r, 'Status', STATUS) === 'Enabled',
        line: r.line,
      };
      fpDupe(r, p.functionId, p.system, p.action, p.object, p.field, p.valueFrom, p.valueTo);
      data.permissions.push(p);
    });

    if (zip.tables.has('business_processes')) {
      const bpName = zip.tables.get('business_processes')!.fileName;
      const bpDupe = uniqueKeys(bpName, 'Business Process');
      await readAll(zip, 'business_processes', (r) => {
        const process = required(bpName, r, 'Business Process');
        bpDupe(r, process);
        data.processes.push({ process, description: r.get('Description') });
      });
    }
    if (!data.risks.length) throw new IngestError(`${rkName} has no risk.`);
    return data;
  } finally {
    await zip.close();
  }
}
