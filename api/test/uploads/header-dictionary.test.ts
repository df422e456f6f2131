// The header dictionary (api/src/ingest/header-dictionary.ts): each header as
// the user-level and role-level Access Risk Analysis exports write it, in
// English and French, with and without accents and with SAP's abbreviations,
// maps to its field; one test per variant.
import { describe, expect, it } from 'vitest';
import { HEADER_DICTIONARY } from '../../src/ingest/header-dictionary.js';
import { fieldOf, findHeaderRow, looksLikeField, mapHeaders, normalizeHeader } from '../../src/ingest/headers.js';

/** Written out here (not read from the dictionary), so a variant dropped from it fails. */
const CASES: [string, string][] = [
  // ARCHITECTURE.md's import table
  ['User ID', 'userId'],
  ['User Id', 'userId'],
  ['USER_ID', 'userId'],
  ['ID utilisateur', 'userId'],
  ['ID util.', 'userId'],
  ['User Name', 'userName'],
  ['Nom utilisateur', 'userName'],
  ["Nom d'utilisateur", 'userName'],
  ['User Group', 'userGroup'],
  ['Groupe utilisateur', 'userGroup'],
  ['Groupe util.', 'userGroup'],
  ['Access Risk ID', 'accessRiskId'],
  ["ID de risque d'acces", 'accessRiskId'],
  ["ID de risque d'accès", 'accessRiskId'],
  ['ID risque acces', 'accessRiskId'],
  ['ID risque accès', 'accessRiskId'],
  ['Risk Description', 'riskDescription'],
  ['Description du risque', 'riskDescription'],
  ['Risk Level', 'riskLevel'],
  ['Niveau du risque', 'riskLevel'],
  ['Niveau de risque', 'riskLevel'],
  ['Risk Type', 'riskType'],
  ['Type de risque', 'riskType'],
  ['Rule ID', 'ruleId'],
  ['ID de regle', 'ruleId'],
  ['ID de règle', 'ruleId'],
  ['ID règle', 'ruleId'],
  ['Org Rule ID', 'orgRuleId'],
  ['ID regle organ.', 'orgRuleId'],
  ['ID règle organ.', 'orgRuleId'],
  ['Org. Rule ID', 'orgRuleId'],
  ['Org Level', 'orgLevel'],
  ['Niveau org.', 'orgLevel'],
  ['Org Value', 'orgValue'],
  ['Valeur org.', 'orgValue'],
  ['Business Process', 'businessProcess'],
  ['Processus de gestion', 'businessProcess'],
  ['Processus metier', 'businessProcess'],
  ['Processus métier', 'businessProcess'],
  ['Business Process Description', 'businessProcessDescription'],
  ['Description du processus de gestion', 'businessProcessDescription'],
  ['Function', 'function'],
  ['Fonction', 'function'],
  ['Function Description', 'functionDescription'],
  ['Description de fonction', 'functionDescription'],
  ['Description de la fonction', 'functionDescription'],
  ['Func. Desc.', 'functionDescription'],
  ['System', 'system'],
  ['Systeme', 'system'],
  ['Système', 'system'],
  ['SYSTEME', 'system'],
  ['Action', 'action'],
  ['Action Description', 'actionDescription'],
  ["Description de l'action", 'actionDescription'],
  ['Resource', 'resource'],
  ['Ressource', 'resource'],
  ['Resource Description', 'resourceDescription'],
  ['Description de ressource', 'resourceDescription'],
  ['Description de la ressource', 'resourceDescription'],
  ['Resource Extn', 'resourceExtn'],
  ['Ressource externe', 'resourceExtn'],
  ['Extension de ressource', 'resourceExtn'],
  ['Resource Extn Desc', 'resourceExtnDesc'],
  ['Description externe de ressource', 'resourceExtnDesc'],
  ['Description ressource externe', 'resourceExtnDesc'],
  ['Resource Extension Description', 'resourceExtnDesc'],
  ['Value From', 'valueFrom'],
  ['Valeur de', 'valueFrom'],
  ['Value To', 'valueTo'],
  ['Valeur jusq.', 'valueTo'],
  ["Valeur jusqu'à", 'valueTo'],
  ['Role/Profile', 'roleProfile'],
  ['Role/Profil', 'roleProfile'],
  ['Rôle/Profil', 'roleProfile'],
  ['Role ID', 'roleProfile'],
  ['Role', 'roleProfile'],
  ['Rôle', 'roleProfile'],
  ['Role/Profile Description', 'roleProfileDescription'],
  ['Description de rôle/profil', 'roleProfileDescription'],
  ['Description de role/profil', 'roleProfileDescription'],
  ['Description rôle/profil', 'roleProfileDescription'],
  ['Role Description', 'roleProfileDescription'],
  ['Description du rôle', 'roleProfileDescription'],
  ['Composite/Business Role', 'compositeBusinessRole'],
  ['User/Composite Role', 'compositeBusinessRole'],
  ['Rôle utilisateur/composite', 'compositeBusinessRole'],
  ['Role utilisateur/composite', 'compositeBusinessRole'],
  ['Role composite', 'compositeBusinessRole'],
  ['Rôle composite', 'compositeBusinessRole'],
  ['Composite Role Description', 'compositeRoleDescription'],
  ['Description de rôle composite', 'compositeRoleDescription'],
  ['Description rôle utilisateur/composite', 'compositeRoleDescription'],
  ['Control', 'mitigationControl'],
  ['Contrôle', 'mitigationControl'],
  ['Controle', 'mitigationControl'],
  ['Mitigating Control', 'mitigationControl'],
  ["Contrôle d'atténuation", 'mitigationControl'],
  ['Control Description', 'mitigationControlDescription'],
  ['Description du contrôle', 'mitigationControlDescription'],
  ['Description de controle', 'mitigationControlDescription'],
  ['Monitor', 'monitor'],
  ['Moniteur', 'monitor'],
  ['Monitor Name', 'monitorName'],
  ['Nom du moniteur', 'monitorName'],
  ['Short description', 'shortDescription'],
  ['Description synthét.', 'shortDescription'],
  ['Description synthet.', 'shortDescription'],
  ['Description synthétique', 'shortDescription'],
  ['Description courte', 'shortDescription'],
  ['Execution Count', 'executionCount'],
  ['Comptage des exécutions', 'executionCount'],
  ['Comptage des executions', 'executionCount'],
  ["Nombre d'exécutions", 'executionCount'],
  ['Last Executed On', 'lastExecutedOn'],
  ['Dernière exécution', 'lastExecutedOn'],
  ['Derniere execution', 'lastExecutedOn'],
  ['Date de dernière exécution', 'lastExecutedOn'],
];

describe('every header variant maps to its field', () => {
  it.each(CASES)('%s -> %s', (header, field) => {
    expect(fieldOf(header)).toBe(field);
    // Case, spacing, punctuation, a BOM and surrounding blanks do not matter.
    expect(fieldOf(`\uFEFF ${header.toUpperCase().replace(/ /g, '_')} `)).toBe(field);
  });
});

describe('the dictionary', () => {
  it('covers every field of the export, and no variant names two fields', () => {
    const owner = new Map<string, string>();
    for (const [field, names] of Object.entries(HEADER_DICTIONARY)) {
      for (const n of names) {
        const k = normalizeHeader(n);
        expect(owner.get(k) ?? field, `'${n}' is given to ${owner.get(k)} and ${field}`).toBe(field);
        owner.set(k, field);
      }
    }
    expect(Object.keys(HEADER_DICTIONARY)).toHaveLength(35);
  });

  it('maps a full French user-level header with nothing unknown', () => {
    const fr = [
      'ID utilisateur',
      'Nom utilisateur',
      'Groupe util.',
      "ID de risque d'accès",
      'Description du risque',
      'Niveau de risque',
      'Type de risque',
      'ID règle',
      'ID règle organ.',
      'Niveau org.',
      'Valeur org.',
      'Processus de gestion',
      'Description du processus de gestion',
      'Fonction',
      'Description de fonction',
      'Système',
      'Action',
      "Description de l'action",
      'Ressource',
      'Description de ressource',
      'Ressource externe',
      'Description externe de ressource',
      'Valeur de',
      'Valeur jusq.',
      'Rôle/Profil',
      'Description de rôle/profil',
      'Rôle utilisateur/composite',
      'Description de rôle composite',
      'Contrôle',
      'Description du contrôle',
      'Moniteur',
      'Nom du moniteur',
      'Description synthét.',
      'Comptage des exécutions',
      'Dernière exécution',
    ];
    const m = mapHeaders(fr);
    expect(m.unknown).toEqual([]);
    expect(m.missing).toEqual([]);
    expect(new Set(Object.values(m.mapping)).size).toBe(35);
  });
});

describe('where the header is, and what an unmapped column looks like', () => {
  it('skips title lines, report parameters and blank lines', () => {
    const rows = [['Access Risk Analysis'], ['System:', 'PRD'], ['Report Type:', 'Permission Level'], ['User ID', 'Access Risk ID', 'System', 'Role']];
    expect(findHeaderRow(rows)).toBe(3);
    expect(
      findHeaderRow([
        ['User ID', 'System'],
        ['x', 'y'],
      ]),
    ).toBe(0);
    expect(findHeaderRow([['a', 'b'], ['c']])).toBe(0);
  });

  it('names the field an unmapped column looks like, if no column filled it', () => {
    expect(looksLikeField('Composite Role Name', new Set())).toBe('compositeBusinessRole');
    expect(looksLikeField('Composite Role Name', new Set(['compositeBusinessRole', 'roleProfile']))).toBeUndefined();
    expect(looksLikeField('Cost Centre', new Set())).toBeUndefined();
  });
});
