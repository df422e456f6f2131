// Real-world exports: each file built the way customers export it
// (SAP's title lines and report parameters above the header, French headers,
// Windows-1252 and UTF-16 text, comma decimals, data on a second sheet, a
// role-level report), loaded over REST, and the stored values checked field
// by field; 'Completed with warnings' whenever something was not loaded.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { adminClient, startServer, type Client, type TestServer } from '../helpers/server.js';
import { postUpload, settleUpload } from '../helpers/upload.js';

let server: TestServer;
let admin: Client;

beforeAll(async () => {
  server = await startServer();
  admin = await adminClient(server);
});
afterAll(async () => {
  await server?.close();
});

async function load(name: string, content: Buffer | string, fields: Record<string, string> = { emailNotification: 'false', skipDuplicates: 'false' }) {
  const { uploadId } = (await postUpload(server, admin, name, content, fields)).body;
  const status = await settleUpload(admin, uploadId);
  return { id: uploadId as string, status, details: (await admin.get(`/api/uploads/${uploadId}`)).body };
}

/** The stored rows of an upload, in file order, as the fields the product uses. */
async function stored(uploadId: string) {
  const rows = await server.app.deps.prisma.riskRow.findMany({ where: { uploadId }, orderBy: { id: 'asc' } });
  return rows.map(
    ({
      id: _id,
      uploadId: _u,
      rowHash: _h,
      createdAt: _c,
      aiSuggestedCategory: _a,
      aiCategoryConfidence: _b,
      aiProcessedAt: _p,
      aiCategoryAccepted: _x,
      ...r
    }) => ({
      ...r,
      lastExecutedOn: r.lastExecutedOn ? r.lastExecutedOn.toISOString().slice(0, 10) : null,
    }),
  );
}

// A French user-level export, every column, as SAP GRC's spreadsheet download writes it.
const FR_HEADER = [
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
const FR_ROWS = [
  [
    'FRU001',
    'Chloé Dubois',
    'FINANCE',
    'F001',
    'Créer fournisseur et payer',
    'Élevé',
    'SoD',
    '0301',
    'ORG01',
    'BUKRS',
    '1000',
    'FI',
    'Comptabilité',
    'FI01',
    'Gestion fournisseurs',
    'PRD',
    'FK01',
    'Créer fournisseur',
    'F_LFA1_BUK',
    'Fournisseur: société',
    'ACTVT',
    'Activité',
    '01',
    '02',
    'Z_FI_AP',
    'Comptable fournisseurs',
    'ZC_FIN_AP',
    'Composite finances',
    'MC_01',
    'Revue mensuelle',
    'MON1',
    'Hélène Roy',
    'Paiement fournisseur',
    '313,5',
    '15.03.2026',
  ],
  [
    'FRU002',
    'Hugo Lefèvre',
    'RH',
    'H002',
    'Paie et données maître',
    'Moyen',
    'SoD',
    '0102',
    '',
    '',
    '',
    'HR',
    'Ressources humaines',
    'HR01',
    'Paie',
    'PRD',
    'PA30',
    'Gérer données RH',
    'P_ORGIN',
    'RH: données maître',
    'INFTY',
    'Infotype',
    '0008',
    '',
    'Z_HR_ADMIN',
    'Administrateur RH',
    '',
    '',
    '',
    '',
    '',
    '',
    'Données RH',
    '1.234',
    '2026-01-31',
  ],
  [
    'FRU003',
    'Inès Martin',
    'RH',
    'H002',
    'Paie et données maître',
    'Faible',
    'SoD',
    '0102',
    '',
    '',
    '',
    'HR',
    'Ressources humaines',
    'HR01',
    'Paie',
    'PRD',
    'PA30',
    'Gérer données RH',
    'P_ORGIN',
    'RH: données maître',
    'INFTY',
    'Infotype',
    '0008',
    '',
    'Z_HR_ADMIN',
    'Administrateur RH',
    '',
    '',
    '',
    '',
    '',
    '',
    'Données RH',
    'beaucoup',
    'hier',
  ],
];
const frField = (v: string) => (/[;"\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

describe('a French user-level export as Excel writes CSV on Windows', () => {
  it('loads from Windows-1252 text, after the title and report parameters, with comma decimals; warns in words', async () => {
    const lines = [
      'Analyse des risques d’accès'.replace('’', "'"),
      'Type de rapport;Niveau autorisation',
      'Système;PRD',
      '',
      [...FR_HEADER, 'Centre de coût', 'Rôle composite (ancien)'].map(frField).join(';'),
      ...FR_ROWS.map((r) => [...r, 'CC1', ''].map(frField).join(';')),
    ];
    const file = Buffer.from(lines.join('\r\n') + '\r\n', 'latin1');
    const { id, status, details } = await load('analyse-fr.csv', file);
    expect(status).toMatchObject({ status: 'completed', statusLabel: 'Completed with warnings', recordCount: 3, errorMessage: null });
    expect(details.sourceLayout).toEqual({ format: 'CSV', encoding: 'Windows-1252', delimiter: 'semicolon', headerRow: 5, decimalSeparator: ',' });
    expect(status.warnings).toEqual([
      "Column 'Centre de coût' was not loaded: its name matches no field.",
      "Column 'Rôle composite (ancien)' was not loaded: its name matches no field.",
      // Not said here: 'Rôle utilisateur/composite' has values, so the look-alike costs nothing.
      "Row 8, column 'Comptage des exécutions': 'beaucoup' is not a number; the row was loaded without it.",
      "Row 8, column 'Dernière exécution': 'hier' is not a date (YYYY-MM-DD or DD.MM.YYYY); the row was loaded without it.",
    ]);
    const rows = await stored(id);
    expect(rows[0]).toEqual({
      userId: 'FRU001',
      userName: 'Chloé Dubois',
      userGroup: 'FINANCE',
      accessRiskId: 'F001',
      riskDescription: 'Créer fournisseur et payer',
      riskLevel: 'high',
      riskLevelLabel: 'Élevé',
      riskType: 'SoD',
      ruleId: '0301',
      orgRuleId: 'ORG01',
      orgLevel: 'BUKRS',
      orgValue: '1000',
      businessProcess: 'FI',
      businessProcessDescription: 'Comptabilité',
      function: 'FI01',
      functionDescription: 'Gestion fournisseurs',
      system: 'PRD',
      action: 'FK01',
      actionDescription: 'Créer fournisseur',
      resource: 'F_LFA1_BUK',
      resourceDescription: 'Fournisseur: société',
      resourceExtn: 'ACTVT',
      resourceExtnDesc: 'Activité',
      valueFrom: '01',
      valueTo: '02',
      roleProfile: 'Z_FI_AP',
      roleProfileDescription: 'Comptable fournisseurs',
      compositeBusinessRole: 'ZC_FIN_AP',
      compositeRoleDescription: 'Composite finances',
      mitigationControl: 'MC_01',
      mitigationControlDescription: 'Revue mensuelle',
      monitor: 'MON1',
      monitorName: 'Hélène Roy',
      shortDescription: 'Paiement fournisseur',
      executionCount: 313.5,
      lastExecutedOn: '2026-03-15',
    });
    expect(rows[1]).toMatchObject({ userId: 'FRU002', riskLevel: 'medium', compositeBusinessRole: '', executionCount: 1234, lastExecutedOn: '2026-01-31' });
    expect(rows[2]).toMatchObject({ userId: 'FRU003', riskLevel: 'low', executionCount: null, lastExecutedOn: null, shortDescription: 'Données RH' });
  });
});

const EN_HEADER = ['User ID', 'User Name', 'Access Risk ID', 'Risk Level', 'System', 'Role/Profile', 'Composite/Business Role', 'Execution Count'];
const EN_ROWS = [
  ['ENU01', 'Zoë Ångström', 'R001', 'Critical', 'ERP', 'Z_ROLE_A', 'ZC_A', '1,234'],
  ['ENU02', 'Łukasz Nowak', 'R002', 'Low', 'ERP', 'Z_ROLE_B', '', '42.5'],
];

describe('encodings and delimiters', () => {
  const tabText = [EN_HEADER, ...EN_ROWS].map((r) => r.join('\t')).join('\r\n') + '\r\n';
  const cases: [string, Buffer, string][] = [
    ['UTF-16 LE', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(tabText, 'utf16le')]), 'UTF-16 LE'],
    ['UTF-16 BE', Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(tabText, 'utf16le').swap16()]), 'UTF-16 BE'],
    ['UTF-16 LE without a BOM', Buffer.from(tabText, 'utf16le'), 'UTF-16 LE'],
    ['UTF-8 with a BOM', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(tabText)]), 'UTF-8 with BOM'],
    ['UTF-8', Buffer.from(tabText), 'UTF-8'],
  ];
  it.each(cases)('%s (tab-separated, as Excel saves Unicode text)', async (name, content, encoding) => {
    const { id, status, details } = await load(`${name}.csv`, content);
    expect(status).toMatchObject({ status: 'completed', statusLabel: 'Completed', warnings: [], recordCount: 2 });
    expect(details.sourceLayout).toEqual({ format: 'CSV', encoding, delimiter: 'tab', headerRow: 1, decimalSeparator: '.' });
    const rows = await stored(id);
    expect(
      rows.map((r) => [
        r.userId,
        r.userName,
        r.accessRiskId,
        r.riskLevel,
        r.riskLevelLabel,
        r.system,
        r.roleProfile,
        r.compositeBusinessRole,
        r.executionCount,
      ]),
    ).toEqual([
      ['ENU01', 'Zoë Ångström', 'R001', 'high', 'Critical', 'ERP', 'Z_ROLE_A', 'ZC_A', 1234],
      ['ENU02', 'Łukasz Nowak', 'R002', 'low', 'Low', 'ERP', 'Z_ROLE_B', '', 42.5],
    ]);
  });

  it("reads '313,5' as 313.5 in a comma file too (a comma not followed by three digits is a decimal mark), never 3135", async () => {
    const body = [EN_HEADER.join(','), 'ENU03,Ann,R003,High,ERP,Z_R,,"313,5"', 'ENU04,Ben,R004,High,ERP,Z_R,,"1,234"'].join('\n') + '\n';
    const { id, details } = await load('decimals.csv', body);
    expect(details.sourceLayout.decimalSeparator).toBe('.');
    expect((await stored(id)).map((r) => r.executionCount)).toEqual([313.5, 1234]);
  });

  it('names the field an unmapped column looks like', async () => {
    const body = ['User ID,Access Risk ID,System,Role/Profile,Composite Role Name', 'U1,R1,ERP,Z_R,ZC_1'].join('\n') + '\n';
    const { status } = await load('lookalike.csv', body);
    expect(status.statusLabel).toBe('Completed with warnings');
    expect(status.warnings).toEqual([
      "Column 'Composite Role Name' was not loaded: its name matches no field. It looks like Composite/Business Role, which no column filled; rename it 'Composite/Business Role' to load it.",
    ]);
  });
});

/** SAP's spreadsheet download: a title, the report's parameters and a blank row above the header. */
const PREAMBLE = [['Access Risk Analysis'], ['Report Type', 'Permission Level'], ['System', 'PRD'], []];

describe('a column the product uses, empty on every row, beside a look-alike that was not loaded', () => {
  it('warns in words and says what to rename', async () => {
    const body =
      [
        'User ID,Access Risk ID,System,Role/Profile,Composite Role,Composite Role (old),Rule ID',
        'E1,R1,ERP,Z_R,,ZC_OLD,0301',
        'E2,R2,ERP,Z_S,,ZC_OLD,0302',
      ].join('\n') + '\n';
    const { status } = await load('empty-composite.csv', body);
    expect(status).toMatchObject({ status: 'completed', statusLabel: 'Completed with warnings', recordCount: 2 });
    expect(status.warnings).toEqual([
      "Column 'Composite Role (old)' was not loaded: its name matches no field.",
      "Column 'Composite Role' (Composite/Business Role) is empty on every row, while column 'Composite Role (old)', which looks like it, was not loaded. Rename the columns so that 'Composite Role (old)' is 'Composite/Business Role', and upload the file again.",
    ]);
  });
});

describe('workbooks: the sheet with the header, below title lines', () => {
  it('.xlsx: skips a cover sheet and the title lines; the sheet and header row are shown', async () => {
    const wb = new ExcelJS.Workbook();
    const cover = wb.addWorksheet('Parameters');
    cover.addRow(['Selection']);
    cover.addRow(['User', '*']);
    cover.addRow(['System', 'PRD']);
    const data = wb.addWorksheet('Analysis');
    for (const r of PREAMBLE) data.addRow(r);
    data.addRow(EN_HEADER);
    data.addRow(['XLU01', 'Zoë', 'R001', 'High', 'ERP', 'Z_A', 'ZC_A', 313.5]);
    data.addRow(['XLU02', 'Ben', 'R002', 'Medium', 'ERP', 'Z_B', '', 7]);
    // Numbers typed as text the French way (a text cell, not a number cell).
    data.addRow(['XLU03', 'Cléo', 'R003', 'Low', 'ERP', 'Z_C', '', '313,5']);
    data.addRow(['XLU04', 'Dan', 'R004', 'Low', 'ERP', 'Z_D', '', '1.234,5']);
    const buf = Buffer.from(await wb.xlsx.writeBuffer());
    const { id, status, details } = await load('analysis.xlsx', buf);
    expect(status).toMatchObject({ status: 'completed', statusLabel: 'Completed', recordCount: 4, errorMessage: null });
    expect(details.sourceLayout).toEqual({ format: 'XLSX', sheet: 'Analysis', sheets: ['Parameters', 'Analysis'], headerRow: 5, decimalSeparator: '.' });
    expect((await stored(id)).map((r) => [r.userId, r.userName, r.riskLevel, r.roleProfile, r.compositeBusinessRole, r.executionCount])).toEqual([
      ['XLU01', 'Zoë', 'high', 'Z_A', 'ZC_A', 313.5],
      ['XLU02', 'Ben', 'medium', 'Z_B', '', 7],
      ['XLU03', 'Cléo', 'low', 'Z_C', '', 313.5],
      ['XLU04', 'Dan', 'low', 'Z_D', '', 1234.5],
    ]);
  });

  it('.xls: the same, through the legacy reader', async () => {
    const XLSX = (await import('xlsx')).default;
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([['Selection'], ['User', '*']]), 'Parameters');
    const rows = [...PREAMBLE, EN_HEADER, ['XSU01', 'Zoë', 'R001', 'High', 'ERP', 'Z_A', 'ZC_A', 313.5], ['XSU02', 'Ben', 'R002', 'Low', 'ERP', 'Z_B', '', 7]];
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(rows), 'Analysis');
    const buf = XLSX.write(wb, { type: 'buffer', bookType: 'biff8' }) as Buffer;
    const { id, status, details } = await load('analysis.xls', buf);
    expect(status).toMatchObject({ status: 'completed', recordCount: 2 });
    expect(details.sourceLayout).toEqual({ format: 'XLS', sheet: 'Analysis', sheets: ['Parameters', 'Analysis'], headerRow: 5, decimalSeparator: '.' });
    expect((await stored(id)).map((r) => [r.userId, r.userName, r.riskLevel, r.roleProfile, r.compositeBusinessRole, r.executionCount])).toEqual([
      ['XSU01', 'Zoë', 'high', 'Z_A', 'ZC_A', 313.5],
      ['XSU02', 'Ben', 'low', 'Z_B', '', 7],
    ]);
  });
});

describe('a role-level report', () => {
  it('is refused before any row is written, naming the report to export instead', async () => {
    const body =
      [
        'Access Risk Analysis - Role Level',
        'Role,Role Description,Access Risk ID,Risk Description,Risk Level,System,Function',
        'Z_FI_AP,Accounts payable,F001,Create vendor and pay,High,ERP,FI01',
      ].join('\n') + '\n';
    const { id, status } = await load('roles.csv', body);
    expect(status.status).toBe('failed');
    expect(status.errorMessage).toMatch(
      /^This is a role-level risk analysis .* at user level \(Analysis Type 'User Level', Report Type 'Permission Level'.* No rows were loaded\.$/,
    );
    expect(await server.app.deps.prisma.riskRow.count({ where: { uploadId: id } })).toBe(0);
  });
});

describe('GraphQL and e-mail', () => {
  it("show 'Completed with warnings', the warnings and the layout", async () => {
    const body = ['User ID;Access Risk ID;System;Role/Profile;Cost Centre', 'G1;R1;ERP;Z_R;CC9'].join('\n') + '\n';
    const { status } = await load('gql.csv', body, { emailNotification: 'true', skipDuplicates: 'false' });
    expect(status.statusLabel).toBe('Completed with warnings');
    const list = await admin.gql(
      '{ uploads(first: 1) { edges { node { originalName status statusLabel warnings sourceLayout { format encoding delimiter headerRow decimalSeparator sheet } } } } }',
    );
    expect(list.body.data.uploads.edges[0].node).toEqual({
      originalName: 'gql.csv',
      status: 'COMPLETED',
      statusLabel: 'Completed with warnings',
      warnings: ["Column 'Cost Centre' was not loaded: its name matches no field."],
      sourceLayout: { format: 'CSV', encoding: 'UTF-8', delimiter: 'semicolon', headerRow: 1, decimalSeparator: ',', sheet: null },
    });
    const dir = path.join(server.dataDir, 'outbox');
    const deadline = Date.now() + 20_000;
    let eml: string | undefined;
    while (!eml && Date.now() < deadline) {
      const files = fs.existsSync(dir) ? fs.readdirSync(dir) : [];
      eml = files.map((f) => fs.readFileSync(path.join(dir, f), 'utf8')).find((t) => t.includes('gql.csv'));
      if (!eml) await new Promise((r) => setTimeout(r, 200));
    }
    expect(eml).toMatch(/^Subject: Completed with warnings: gql\.csv$/m);
    expect(eml).toContain("Column 'Cost Centre' was not loaded");
  });
});
