// Preview before load and column-mapping profiles,
// with files built the way customers export them: the administrator sees the
// layout, each column's field, the first rows as they will be stored and the
// problems, with nothing written; fixes the mapping; 'Start Upload' loads
// with it (saved as a profile, applied to the next file of that tool by
// itself). Over REST and GraphQL, on PGlite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { adminClient, startServer, type Client, type TestServer } from '../helpers/server.js';
import { encodeGlobalID } from '@pothos/plugin-relay';

let server: TestServer;
let admin: Client;

beforeAll(async () => {
  server = await startServer();
  admin = await adminClient(server);
}, 60_000);
afterAll(async () => {
  await server?.close();
});

async function multipart(url: string, name: string, content: Buffer | string, fields: Record<string, string> = {}) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new Blob([typeof content === 'string' ? content : new Uint8Array(content)]), name);
  const res = await fetch(server.url + url, { method: 'POST', body: form, headers: { cookie: admin.cookieHeader } });
  return { status: res.status, body: (await res.json()) as any };
}

async function finished(uploadId: string) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const s = await admin.get(`/api/upload-status/${uploadId}`);
    if (s.body.status !== 'processing') return { status: s.body, details: (await admin.get(`/api/uploads/${uploadId}`)).body };
    if (Date.now() > deadline) throw new Error('upload did not finish');
    await new Promise((r) => setTimeout(r, 200));
  }
}

const counts = async () => ({ uploads: await server.app.deps.prisma.upload.count(), rows: await server.app.deps.prisma.riskRow.count() });

async function rowsOf(uploadId: string) {
  return server.app.deps.prisma.riskRow.findMany({ where: { uploadId }, orderBy: { id: 'asc' } });
}

const OPTIONS = { emailNotification: false, skipDuplicates: false };

// A French user-level export as Excel saves CSV on Windows: Windows-1252, semicolons, comma decimals, SAP's title lines.
const FR_LINES = [
  'Analyse des risques',
  'Système;PRD',
  '',
  "ID utilisateur;Nom utilisateur;ID de risque d'accès;Niveau de risque;Système;Rôle/Profil;Rôle utilisateur/composite;Comptage des exécutions;Dernière exécution;Centre de coût;Rôle composite (ancien)",
  'FRU001;Chloé Dubois;F001;Élevé;PRD;Z_FI_AP;ZC_FIN;313,5;15.03.2026;CC1;',
  'FRU002;Hugo Lefèvre;H002;Moyen;PRD;Z_HR;;beaucoup;2026-01-31;CC2;',
];
const frFile = () => Buffer.from(FR_LINES.join('\r\n') + '\r\n', 'latin1');

describe('preview of a French Windows-1252 export', () => {
  it('shows layout, mapping, rows as stored and problems, and writes nothing', async () => {
    const before = await counts();
    const { status, body: p } = await multipart('/api/upload/preview', 'analyse.csv', frFile());
    expect(status).toBe(200);
    expect(p.layout).toEqual({ format: 'CSV', encoding: 'Windows-1252', delimiter: 'semicolon', headerRow: 4, decimalSeparator: ',' });
    expect(p.refusal).toBeNull();
    expect(p.columns).toEqual([
      { header: 'ID utilisateur', field: 'userId', suggestion: null },
      { header: 'Nom utilisateur', field: 'userName', suggestion: null },
      { header: "ID de risque d'accès", field: 'accessRiskId', suggestion: null },
      { header: 'Niveau de risque', field: 'riskLevel', suggestion: null },
      { header: 'Système', field: 'system', suggestion: null },
      { header: 'Rôle/Profil', field: 'roleProfile', suggestion: null },
      { header: 'Rôle utilisateur/composite', field: 'compositeBusinessRole', suggestion: null },
      { header: 'Comptage des exécutions', field: 'executionCount', suggestion: null },
      { header: 'Dernière exécution', field: 'lastExecutedOn', suggestion: null },
      { header: 'Centre de coût', field: null, suggestion: null },
      { header: 'Rôle composite (ancien)', field: null, suggestion: null },
    ]);
    expect(p.fields).toEqual([
      'userId',
      'userName',
      'accessRiskId',
      'riskLevel',
      'system',
      'roleProfile',
      'compositeBusinessRole',
      'executionCount',
      'lastExecutedOn',
    ]);
    expect(p.rows).toEqual([
      { row: 5, values: ['FRU001', 'Chloé Dubois', 'F001', 'high', 'PRD', 'Z_FI_AP', 'ZC_FIN', '313.5', '2026-03-15'] },
      { row: 6, values: ['FRU002', 'Hugo Lefèvre', 'H002', 'medium', 'PRD', 'Z_HR', '', null, '2026-01-31'] },
    ]);
    expect(p.problems).toEqual(["Row 6, column 'Comptage des exécutions': 'beaucoup' is not a number; the row will be loaded without it."]);
    expect(p.warnings).toEqual([
      "Column 'Centre de coût' was not loaded: its name matches no field.",
      "Column 'Rôle composite (ancien)' was not loaded: its name matches no field.",
    ]);
    expect(p.mappableFields).toContainEqual({ field: 'compositeRoleDescription', label: 'Composite Role Description' });
    expect(await counts()).toEqual(before);
  });

  it('previews a changed mapping, and Start Upload loads with it (a column left out still warns)', async () => {
    const { body: p } = await multipart('/api/upload/preview', 'analyse.csv', frFile());
    const mapping = p.columns.map((c: any) => ({ header: c.header, field: c.header === 'Centre de coût' ? 'orgValue' : c.field }));
    const again = await admin.post(`/api/upload/preview/${p.previewId}`, { columnMapping: mapping });
    expect(again.status).toBe(200);
    expect(again.body.fields).toContain('orgValue');
    expect(again.body.rows[0].values[again.body.fields.indexOf('orgValue')]).toBe('CC1');
    // Sent as not loaded: left out on purpose, and still said.
    expect(again.body.warnings).toEqual(["Column 'Rôle composite (ancien)' was not loaded: the column mapping leaves it out."]);

    const started = await admin.post(`/api/upload/preview/${p.previewId}/start`, { ...OPTIONS, columnMapping: mapping });
    expect(started.status).toBe(202);
    const { status, details } = await finished(started.body.uploadId);
    expect(status).toMatchObject({ status: 'completed', statusLabel: 'Completed with warnings', recordCount: 2 });
    expect(status.warnings).toEqual([
      "Column 'Rôle composite (ancien)' was not loaded: the column mapping leaves it out.",
      "Row 6, column 'Comptage des exécutions': 'beaucoup' is not a number; the row was loaded without it.",
    ]);
    expect(details.columnMapping['Centre de coût']).toBe('orgValue');
    const rows = await rowsOf(started.body.uploadId);
    expect(
      rows.map((r) => [r.userId, r.userName, r.riskLevel, r.orgValue, r.compositeBusinessRole, r.executionCount, r.lastExecutedOn?.toISOString().slice(0, 10)]),
    ).toEqual([
      ['FRU001', 'Chloé Dubois', 'high', 'CC1', 'ZC_FIN', 313.5, '2026-03-15'],
      ['FRU002', 'Hugo Lefèvre', 'medium', 'CC2', '', null, '2026-01-31'],
    ]);
    // Started once: the preview is gone.
    expect((await admin.post(`/api/upload/preview/${p.previewId}/start`, OPTIONS)).status).toBe(404);
  });

  it('refuses, before writing anything, a mapping that cannot load the file or names a field twice', async () => {
    const { body: p } = await multipart('/api/upload/preview', 'analyse.csv', frFile());
    const before = await counts();
    const noSystem = p.columns.map((c: any) => ({ header: c.header, field: c.field === 'system' ? null : c.field }));
    const refused = await admin.post(`/api/upload/preview/${p.previewId}/start`, { ...OPTIONS, columnMapping: noSystem });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/^Missing required column: System\. No rows were loaded\./);
    const twice = await admin.post(`/api/upload/preview/${p.previewId}`, {
      columnMapping: [
        { header: 'Centre de coût', field: 'userId' },
        { header: 'ID utilisateur', field: 'userId' },
      ],
    });
    expect(twice.status).toBe(400);
    expect(twice.body.message).toBe("columnMapping: columns 'Centre de coût' and 'ID utilisateur' are both mapped to User ID; map each field once");
    const unknown = await admin.post(`/api/upload/preview/${p.previewId}`, { columnMapping: [{ header: 'Centre de coût', field: 'costCentre' }] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe("columnMapping: 'costCentre' is not a field (column 'Centre de coût')");
    expect(await counts()).toEqual(before);
    expect((await multipart('/api/upload/preview', 'notes.txt', 'hello')).body.message).toBe(
      "Files of type '.txt' cannot be loaded: upload a .csv, .xlsx or .xls file.",
    );
  });

  it('shows why a role-level report or a broken row would stop the load; a large file is read only at its start', async () => {
    const roleLevel = ['Access Risk ID,Risk Level,System,Role/Profile,Function', 'R001,High,PRD,Z_FI_AP,FI01'].join('\n') + '\n';
    const { body: r } = await multipart('/api/upload/preview', 'role-level.csv', roleLevel);
    expect(r.refusal).toMatch(/^This is a role-level risk analysis \(the risks inside roles, with no user columns\)\./);
    const broken = ['User ID,Access Risk ID,System,Role/Profile', 'U1,R1,PRD,Z_A', 'U2,R2,PRD'].join('\n') + '\n';
    // The rows above the broken one are shown, and where the load would stop.
    const { body: small } = await multipart('/api/upload/preview', 'broken.csv', broken);
    expect(small.rows).toEqual([{ row: 2, values: ['U1', 'R1', 'PRD', 'Z_A'] }]);
    expect(small.problems).toEqual(["Row 3 has 3 fields, but the header has 4. Check for a missing or extra ',' on that row. The load would stop here."]);
    // A large file previews from its first rows only (about a megabyte): a broken row far below is not read.
    const rows = Array.from({ length: 3000 }, (_, i) => `U${i},R${i},PRD,Z_${'A'.repeat(400)}`);
    const big = ['User ID,Access Risk ID,System,Role/Profile', ...rows, 'U9,R9,PRD'].join('\n') + '\n';
    const { body: b } = await multipart('/api/upload/preview', 'broken-big.csv', big);
    expect(b.refusal).toBeNull();
    expect(b.rows).toHaveLength(10);
    expect(b.problems).toEqual([]);
  });
});

// Another tool's SoD report: its own header names, none of them SAP's.
const VENDOR_HEADER = 'Account,Full Name,Conflict,Conflict Description,Severity,Entitlement,Application,Reviewer Note';
const vendorFile = (rows: string[]) => [VENDOR_HEADER, ...rows].join('\n') + '\n';
const VENDOR_MAPPING = [
  { header: 'Account', field: 'userId' },
  { header: 'Full Name', field: 'userName' },
  { header: 'Conflict', field: 'accessRiskId' },
  { header: 'Conflict Description', field: 'riskDescription' },
  { header: 'Severity', field: 'riskLevel' },
  { header: 'Entitlement', field: 'roleProfile' },
  { header: 'Application', field: 'system' },
  { header: 'Reviewer Note', field: null },
];

describe("another tool's report, through a saved mapping profile", () => {
  it('is refused as it is, maps in the preview, is saved as a profile, and the next file loads by itself', async () => {
    const { body: p } = await multipart(
      '/api/upload/preview',
      'vendor-march.csv',
      vendorFile(['jdoe,Jane Doe,SOD-01,Pay and approve,Critical,AP_CLERK,ERP-EU,ok']),
    );
    expect(p.refusal).toMatch(/^The first row is not a recognisable header\./);
    expect(p.columns.filter((c: any) => c.field)).toEqual([{ header: 'Full Name', field: 'userName', suggestion: null }]);
    expect(p.rows).toEqual([{ row: 2, values: ['Jane Doe'] }]);

    const mapped = await admin.post(`/api/upload/preview/${p.previewId}`, { columnMapping: VENDOR_MAPPING });
    expect(mapped.body.refusal).toBeNull();
    expect(mapped.body.rows).toEqual([{ row: 2, values: ['jdoe', 'Jane Doe', 'SOD-01', 'Pay and approve', 'high', 'ERP-EU', 'AP_CLERK'] }]);
    expect(mapped.body.fields).toEqual(['userId', 'userName', 'accessRiskId', 'riskDescription', 'riskLevel', 'system', 'roleProfile']);

    const started = await admin.post(`/api/upload/preview/${p.previewId}/start`, { ...OPTIONS, columnMapping: VENDOR_MAPPING, saveProfileAs: 'Vendor X SoD' });
    expect(started.status).toBe(202);
    const first = await finished(started.body.uploadId);
    expect(first.status).toMatchObject({
      statusLabel: 'Completed with warnings',
      recordCount: 1,
      warnings: ["Column 'Reviewer Note' was not loaded: the column mapping leaves it out."],
    });

    const list = await admin.get('/api/mapping-profiles');
    expect(list.body).toEqual([expect.objectContaining({ name: 'Vendor X SoD', columns: VENDOR_MAPPING })]);

    // April's file, columns in another order, through the plain upload (no preview): the profile maps it.
    const april =
      [
        'Application,Account,Conflict,Severity,Entitlement,Full Name,Conflict Description,Reviewer Note',
        'ERP-US,asmith,SOD-02,Medium,GL_POSTER,Al Smith,Post and approve,',
      ].join('\n') + '\n';
    const up = await multipart('/api/upload', 'vendor-april.csv', april, { emailNotification: 'false', skipDuplicates: 'false' });
    expect(up.status).toBe(202);
    const second = await finished(up.body.uploadId);
    expect(second.status).toMatchObject({ status: 'completed', recordCount: 1 });
    expect(second.details.sourceLayout).toMatchObject({ format: 'CSV', delimiter: 'comma', headerRow: 1, profile: 'Vendor X SoD' });
    const [row] = await rowsOf(up.body.uploadId);
    expect([row!.userId, row!.userName, row!.accessRiskId, row!.riskDescription, row!.riskLevel, row!.riskLevelLabel, row!.system, row!.roleProfile]).toEqual([
      'asmith',
      'Al Smith',
      'SOD-02',
      'Post and approve',
      'medium',
      'Medium',
      'ERP-US',
      'GL_POSTER',
    ]);

    // GraphQL lists and deletes it; a file of that tool is then refused again, before anything is written.
    const g = await admin.gql('{ mappingProfiles(first: 10) { totalCount edges { node { id name columns { header field } } } } }');
    const profileId = encodeGlobalID('MappingProfile', list.body[0].id);
    expect(g.body.data.mappingProfiles).toEqual({ totalCount: 1, edges: [{ node: { id: profileId, name: 'Vendor X SoD', columns: VENDOR_MAPPING } }] });
    const del = await admin.gql('mutation($id: ID!) { deleteMappingProfile(id: $id) { ... on MutationDeleteMappingProfileSuccess { data } } }', {
      id: profileId,
    });
    expect(del.body.errors).toBeUndefined();
    expect(del.body.data.deleteMappingProfile.data).toBe(profileId);
    expect((await admin.get('/api/mapping-profiles')).body).toEqual([]);
    const again = await multipart('/api/upload/preview', 'vendor-may.csv', april);
    expect(again.body.refusal).toMatch(/^The first row is not a recognisable header\./);
  });
});

describe('preview over GraphQL, of a workbook with the data on its second sheet', () => {
  it('shows the sheet and header row, and starts the upload', async () => {
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('Parameters').addRow(['System', 'PRD']);
    const data = wb.addWorksheet('Analysis');
    data.addRow(['Access Risk Analysis - User Level']);
    data.addRow([]);
    data.addRow(['User ID', 'Access Risk ID', 'Risk Level', 'System', 'Role/Profile', 'Execution Count', 'Composite Role Name']);
    data.addRow(['GQ01', 'R001', 'Critical', 'ERP', 'Z_A', 12.5, 'ZC_A']);
    const { body: p } = await multipart('/api/upload/preview', 'analysis.xlsx', Buffer.from(await wb.xlsx.writeBuffer()));
    const q = `mutation($id: String, $m: [ColumnMappingInput!]) { previewUpload(previewId: $id, columnMapping: $m) {
      ... on MutationPreviewUploadSuccess { data { previewId layout { format sheet sheets headerRow } columns { header field suggestion } fields rows { row values } problems warnings refusal } }
      ... on ValidationError { message } } }`;
    const r = await admin.gql(q, { id: p.previewId });
    expect(r.body.errors).toBeUndefined();
    const d = r.body.data.previewUpload.data;
    expect(d.layout).toEqual({ format: 'XLSX', sheet: 'Analysis', sheets: ['Parameters', 'Analysis'], headerRow: 3 });
    expect(d.columns.at(-1)).toEqual({ header: 'Composite Role Name', field: null, suggestion: 'compositeBusinessRole' });
    expect(d.warnings).toEqual([
      "Column 'Composite Role Name' was not loaded: its name matches no field. It looks like Composite/Business Role, which no column filled; rename it 'Composite/Business Role' to load it.",
    ]);
    expect(d.rows).toEqual([{ row: 4, values: ['GQ01', 'R001', 'high', 'ERP', 'Z_A', '12.5'] }]);

    const m = d.columns.map((c: any) => ({ header: c.header, field: c.field ?? c.suggestion }));
    const s = await admin.gql(
      `mutation($id: String!, $m: [ColumnMappingInput!]) { startPreviewedUpload(previewId: $id, columnMapping: $m, options: { emailNotification: false }) {
        ... on MutationStartPreviewedUploadSuccess { data { id status } } ... on ValidationError { message } } }`,
      { id: p.previewId, m },
    );
    expect(s.body.errors).toBeUndefined();
    const uploadId = Buffer.from(s.body.data.startPreviewedUpload.data.id, 'base64').toString().split(':')[1]!;
    const done = await finished(uploadId);
    expect(done.status).toMatchObject({ statusLabel: 'Completed', recordCount: 1, warnings: [] });
    const [row] = await rowsOf(uploadId);
    expect([row!.userId, row!.compositeBusinessRole, row!.executionCount]).toEqual(['GQ01', 'ZC_A', 12.5]);

    const missing = await admin.gql(q, { id: '00000000-0000-4000-8000-000000000000' });
    expect(missing.body.data?.previewUpload ?? missing.body.errors).toBeTruthy();
  });
});

// Another tool's report under its own title lines: its header names nothing the dictionary knows, so it is not found.
const TITLED_VENDOR = ['Quarterly SoD review', 'Generated by Vendor X', '', VENDOR_HEADER, 'jdoe,Jane Doe,SOD-01,Pay and approve,Critical,AP_CLERK,ERP-EU,ok'];

describe('choosing the sheet and the header row in the preview', () => {
  it('CSV: the header row chosen (under title lines) is read, previewed and loaded from', async () => {
    // Found by its shape (the first line as wide as the rows below it), though no name is known.
    const { body: p } = await multipart('/api/upload/preview', 'titled-vendor.csv', TITLED_VENDOR.join('\n') + '\n');
    expect(p.layout).toMatchObject({ format: 'CSV', delimiter: 'comma', headerRow: 4 });
    expect(p.columns.map((c: any) => c.header)).toEqual(VENDOR_HEADER.split(','));
    // Another row chosen: read from there (here a wrong one: nothing to load).
    const wrong = await admin.post(`/api/upload/preview/${p.previewId}`, { headerRow: 2 });
    expect(wrong.status).toBe(200);
    expect(wrong.body.layout).toMatchObject({ format: 'CSV', headerRow: 2 });
    expect(wrong.body.columns.map((c: any) => c.header)).toEqual(['Generated by Vendor X']);
    expect(wrong.body.refusal).toMatch(/^The first row is not a recognisable header\./);
    const mapped = await admin.post(`/api/upload/preview/${p.previewId}`, { headerRow: 4, columnMapping: VENDOR_MAPPING });
    expect(mapped.body.refusal).toBeNull();
    expect(mapped.body.rows).toEqual([{ row: 5, values: ['jdoe', 'Jane Doe', 'SOD-01', 'Pay and approve', 'high', 'ERP-EU', 'AP_CLERK'] }]);
    // Bad choices: said, nothing written.
    const before = await counts();
    expect((await admin.post(`/api/upload/preview/${p.previewId}`, { headerRow: 0 })).status).toBe(400);
    const past = await admin.post(`/api/upload/preview/${p.previewId}`, { headerRow: 99 });
    expect(past).toMatchObject({ status: 400, body: { message: 'The file has no row 99 or below it to read the header from.' } });
    const sheet = await admin.post(`/api/upload/preview/${p.previewId}/start`, { ...OPTIONS, sheet: 'Data', columnMapping: VENDOR_MAPPING });
    expect(sheet).toMatchObject({ status: 400, body: { message: "A CSV file has no sheets: it cannot be read from sheet 'Data'." } });
    expect(await counts()).toEqual(before);

    const started = await admin.post(`/api/upload/preview/${p.previewId}/start`, {
      ...OPTIONS,
      headerRow: 4,
      columnMapping: VENDOR_MAPPING,
      saveProfileAs: 'Vendor T',
    });
    expect(started.status).toBe(202);
    const done = await finished(started.body.uploadId);
    expect(done.status).toMatchObject({ status: 'completed', recordCount: 1 });
    expect(done.details.sourceLayout).toMatchObject({ format: 'CSV', headerRow: 4 });
    const [row] = await rowsOf(started.body.uploadId);
    expect([row!.userId, row!.userName, row!.accessRiskId, row!.riskDescription, row!.riskLevel, row!.riskLevelLabel, row!.roleProfile, row!.system]).toEqual([
      'jdoe',
      'Jane Doe',
      'SOD-01',
      'Pay and approve',
      'high',
      'Critical',
      'AP_CLERK',
      'ERP-EU',
    ]);
    // The next file of that tool, title lines and all, loads through the plain upload with the saved profile.
    const next = await multipart(
      '/api/upload',
      'titled-vendor-2.csv',
      [...TITLED_VENDOR.slice(0, 4), 'bob,Bob Li,SOD-02,Post and approve,Low,GL,ERP-US,'].join('\r\n'),
      { emailNotification: 'false' },
    );
    const second = await finished(next.body.uploadId);
    expect(second.details.sourceLayout).toMatchObject({ headerRow: 4, profile: 'Vendor T' });
    expect((await rowsOf(next.body.uploadId)).map((x) => [x.userId, x.userName, x.accessRiskId, x.riskLevel, x.roleProfile, x.system])).toEqual([
      ['bob', 'Bob Li', 'SOD-02', 'low', 'GL', 'ERP-US'],
    ]);
    const [profile] = (await admin.get('/api/mapping-profiles')).body;
    expect((await admin.request('DELETE', `/api/mapping-profiles/${profile.id}`)).status).toBe(204);
  });

  it('.xlsx over GraphQL: another sheet chosen is previewed and loaded instead of the first one found', async () => {
    const wb = new ExcelJS.Workbook();
    const summary = wb.addWorksheet('Summary');
    summary.addRow(['User ID', 'Access Risk ID', 'System', 'Role/Profile']);
    summary.addRow(['TOTAL', '*', '*', '*']);
    const detail = wb.addWorksheet('Detail');
    detail.addRow(['Detail of conflicts']);
    detail.addRow(['User ID', 'Access Risk ID', 'System', 'Role/Profile', 'Execution Count']);
    detail.addRow(['SH01', 'R001', 'ERP', 'Z_A', '1.234,5']);
    const { body: p } = await multipart('/api/upload/preview', 'two-sheets.xlsx', Buffer.from(await wb.xlsx.writeBuffer()));
    expect(p.layout).toMatchObject({ sheet: 'Summary', sheets: ['Summary', 'Detail'], headerRow: 1 });
    const q = `mutation($id: String, $sheet: String, $row: Int) { previewUpload(previewId: $id, sheet: $sheet, headerRow: $row) {
      ... on MutationPreviewUploadSuccess { data { layout { sheet headerRow } rows { row values } refusal } } ... on ValidationError { message } } }`;
    const r = await admin.gql(q, { id: p.previewId, sheet: 'Detail' });
    expect(r.body.data.previewUpload.data).toEqual({
      layout: { sheet: 'Detail', headerRow: 2 },
      rows: [{ row: 3, values: ['SH01', 'R001', 'ERP', 'Z_A', '1234.5'] }],
      refusal: null,
    });
    const bad = await admin.gql(q, { id: p.previewId, sheet: 'Nope' });
    expect(bad.body.data.previewUpload.message).toBe("The workbook has no sheet 'Nope'; its sheets are 'Summary', 'Detail'.");
    const s = await admin.gql(
      `mutation($id: String!) { startPreviewedUpload(previewId: $id, sheet: "Detail", options: { emailNotification: false }) {
        ... on MutationStartPreviewedUploadSuccess { data { id } } ... on ValidationError { message } } }`,
      { id: p.previewId },
    );
    const uploadId = Buffer.from(s.body.data.startPreviewedUpload.data.id, 'base64').toString().split(':')[1]!;
    const done = await finished(uploadId);
    expect(done.details.sourceLayout).toMatchObject({ format: 'XLSX', sheet: 'Detail', headerRow: 2 });
    expect((await rowsOf(uploadId)).map((x) => [x.userId, x.accessRiskId, x.system, x.roleProfile, x.executionCount])).toEqual([
      ['SH01', 'R001', 'ERP', 'Z_A', 1234.5],
    ]);
  });

  it('.xls: rows numbered as Excel shows them; the sheet and header row chosen are loaded; a preview builds only the first rows', async () => {
    const XLSX = (await import('xlsx')).default;
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([['Selection'], ['User', '*']]), 'Parameters');
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(TITLED_VENDOR.map((l) => (l ? l.split(',') : []))), 'Report');
    const { body: p } = await multipart('/api/upload/preview', 'vendor.xls', XLSX.write(wb, { type: 'buffer', bookType: 'biff8' }) as Buffer);
    expect(p.layout).toMatchObject({ format: 'XLS', sheet: 'Parameters', sheets: ['Parameters', 'Report'] });
    // The sheet chosen: its header found by its shape (the first row as wide as the widest), under the title lines.
    const again = await admin.post(`/api/upload/preview/${p.previewId}`, { sheet: 'Report', columnMapping: VENDOR_MAPPING });
    expect(again.body.layout).toMatchObject({ sheet: 'Report', headerRow: 4 });
    expect(again.body.rows).toEqual([{ row: 5, values: ['jdoe', 'Jane Doe', 'SOD-01', 'Pay and approve', 'high', 'ERP-EU', 'AP_CLERK'] }]);
    const started = await admin.post(`/api/upload/preview/${p.previewId}/start`, { ...OPTIONS, sheet: 'Report', headerRow: 4, columnMapping: VENDOR_MAPPING });
    const done = await finished(started.body.uploadId);
    expect(done.details.sourceLayout).toMatchObject({ format: 'XLS', sheet: 'Report', headerRow: 4 });
    const [row] = await rowsOf(started.body.uploadId);
    expect([row!.userId, row!.userName, row!.accessRiskId, row!.riskLevel, row!.roleProfile, row!.system]).toEqual([
      'jdoe',
      'Jane Doe',
      'SOD-01',
      'high',
      'AP_CLERK',
      'ERP-EU',
    ]);

    // 2,000 rows and a broken one at the end: the preview does not build that far, the load does.
    const rows = [
      ['User ID', 'Access Risk ID', 'System', 'Role/Profile'],
      ...Array.from({ length: 2000 }, (_, i) => [`U${i}`, `R${i}`, 'PRD', 'Z_A']),
      ['U9', 'R9', 'PRD', 'Z_A', 'extra'],
    ];
    const big = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(big, XLSX.utils.aoa_to_sheet(rows), 'Report');
    const { body: b } = await multipart('/api/upload/preview', 'big.xls', XLSX.write(big, { type: 'buffer', bookType: 'biff8' }) as Buffer);
    expect(b.refusal).toBeNull();
    expect(b.problems).toEqual([]);
    expect(b.rows).toHaveLength(10);
    const up = await admin.post(`/api/upload/preview/${b.previewId}/start`, OPTIONS);
    expect((await finished(up.body.uploadId)).status).toMatchObject({
      status: 'failed',
      errorMessage: 'Row 2002 has values beyond the last header column (4 columns).',
    });
  }, 180_000);
});
