// Header mapping for Access Risk Analysis exports (ARCHITECTURE.md 'Import
// format'): headers are matched ignoring case, accents, spacing and
// punctuation, in English and French, and in other known layouts (USER_ID).
// Unknown columns are reported; missing required ones fail the upload.

export type CanonicalField =
  | 'userId' | 'userName' | 'userGroup' | 'accessRiskId' | 'riskDescription' | 'riskLevel' | 'riskType'
  | 'ruleId' | 'orgRuleId' | 'orgLevel' | 'orgValue' | 'businessProcess' | 'businessProcessDescription'
  | 'function' | 'functionDescription' | 'system' | 'action' | 'actionDescription' | 'resource'
  | 'resourceDescription' | 'resourceExtn' | 'resourceExtnDesc' | 'valueFrom' | 'valueTo' | 'roleProfile'
  | 'roleProfileDescription' | 'compositeBusinessRole' | 'compositeRoleDescription' | 'mitigationControl'
  | 'mitigationControlDescription' | 'monitor' | 'monitorName' | 'shortDescription' | 'executionCount'
  | 'lastExecutedOn';

/** Header variants per field, as exported (normalised before matching). */
const VARIANTS: Record<CanonicalField, string[]> = {
  userId: ['User ID', 'User Id', 'UserID', 'ID utilisateur', 'ID util.', 'User'],
  userName: ['User Name', 'Username', 'Nom utilisateur', "Nom d'utilisateur"],
  userGroup: ['User Group', 'Groupe utilisateur', 'Groupe util.'],
  accessRiskId: ['Access Risk ID', 'Access Risk', 'Risk ID', "ID de risque d'acces", 'ID risque acces'],
  riskDescription: ['Risk Description', 'Description du risque', 'Description risque'],
  riskLevel: ['Risk Level', 'Niveau du risque', 'Niveau de risque'],
  riskType: ['Risk Type', 'Type de risque'],
  ruleId: ['Rule ID', 'ID de regle', 'ID regle'],
  orgRuleId: ['Org Rule ID', 'ID regle organ.', 'ID regle org.'],
  orgLevel: ['Org Level', 'Niveau org.', 'Niveau organisationnel'],
  orgValue: ['Org Value', 'Valeur org.', 'Valeur organisationnelle'],
  businessProcess: ['Business Process', 'Processus de gestion', 'Processus metier'],
  businessProcessDescription: ['Business Process Description', 'Description processus de gestion', 'Description processus metier'],
  function: ['Function', 'Fonction'],
  functionDescription: ['Function Description', 'Description fonction', 'Description de la fonction'],
  system: ['System', 'Systeme'],
  action: ['Action'],
  actionDescription: ['Action Description', "Description de l'action", 'Description action'],
  resource: ['Resource', 'Ressource'],
  resourceDescription: ['Resource Description', 'Description ressource', 'Description de la ressource'],
  resourceExtn: ['Resource Extn', 'Resource Extension', 'Ressource externe'],
  resourceExtnDesc: ['Resource Extn Desc', 'Resource Extn Description', 'Description ressource externe'],
  valueFrom: ['Value From', 'Valeur de'],
  valueTo: ['Value To', 'Valeur jusq.', "Valeur jusqu'a"],
  roleProfile: ['Role/Profile', 'Role Profile', 'Role/Profil', 'Role ID', 'Role'],
  roleProfileDescription: ['Role/Profile Description', 'Role Profile Description', 'Description role/profil', 'Role Description'],
  compositeBusinessRole: ['Composite/Business Role', 'Composite Business Role', 'User/Composite Role', 'Composite Role', 'Role composite'],
  compositeRoleDescription: ['Composite Role Description', 'Composite/Business Role Description', 'Description role composite'],
  mitigationControl: ['Control', 'Control ID', 'Mitigating Control', 'Controle'],
  mitigationControlDescription: ['Control Description', 'Description controle'],
  monitor: ['Monitor', 'Moniteur'],
  monitorName: ['Monitor Name', 'Nom du moniteur'],
  shortDescription: ['Short description', 'Description courte'],
  executionCount: ['Execution Count', "Nombre d'executions"],
  lastExecutedOn: ['Last Executed On', 'Derniere execution'],
};

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
for (const [field, names] of Object.entries(VARIANTS) as [CanonicalField, string[]][]) {
  for (const n of [field, ...names]) {
    const key = normalizeHeader(n);
    if (!LOOKUP.has(key)) LOOKUP.set(key, field);
  }
}

export interface HeaderMapping {
  /** Column index -> canonical field (unmapped columns absent). */
  byIndex: (CanonicalField | undefined)[];
  /** Source header -> canonical field, for the upload's record. */
  mapping: Record<string, CanonicalField>;
  unknown: string[];
  missing: string[];
}

export function mapHeaders(headers: string[]): HeaderMapping {
  const byIndex: (CanonicalField | undefined)[] = [];
  const mapping: Record<string, CanonicalField> = {};
  const unknown: string[] = [];
  const seen = new Set<CanonicalField>();
  headers.forEach((raw, i) => {
    const h = raw.replace(/^\uFEFF/, '').trim();
    const field = LOOKUP.get(normalizeHeader(h));
    if (field && !seen.has(field)) {
      byIndex[i] = field;
      mapping[h] = field;
      seen.add(field);
    } else if (h) {
      unknown.push(h);
    }
  });
  const missing = REQUIRED.filter((r) => !r.any.some((f) => seen.has(f))).map((r) => r.label);
  return { byIndex, mapping, unknown, missing };
}

/** True when a line looks like a header row at all (at least two known columns). */
export function looksLikeHeader(headers: string[]): boolean {
  return headers.filter((h) => LOOKUP.has(normalizeHeader(h))).length >= 2;
}
