// Small hand-made rule sets and estates for the engine's rule-by-rule tests.
import { emptyEstate, type Estate, type Row, type RuleSetFiles } from '../../../../scripts/access-estate.js';

export const risk = (id: string, type = 'S', status = 'Enabled'): Row => ({
  'Access Risk ID': id,
  'Risk Description': `Risk ${id}`,
  'Risk Level': 'High',
  'Risk Type': type,
  'Business Process': 'FI',
  Status: status,
});
export const fn = (id: string, scope = 'Single'): Row => ({
  'Function ID': id,
  'Function Description': `Function ${id}`,
  'Business Process': 'FI',
  'Analysis Scope': scope,
});
export const rf = (riskId: string, functionId: string): Row => ({ 'Access Risk ID': riskId, 'Function ID': functionId });
export const act = (functionId: string, action: string, system = '', status = 'Enabled'): Row => ({
  'Function ID': functionId,
  System: system,
  Action: action,
  'Action Description': `Run ${action}`,
  Status: status,
});
export const perm = (functionId: string, action: string, object: string, field: string, from: string, to = '', status = 'Enabled', system = ''): Row => ({
  'Function ID': functionId,
  System: system,
  Action: action,
  'Auth Object': object,
  Field: field,
  'Value From': from,
  'Value To': to,
  Status: status,
});

/** A rule set: files given, the rest empty. */
export function rules(files: Partial<RuleSetFiles>): RuleSetFiles {
  return { risks: [], risk_functions: [], functions: [], function_actions: [], function_permissions: [], ...files };
}

/** The usual pair: R1 = F1 (FB01 with company code 1000, activity 01) and F2 (F-53, no permission). */
export function pairRules(extra: Partial<RuleSetFiles> = {}): RuleSetFiles {
  return rules({
    risks: [risk('R1')],
    functions: [fn('F1'), fn('F2')],
    risk_functions: [rf('R1', 'F1'), rf('R1', 'F2')],
    function_actions: [act('F1', 'FB01'), act('F2', 'F-53')],
    function_permissions: [perm('F1', 'FB01', 'F_BKPF_BUK', 'BUKRS', '1000'), perm('F1', 'FB01', 'F_BKPF_BUK', 'ACTVT', '01')],
    ...extra,
  });
}

export const user = (bname: string, more: Row = {}): Row => ({
  MANDT: '100',
  BNAME: bname,
  CLASS: 'FIN',
  USTYP: 'A',
  UFLAG: '0',
  GLTGV: '00000000',
  GLTGB: '99991231',
  ...more,
});
export const assign = (uname: string, role: string, more: Row = {}): Row => ({
  AGR_NAME: role,
  UNAME: uname,
  FROM_DAT: '20260101',
  TO_DAT: '99991231',
  COL_FLAG: '',
  ...more,
});
export const tcode = (role: string, low: string, high = '', more: Row = {}): Row => ({
  AGR_NAME: role,
  OBJECT: 'S_TCODE',
  AUTH: 'T-1',
  FIELD: 'TCD',
  LOW: low,
  HIGH: high,
  DELETED: '',
  ...more,
});
export const auth = (role: string, object: string, authName: string, field: string, low: string, high = '', more: Row = {}): Row => ({
  AGR_NAME: role,
  OBJECT: object,
  AUTH: authName,
  FIELD: field,
  LOW: low,
  HIGH: high,
  DELETED: '',
  ...more,
});

/** An estate: tables given, the rest empty. */
export function estate(tables: Partial<Estate>): Estate {
  return { ...emptyEstate(), ...tables } as Estate;
}

/** Z_POST: FB01 with company code 1000 and activity 01 in one authorization; Z_PAY: F-53. */
export const POST_ROLE = [tcode('Z_POST', 'FB01'), auth('Z_POST', 'F_BKPF_BUK', 'BUK1', 'BUKRS', '1000'), auth('Z_POST', 'F_BKPF_BUK', 'BUK1', 'ACTVT', '01')];
export const PAY_ROLE = [tcode('Z_PAY', 'F-53')];
