// Data upload over REST: streaming to disk, loading with COPY, the options,
// formats, and bad input that must fail with a clear message and leave nothing.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, adminClient, startServer, userClient, type TestServer } from '../helpers/server.js';
import { postUpload, settleUpload } from '../helpers/upload.js';
import { HEADERS, generateRows, writeCsv, writeXlsx } from '../../../scripts/gen-data.js';
import zlib from 'node:zlib';

let server: TestServer;
let admin: Client;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'grc-upl-'));

beforeAll(async () => {
  server = await startServer();
  admin = await adminClient(server);
});
afterAll(async () => {
  await server?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const upload = (name: string, content: Buffer | string, fields: Record<string, string> = {}, c: Client = admin) => postUpload(server, c, name, content, fields);

const settle = (id: string) => settleUpload(admin, id);

const total = async () => (await admin.get('/api/risks?limit=1')).body.total as number;

function csv(rows: string[][], d = ','): string {
  return rows.map((r) => r.map((v) => (/[",\n\r;]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v)).join(d)).join('\r\n') + '\r\n';
}
const sample = (n: number, seed = 1) => [...generateRows(n, seed)];

describe('loading a CSV export', () => {
  it('streams the file, loads it in the background, and makes every row visible only when complete', async () => {
    const file = path.join(tmp, 'export.csv');
    writeCsv(file, 3000, { seed: 7 });
    const r = await upload('export.csv', fs.readFileSync(file), { uploadMode: 'append', batchSize: '5000' });
    expect(r.status).toBe(202);
    expect(r.body.status).toBe('processing');
    const done = await settle(r.body.uploadId);
    expect(done).toMatchObject({ status: 'completed', errorMessage: null });
    expect(done.recordCount + done.duplicatesSkipped).toBe(3000);
    expect(await total()).toBe(done.recordCount);
    const details = (await admin.get(`/api/uploads/${r.body.uploadId}`)).body;
    expect(details.columnMapping['User ID']).toBe('userId');
    expect(details.columnMapping['Composite/Business Role']).toBe('compositeBusinessRole');
    expect(details.unknownColumns).toEqual([]);
    const history = (await admin.get('/api/uploads')).body;
    expect(history[0]).toMatchObject({ originalName: 'export.csv', status: 'completed', uploadedBy: { email: 'admin@example.com' } });
  });

  it("skips duplicate records within the file and against rows already loaded ('Skip duplicate records')", async () => {
    const before = await total();
    const rows = sample(50, 99);
    const body = csv([HEADERS, ...rows, rows[0]!, rows[1]!]);
    const first = await settle((await upload('dups.csv', body)).body.uploadId);
    expect(first).toMatchObject({ status: 'completed', recordCount: 50, duplicatesSkipped: 2 });
    const again = await settle((await upload('dups-again.csv', body)).body.uploadId);
    expect(again).toMatchObject({ status: 'completed', recordCount: 0, duplicatesSkipped: 52 });
    const kept = await settle((await upload('dups-kept.csv', body, { skipDuplicates: 'false' })).body.uploadId);
    expect(kept).toMatchObject({ status: 'completed', recordCount: 52, duplicatesSkipped: 0 });
    expect(await total()).toBe(before + 50 + 52);
  });

  it('reads semicolons, French headers with and without accents, a BOM, quoted newlines and UTF-16 (Excel Unicode text)', async () => {
    const before = await total();
    const fr = [
      'ID utilisateur',
      "Nom d'utilisateur",
      'Groupe util.',
      "ID de risque d'accès",
      'Description du risque',
      'Niveau du risque',
      'ID de règle',
      'Système',
      'Rôle/Profil',
      'Rôle composite',
    ];
    const frRows = [
      ['FR001', 'Chloé Dubois', 'FIN', 'FI001', 'Paiements;\nfournisseurs', 'Élevé', '0301', 'SAP ERP', 'Z_FI_CLERK', 'ZC_FIN'],
      ['FR002', 'Hugo Lefèvre', 'HR', 'HR002', 'Données "RH"', 'Faible', '0101', 'Workday', 'HR_ADMIN', ''],
    ];
    const r1 = await settle((await upload('fr.csv', '\uFEFF' + csv([fr, ...frRows], ';'))).body.uploadId);
    expect(r1).toMatchObject({ status: 'completed', recordCount: 2 });
    const rows = (await admin.get('/api/risks?search=FR00')).body.risks;
    expect(rows.map((x: any) => [x.userName, x.riskLevel, x.riskDescription])).toEqual([
      ['Chloé Dubois', 'high', 'Paiements;\nfournisseurs'],
      ['Hugo Lefèvre', 'low', 'Données "RH"'],
    ]);

    const tab = csv([HEADERS, ...sample(3, 5)], '\t');
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(tab, 'utf16le')]);
    const r2 = await settle((await upload('unicode.txt.csv', utf16)).body.uploadId);
    expect(r2).toMatchObject({ status: 'completed', recordCount: 3 });
    expect(await total()).toBe(before + 5);
  });

  it('reports unknown columns and keeps loading', async () => {
    const rows = sample(2, 11);
    const r = await settle((await upload('extra.csv', csv([[...HEADERS, 'Cost Centre'], ...rows.map((x) => [...x, 'CC1'])]))).body.uploadId);
    expect(r.status).toBe('completed');
    const list = (await admin.get('/api/uploads')).body;
    expect(list[0].unknownColumns).toEqual(['Cost Centre']);
  });
});

describe('Excel workbooks', () => {
  it('loads an .xlsx as a stream, with the same mapping and checks', async () => {
    const before = await total();
    const file = path.join(tmp, 'export.xlsx');
    await writeXlsx(file, 2500, { seed: 81 });
    const r = await upload('export.xlsx', fs.readFileSync(file));
    const done = await settle(r.body.uploadId);
    expect(done.status).toBe('completed');
    expect(done.recordCount + done.duplicatesSkipped).toBe(2500);
    expect(await total()).toBe(before + done.recordCount);
    const row = (await admin.get('/api/risks?limit=500')).body.risks.find((x: any) => x.executionCount !== null);
    expect(typeof row.executionCount).toBe('number');
  });

  it('loads a legacy .xls', async () => {
    const XLSX = (await import('xlsx')).default;
    const rows = sample(40, 82);
    const ws = XLSX.utils.aoa_to_sheet([HEADERS, ...rows]);
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, ws, 'Report');
    const buf = XLSX.write(wb, { type: 'buffer', bookType: 'biff8' }) as Buffer;
    const done = await settle((await upload('legacy.xls', buf)).body.uploadId);
    expect(done).toMatchObject({ status: 'completed', recordCount: 40 });
  });

  it('refuses an .xlsx that is a zip bomb, before inflating it', async () => {
    // A zip whose one entry inflates 300 MB of zeros from a few hundred KB.
    const size = 300 * 1024 ** 2;
    const data = zlib.deflateRawSync(Buffer.alloc(size), { level: 9 });
    const name = Buffer.from('xl/worksheets/sheet1.xml');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    const cdOffset = local.length + name.length + data.length;
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(1, 8);
    end.writeUInt16LE(1, 10);
    end.writeUInt32LE(central.length + name.length, 12);
    end.writeUInt32LE(cdOffset, 16);
    const zip = Buffer.concat([local, name, data, central, name, end]);
    const before = await total();
    const done = await settle((await upload('bomb.xlsx', zip)).body.uploadId);
    expect(done.status).toBe('failed');
    expect(done.errorMessage).toMatch(/refused as a possible zip bomb/);
    expect(await total()).toBe(before);
  });
});

describe('replace', () => {
  it('swaps the data atomically and keeps decisions on rows the new file keeps', async () => {
    const keep = sample(3, 21);
    const drop = sample(2, 22);
    const base = await settle((await upload('base.csv', csv([HEADERS, ...keep, ...drop]), { uploadMode: 'replace' })).body.uploadId);
    expect(base.status).toBe('completed');
    expect(await total()).toBe(5);

    const period = await admin.post('/api/review-periods', { name: 'Replace test' });
    const target = (await admin.get('/api/risks?limit=10')).body.risks.find((r: any) => r.userId === keep[0]![0] && r.accessRiskId === keep[0]![3]);
    expect((await admin.post('/api/reviews/decision', { riskDefinitionId: target.id, decision: 'remove', comments: 'leaver' })).status).toBe(200);

    const added = sample(4, 23);
    const userTerms = async (ids: string[]) =>
      (await server.app.deps.db.sql.query<{ value: string }>(`SELECT value FROM risk_terms WHERE kind = 'user' AND value = ANY($1::text[])`, [ids]))
        .map((r) => r.value)
        .sort();
    const gone = drop.map((r) => String(r[0])).filter((id) => ![...keep, ...added].some((r) => String(r[0]) === id));
    const kept = [...new Set(keep.map((r) => String(r[0])))].sort();
    expect(gone.length).toBeGreaterThan(0);
    expect(await userTerms(gone)).toEqual([...new Set(gone)].sort());
    const next = await settle((await upload('next.csv', csv([HEADERS, ...keep, ...added]), { uploadMode: 'replace' })).body.uploadId);
    expect(next.status).toBe('completed');
    expect(await total()).toBe(7);
    // The replaced rows' search terms go with them (after the purge that follows the swap).
    for (const deadline = Date.now() + 20_000; (await userTerms(gone)).length && Date.now() < deadline;) await new Promise((r) => setTimeout(r, 200));
    expect(await userTerms(gone)).toEqual([]);
    expect(await userTerms(kept)).toEqual(kept);
    const after = (await admin.get('/api/risks?limit=50')).body.risks;
    const carried = after.find((r: any) => r.userId === keep[0]![0] && r.accessRiskId === keep[0]![3] && r.decision === 'remove');
    expect(carried).toBeTruthy();
    expect(carried.id).not.toBe(target.id);
    await admin.put(`/api/review-periods/${period.body.id}/close`);
  });

  it('a failed replace leaves the old data untouched', async () => {
    const before = await total();
    const bad = csv([HEADERS, ...sample(3, 31), ['x']]);
    const r = await settle((await upload('bad-replace.csv', bad, { uploadMode: 'replace' })).body.uploadId);
    expect(r.status).toBe('failed');
    expect(await total()).toBe(before);
  });
});

describe('bad input: failed, a message a person understands, nothing visible', () => {
  const cases: [string, string | Buffer, RegExp][] = [
    ['empty.csv', '', /empty \(0 bytes\)/],
    ['garbage.csv', Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 7919) % 256)), /not a text CSV file: it contains binary data/],
    ['no-header.csv', 'a,b,c\n1,2,3\n', /not a recognisable header/],
    ['missing.csv', 'User ID,User Name,Risk Level\nU1,Ann,High\n', /Missing required columns: Access Risk ID, Role\/Profile or Composite Role, System/],
    ['fields.csv', csv([HEADERS, ...sample(3, 41)]) + 'U1,too,few\r\n', /^Row 5 has 3 fields, but the header has 35/],
    ['quote.csv', csv([HEADERS, ...sample(2, 42)]) + '"U9,unterminated\r\n', /^Row 4 has a quoted field that never ends/],
    [
      'level.csv',
      csv([HEADERS, ...sample(2, 43).map((r, i) => (i === 1 ? r.map((v, j) => (j === 5 ? 'Severe' : v)) : r))]),
      /^Row 3, column 'Risk Level': 'Severe' is not a risk level/,
    ],
    // UTF-8 (it has valid accented characters) with a bad byte: not taken for Windows-1252.
    [
      'utf8.csv',
      Buffer.concat([
        Buffer.from(csv([HEADERS, ...sample(2, 44).map((r) => [r[0]!, 'Hélène Müller', ...r.slice(2)])])),
        Buffer.from([0x55, 0xc3, 0x28, 0x2c, 0x0a]),
      ]),
      /not valid UTF-8/,
    ],
    ['blank-id.csv', csv([HEADERS, ...sample(1, 45).map((r) => ['', ...r.slice(1)])]), /^Row 2, column 'User ID': the value is empty/],
    ['fake.xlsx', 'not a zip', /^This \.xlsx file is not a valid Excel workbook \(it is not a zip archive\)/],
    ['fake.xls', 'not an xls workbook at all, just text', /^This \.xls file is not a readable Excel workbook|not a recognisable header/],
  ];
  for (const [name, content, message] of cases) {
    it(name, async () => {
      const before = await total();
      const r = await upload(name, content);
      const s = r.status === 202 ? await settle(r.body.uploadId) : r.body;
      expect(s.status).toBe('failed');
      expect(s.errorMessage ?? s.message).toMatch(message);
      expect(await total()).toBe(before);
      const rows = await server.app.deps.prisma.riskRow.count({ where: { uploadId: r.body.uploadId } });
      expect(rows).toBe(0);
    });
  }

  it('a wrong extension is refused and recorded as failed', async () => {
    const r = await upload('notes.txt', 'hello');
    expect(r.status).toBe(400);
    expect(r.body.message).toBe("Files of type '.txt' cannot be loaded: upload a .csv, .xlsx or .xls file.");
    expect((await admin.get(`/api/upload-status/${r.body.uploadId}`)).body.status).toBe('failed');
  });

  it('a failed upload can be retried from its stored file', async () => {
    const r = await upload('retry.csv', csv([HEADERS, ...sample(2, 51)]) + 'oops\r\n');
    expect((await settle(r.body.uploadId)).status).toBe('failed');
    const again = await admin.post(`/api/uploads/${r.body.uploadId}/retry`);
    expect(again.status).toBe(202);
    expect((await settle(r.body.uploadId)).status).toBe('failed');
    expect((await admin.post(`/api/uploads/${r.body.uploadId}/retry`)).status).toBe(202);
  });
});

describe('GraphQL', () => {
  it('uploads with the multipart request spec and lists the history with the column mapping', async () => {
    const body = csv([HEADERS, ...sample(1200, 61)]);
    const form = new FormData();
    form.append(
      'operations',
      JSON.stringify({
        query: `mutation($file: Upload!) { uploadFile(file: $file, options: { batchSize: 5000, emailNotification: false }) {
          __typename ... on MutationUploadFileSuccess { data { id status originalName } } ... on Error { message } } }`,
        variables: { file: null },
      }),
    );
    form.append('map', JSON.stringify({ '0': ['variables.file'] }));
    form.append('0', new Blob([body]), 'graphql.csv');
    const res = await fetch(server.url + '/graphql', {
      method: 'POST',
      body: form,
      // The multipart request spec's CSRF guard: a header no HTML form can send.
      headers: { cookie: admin.cookieHeader, 'x-graphql-yoga-csrf': '1' },
    });
    const json = (await res.json()) as any;
    const node = json.data.uploadFile.data;
    expect(node).toMatchObject({ originalName: 'graphql.csv' });
    const raw = Buffer.from(node.id, 'base64').toString().split(':')[1]!;
    const done = await settle(raw);
    expect(done.status).toBe('completed');
    const list = await admin.gql('{ uploads(first: 1) { edges { node { originalName status recordCount columnMapping { header field } } } } }');
    expect(list.body.data.uploads.edges[0].node).toMatchObject({ originalName: 'graphql.csv', status: 'COMPLETED' });
    expect(list.body.data.uploads.edges[0].node.columnMapping).toContainEqual({ header: 'User ID', field: 'userId' });
  });

  it('pushes progress while a file loads, ending with completed', async () => {
    const { wsClient, until } = await import('../helpers/ws.js');
    const ws = wsClient(server.url, admin.cookieHeader);
    // Hold the worker back: subscribe first, using the id the REST call returns before the job runs.
    const file = path.join(tmp, 'progress.csv');
    writeCsv(file, 20000, { seed: 62 });
    const r = await upload('progress.csv', fs.readFileSync(file), { batchSize: '5000' });
    const gid = Buffer.from(`DataUpload:${r.body.uploadId}`).toString('base64');
    const events: any[] = [];
    const query = `subscription { uploadProgress(id: "${gid}") { status rowsProcessed sizeBytes } }`;
    let ended = false;
    ws.subscribe({ query }, { next: (v) => events.push(v.data?.uploadProgress), error: () => {}, complete: () => (ended = true) });
    await until(() => events.some((e) => e?.status === 'COMPLETED'), 60_000);
    const rowsSeen = events.map((e) => e.rowsProcessed);
    expect(rowsSeen.length).toBeGreaterThan(1);
    expect(rowsSeen).toEqual([...rowsSeen].sort((a, b) => a - b));
    expect(events.at(-1).status).toBe('COMPLETED');
    // The subscription ends with the load.
    await until(() => ended, 10_000);
    // Whoever subscribes later (a reloaded page) is told where the load stands at once.
    const late: any[] = [];
    await new Promise<void>((resolve, reject) => ws.subscribe({ query }, { next: (v) => late.push(v.data?.uploadProgress), error: reject, complete: resolve }));
    expect(late).toEqual([{ status: 'COMPLETED', rowsProcessed: events.at(-1).rowsProcessed, sizeBytes: events.at(-1).sizeBytes }]);
    await ws.dispose();
  });
});

describe('limits and permissions', () => {
  it('refuses a body over 2 GB with 413 as soon as the size is known, without reading it', async () => {
    const status = await new Promise<{ code: number; body: string }>((resolve, reject) => {
      const u = new URL(server.url + '/api/upload');
      const req = http.request({
        host: u.hostname,
        port: u.port,
        path: u.pathname,
        method: 'POST',
        headers: { cookie: admin.cookieHeader, 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(3 * 1024 ** 3) },
      });
      req.on('response', (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => {
          req.destroy();
          resolve({ code: res.statusCode ?? 0, body });
        });
      });
      req.on('error', reject);
      req.write('--x\r\n');
      // Never send the rest: the answer must come anyway.
    });
    expect(status.code).toBe(413);
    expect(JSON.parse(status.body).message).toBe('File Too Large: the limit is 2GB per file.');
  });

  it('a client that aborts mid-upload leaves no file behind', async () => {
    const incoming = path.join(server.dataDir, 'uploads', '.incoming');
    await new Promise<void>((resolve) => {
      const u = new URL(server.url + '/api/upload');
      const req = http.request({
        host: u.hostname,
        port: u.port,
        path: u.pathname,
        method: 'POST',
        headers: { cookie: admin.cookieHeader, 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(10_000_000) },
      });
      req.on('error', () => resolve());
      req.write('--x\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\nContent-Type: text/csv\r\n\r\n');
      req.write('User ID,Access Risk ID\r\n'.repeat(1000));
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 300);
    });
    await new Promise((r) => setTimeout(r, 500));
    expect(fs.existsSync(incoming) ? fs.readdirSync(incoming) : []).toEqual([]);
  });

  it('only administrators upload or see uploads', async () => {
    const { client } = await userClient(server, admin);
    expect((await upload('x.csv', 'a', {}, client)).status).toBe(403);
    expect((await client.get('/api/uploads')).status).toBe(403);
  });
});
