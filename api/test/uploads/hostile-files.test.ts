// Hostile upload files against the server as `npm start` runs it (the same
// node heap flags, read from package.json): a workbook whose shared strings
// inflate to 100 MB, a CSV row with a 100 MB cell, a file 16,384 columns
// wide, a body over 2 GB. Each is built by the test and streamed to disk or
// to the server (never held here).
// The server must refuse or load each with a clear message — Preview with a
// 4xx, Start Upload and Retry with the upload failed — and stay up, within
// its heap, through all of them (a file that exhausts the heap kills it with
// 'FATAL ERROR: Reached heap limit').
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../helpers/server.js';
import { freshDatabase } from '../helpers/db.js';
import { freePort, npmStartNodeFlags, spawnServer, waitReady, type ServerProcess } from '../helpers/process.js';
import { writeZip } from '../helpers/zip-writer.js';
import { HEADERS, generateRows } from '../../../scripts/gen-data.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'grc-hostile-files-'));
let server: ServerProcess;
let admin: Client;
let dropDb = async () => {};

beforeAll(async () => {
  const db = await freshDatabase();
  dropDb = db.drop;
  const flags = npmStartNodeFlags();
  expect(flags).toContain('--max-old-space-size=192');
  server = spawnServer(
    {
      DATA_DIR: path.join(tmp, 'data'),
      LOG_LEVEL: 'warn',
      ADMIN_PASSWORD: 'Hostile#Pass1',
      JOB_POLL_SECONDS: '0.5',
      ...(db.url ? { DATABASE_URL: db.url } : {}),
    },
    await freePort(),
    flags,
  );
  await waitReady(server);
  admin = new Client(server.url);
  await admin.login('admin@example.com', 'Hostile#Pass1');
  await admin.put('/api/internal/change-password', { currentPassword: 'Hostile#Pass1', newPassword: 'Hostile#Pass2' });
  await admin.login('admin@example.com', 'Hostile#Pass2');
}, 120_000);

afterAll(async () => {
  server?.child.kill('SIGKILL');
  await server?.exited;
  await dropDb();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** The server is still running (not killed by its heap limit) and answers. */
async function stillUp() {
  expect(server.output()).not.toMatch(/heap limit|FATAL ERROR|JavaScript heap out of memory/);
  expect(server.child.exitCode).toBeNull();
  expect(server.child.signalCode).toBeNull();
  expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
}

/** A file from disk as a multipart body (streamed from the file by fetch). */
async function form(file: string, fields: Record<string, string> = {}) {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  f.append('file', await fs.openAsBlob(file), path.basename(file));
  return f;
}

async function preview(file: string) {
  const res = await fetch(`${server.url}/api/upload/preview`, { method: 'POST', body: await form(file), headers: { cookie: admin.cookieHeader } });
  return { status: res.status, body: (await res.json()) as any };
}

async function settle(id: string) {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const s = await admin.get(`/api/upload-status/${id}`);
    if (s.body.status !== 'processing') return s.body;
    if (Date.now() > deadline) throw new Error(`upload did not finish: ${JSON.stringify(s.body)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Start Upload (the background load): the upload's final status. */
async function load(file: string) {
  const res = await fetch(`${server.url}/api/upload`, {
    method: 'POST',
    body: await form(file, { uploadMode: 'append', emailNotification: 'false', batchSize: '5000' }),
    headers: { cookie: admin.cookieHeader },
  });
  expect(res.status).toBe(202);
  const { uploadId } = (await res.json()) as { uploadId: string };
  return { id: uploadId, status: await settle(uploadId) };
}

async function retry(id: string) {
  const r = await admin.post(`/api/uploads/${id}/retry`);
  expect(r.status).toBe(202);
  return settle(id);
}

const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG = 'http://schemas.openxmlformats.org/package/2006/relationships';

/**
 * A workbook of 4,000,000 distinct short strings (8 characters) in its
 * shared-strings part, which inflates to 100 MB; the worksheet is a header
 * and one row. Within the zip-bomb check (a ratio of about 4).
 */
async function craftedWorkbook(file: string) {
  const count = 4_000_000;
  const header = HEADERS.map((h) => `<c t="inlineStr"><is><t>${h}</t></is></c>`).join('');
  const data = HEADERS.map((_, i) => `<c t="s"><v>${i}</v></c>`).join('');
  await writeZip(file, {
    '[Content_Types].xml': `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>`,
    '_rels/.rels': `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${PKG}"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    'xl/workbook.xml': `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="${NS}" xmlns:r="${REL}"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    'xl/_rels/workbook.xml.rels': `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${PKG}"><Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
    'xl/worksheets/sheet1.xml': `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="${NS}"><sheetData><row r="1">${header}</row><row r="2">${data}</row></sheetData></worksheet>`,
    'xl/sharedStrings.xml': function* () {
      yield `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="${NS}" count="${count}" uniqueCount="${count}">`;
      let s = '';
      for (let i = 0; i < count; i++) {
        // Distinct (a bijection of i), and little to compress.
        s += `<si><t>k${(Math.imul(i, 2654435761) >>> 0).toString(36).padStart(7, '0')}</t></si>`;
        if (s.length > 1 << 20) {
          yield s;
          s = '';
        }
      }
      yield `${s}</sst>`;
    },
  });
}

/** A well-formed CSV export whose row 2 has a 100 MB (quoted) Risk Description; row 3 is ordinary. */
function csvWithHugeCell(file: string) {
  const [first, second] = [...generateRows(2, 5)];
  const fd = fs.openSync(file, 'w');
  const line = (values: string[]) => values.map((v) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v)).join(',') + '\r\n';
  fs.writeSync(fd, line(HEADERS));
  const at = HEADERS.indexOf('Risk Description');
  fs.writeSync(fd, line(first!.slice(0, at)).slice(0, -2) + ',"');
  const mb = Buffer.alloc(1024 * 1024, 'Segregation of duties. ');
  for (let i = 0; i < 100; i++) fs.writeSync(fd, mb);
  fs.writeSync(fd, '",' + line(first!.slice(at + 1)));
  fs.writeSync(fd, line(second!));
  fs.closeSync(fd);
}

/**
 * POST /api/upload with a multipart body whose file has `size` bytes, sent as
 * it is made; with its length declared, or chunked (no length). Stops
 * sending once the answer comes: how many bytes of the file had been sent.
 */
async function oversized(size: number, declared: boolean) {
  const boundary = 'hostile-boundary';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="emailNotification"\r\n\r\nfalse\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.csv"\r\nContent-Type: text/csv\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const req = http.request(`${server.url}/api/upload`, {
    method: 'POST',
    headers: {
      cookie: admin.cookieHeader,
      'content-type': `multipart/form-data; boundary=${boundary}`,
      ...(declared ? { 'content-length': String(head.length + size + tail.length) } : {}),
    },
  });
  let sent = 0;
  let sentWhenAnswered = -1;
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on('response', (res) => {
      sentWhenAnswered = sent;
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', (e) => (sentWhenAnswered < 0 ? reject(e) : undefined));
  });
  const chunk = Buffer.alloc(1024 * 1024, 'a');
  req.write(head);
  while (sent < size && sentWhenAnswered < 0 && !req.destroyed) {
    const n = Math.min(chunk.length, size - sent);
    const ok = req.write(n === chunk.length ? chunk : chunk.subarray(0, n));
    sent += n;
    if (!ok) await new Promise((r) => (req.once('drain', r), req.once('close', r)));
  }
  if (sentWhenAnswered < 0 && !req.destroyed) req.end(tail);
  const { status, body } = await answer;
  req.destroy();
  return { status, body: JSON.parse(body) as { message: string }, sentWhenAnswered };
}

describe('hostile upload files, against the server with the heap of npm start', () => {
  it('a workbook whose shared strings inflate to 100 MB (4,000,000 distinct strings) is refused by Preview, Start Upload and Retry, naming the part and the limit', async () => {
    const file = path.join(tmp, 'shared-strings.xlsx');
    await craftedWorkbook(file);
    console.log(`crafted workbook: ${(fs.statSync(file).size / 1024 ** 2).toFixed(1)} MB`);
    const message =
      /^This \.xlsx file was not loaded: its shared-strings part \(the workbook's table of distinct text values\) holds more than 1,000,000 strings/;

    const p = await preview(file);
    expect(p.status).toBe(400);
    expect(p.body.message).toMatch(message);
    await stillUp();

    const { id, status } = await load(file);
    expect(status.status).toBe('failed');
    expect(status.errorMessage).toMatch(message);
    await stillUp();

    const again = await retry(id);
    expect(again.status).toBe('failed');
    expect(again.errorMessage).toMatch(message);
    await stillUp();
  }, 300_000);

  it('a CSV row with a 100 MB cell is refused by Preview, Start Upload and Retry, naming row, column and the limit', async () => {
    const file = path.join(tmp, 'huge-cell.csv');
    csvWithHugeCell(file);
    const message =
      "Row 2, column 5 ('Risk Description'): the value is longer than 32,767 characters, the most a cell may hold (as in Excel). The file was not loaded.";

    const p = await preview(file);
    expect(p.status).toBe(400);
    expect(p.body.message).toBe(message);
    await stillUp();

    const { id, status } = await load(file);
    expect(status.status).toBe('failed');
    expect(status.errorMessage).toBe(message);
    await stillUp();

    const again = await retry(id);
    expect(again.status).toBe('failed');
    expect(again.errorMessage).toBe(message);
    await stillUp();
  }, 300_000);

  it('a description too long for the search index loads cut, with a warning; an over-long user ID is refused naming row and column', async () => {
    const [a, b] = [...generateRows(2, 9)];
    const at = HEADERS.indexOf('Risk Description');
    // Random letters: PostgreSQL cannot compress them under its index entry limit.
    let long = '';
    for (let i = 0; i < 9000; i++) long += String.fromCharCode(97 + Math.floor(Math.random() * 26));
    a![at] = long;
    const csv = (rows: string[][]) => [HEADERS, ...rows].map((r) => r.map((v) => `"${v.replace(/"/g, '""')}"`).join(',')).join('\r\n') + '\r\n';
    const described = path.join(tmp, 'long-description.csv');
    fs.writeFileSync(described, csv([a!, b!]));
    const { status } = await load(described);
    expect(status.status, status.errorMessage).toBe('completed');
    expect(status.recordCount).toBe(2);
    expect(status.warnings).toContain("Row 2, column 'Risk Description': the value is 9,000 characters long; its first 500 were loaded.");
    const risks = (await admin.get('/api/risks?limit=10')).body;
    expect(risks.risks.map((r: { riskDescription: string }) => r.riskDescription.length).sort((x: number, y: number) => y - x)[0]).toBe(500);

    const user = HEADERS.indexOf('User ID');
    b![user] = 'U'.repeat(700);
    const keyed = path.join(tmp, 'long-user.csv');
    fs.writeFileSync(keyed, csv([b!]));
    const refused = (await load(keyed)).status;
    expect(refused.status).toBe('failed');
    expect(refused.errorMessage).toBe(
      "Row 2, column 'User ID': the value takes 700 bytes; a value of this column may take at most 600 (as many Latin letters and digits, fewer characters of other scripts).",
    );
    await stillUp();
  }, 120_000);

  it('a file 16,384 columns wide loads with its column warnings capped: the uploads listing stays small', async () => {
    const file = path.join(tmp, 'wide.csv');
    const extra = 16_384 - HEADERS.length;
    const fd = fs.openSync(file, 'w');
    fs.writeSync(fd, [...HEADERS, ...Array.from({ length: extra }, (_, i) => `Extra ${i + 1}`)].join(',') + '\r\n');
    const blanks = ','.repeat(extra);
    for (const row of generateRows(100, 11)) fs.writeSync(fd, row.map((v) => `"${v.replace(/"/g, '""')}"`).join(',') + blanks + '\r\n');
    fs.closeSync(fd);
    const { status } = await load(file);
    expect(status.status, status.errorMessage).toBe('completed');
    expect(status.recordCount).toBe(100);
    expect(status.warnings.length).toBeLessThanOrEqual(25);
    expect(status.warnings).toContain(`... and ${(extra - 20).toLocaleString('en-US')} more columns were not loaded.`);
    const listing = await fetch(`${server.url}/api/uploads`, { headers: { cookie: admin.cookieHeader } });
    const text = await listing.text();
    expect(text.length).toBeLessThan(64 * 1024);
    await stillUp();
  }, 120_000);

  it('a body over 2 GB is refused with 413 once the file passes 2 GB (or at once by its declared length), without reading the rest', async () => {
    const GB2 = 2 * 1024 ** 3;
    // Declared 100 KB over the limit (more than any form adds to its file): refused before the body is read.
    const declared = await oversized(GB2 + 100 * 1024, true);
    expect(declared.status).toBe(413);
    expect(declared.body.message).toBe('File Too Large: the limit is 2GB per file.');
    expect(declared.sentWhenAnswered).toBeLessThan(GB2 / 2);
    // No declared length: the file is refused once it passes 2 GB, before the 64 MB after it are read.
    const chunked = await oversized(GB2 + 64 * 1024 ** 2, false);
    expect(chunked.status).toBe(413);
    expect(chunked.body.message).toBe('File Too Large: the limit is 2GB per file.');
    expect(chunked.sentWhenAnswered).toBeLessThan(GB2 + 64 * 1024 ** 2);
    // Nothing of it is kept.
    const incoming = path.join(tmp, 'data', 'uploads', '.incoming');
    expect(fs.existsSync(incoming) ? fs.readdirSync(incoming) : []).toEqual([]);
    await stillUp();
  }, 300_000);
});
