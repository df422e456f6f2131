// Object storage (STORAGE_URL=s3://bucket/prefix): two instances on one
// database keep their stored files in a local S3-compatible server (s3rver,
// speaking the protocol on loopback) and nothing of them in DATA_DIR. An
// upload received by one instance is stored under the prefix byte for byte
// (a file larger than a part goes as a multipart upload) and loaded by the
// other; an evidence bundle written by one is stored there and downloaded
// from the other, identical; a preview made on one is started on the other.
// The first instance takes no jobs (its workers poll once an hour), so every
// load and bundle is the second one's work.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, startServer, type Client, type TestServer } from '../helpers/server.js';
import { postUpload, postUploadFile, settleUpload } from '../helpers/upload.js';
import { S3_CREDENTIALS, startS3, type TestS3 } from '../helpers/s3.js';
import { HEADERS, generateRows, writeCsv, writeXlsx } from '../../../scripts/gen-data.js';

const PREFIX = 'tenant-a/grc';
const HEADER = 'User ID,User Name,Access Risk ID,Risk Description,Risk Level,Rule ID,System,Role/Profile\r\n';
const EXPORT =
  HEADER +
  'U1,Alice Jones,R01,Pay vendors,High,0301,SAP ERP,Z_AP_CLERK\r\n' +
  'U2,Bob Smith,R02,Post journals,Medium,0102,SAP ERP,Z_GL\r\n' +
  'U3,Cara Diaz,R04,Vendor master,High,0302,SAP ERP,Z_VENDOR\r\n';

const sha256 = (b: Buffer | string) => crypto.createHash('sha256').update(b).digest('hex');
const saved: Record<string, string | undefined> = {};
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'grc-object-storage-'));

let s3: TestS3;
let a: TestServer;
let b: TestServer;
let adminA: Client;
let adminB: Client;

/** Every file under a folder, relative to it. */
function filesUnder(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) => fs.statSync(path.join(dir, f)).isFile());
}

beforeAll(async () => {
  s3 = await startS3();
  // The SDK reads the credentials from the usual variables, as it would in production.
  for (const [k, v] of Object.entries(S3_CREDENTIALS)) {
    saved[k] = process.env[k];
    process.env[k] = v;
  }
  const env = { STORAGE_URL: `s3://${s3.bucket}/${PREFIX}`, AWS_ENDPOINT_URL: s3.endpoint, STORAGE_PART_SIZE_MB: '5' };
  a = await startServer({ ...env, JOB_POLL_SECONDS: '3600' });
  b = await startServer(env, { shareDatabaseOf: a });
  adminA = await adminClient(a);
  adminB = await adminClient(b);
}, 120_000);

afterAll(async () => {
  await b?.close();
  await a?.close();
  await s3?.close();
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  fs.rmSync(work, { recursive: true, force: true });
});

describe('object storage (S3)', () => {
  let uploadId: string;

  it('stores an upload under the prefix byte for byte, and another instance loads it', { timeout: 90_000 }, async () => {
    const posted = await postUpload(a, adminA, 'q4-export.csv', EXPORT, { uploadMode: 'replace', emailNotification: 'false' });
    expect(posted.status).toBe(202);
    uploadId = posted.body.uploadId;
    expect(await settleUpload(adminA, uploadId)).toMatchObject({ status: 'completed', recordCount: 3 });
    const key = `${PREFIX}/uploads/${uploadId}.csv`;
    expect(await s3.keys()).toContain(key);
    expect(await s3.digest(key)).toEqual({ sha256: sha256(EXPORT), size: Buffer.byteLength(EXPORT) });
    // Every object is under the prefix; nothing waits in the incoming folder.
    for (const k of await s3.keys()) expect(k.startsWith(`${PREFIX}/`)).toBe(true);
    expect((await s3.keys()).filter((k) => k.includes('/.incoming/'))).toEqual([]);
    // The rows are there for both instances.
    for (const c of [adminA, adminB]) expect((await c.get('/api/risks?limit=1')).body.total).toBe(3);
  });

  it('sends a file larger than a part as a multipart upload, stored whole and loaded', { timeout: 180_000 }, async () => {
    const file = path.join(work, 'large.csv');
    writeCsv(file, 30_000, { seed: 31 });
    const bytes = fs.readFileSync(file);
    expect(bytes.length).toBeGreaterThan(11 * 1024 * 1024);
    const posted = await postUploadFile(a.url, adminA, file, { uploadMode: 'replace', emailNotification: 'false' });
    expect(posted.status).toBe(202);
    const id = posted.body.uploadId as string;
    expect(await settleUpload(adminA, id)).toMatchObject({ status: 'completed' });
    const key = `${PREFIX}/uploads/${id}.csv`;
    expect(await s3.digest(key)).toEqual({ sha256: sha256(bytes), size: bytes.length });
    // It was received as a multipart upload of 5 MiB parts (at least 3), then moved to its key inside the store.
    const parts = s3.requests.filter((r) => r.method === 'PUT' && /[?&]partNumber=\d+/.test(r.url) && r.url.includes(`/${PREFIX}/uploads/.incoming/`));
    expect(new Set(parts.map((r) => r.url.split('?')[0])).size).toBe(1);
    expect(parts.length).toBeGreaterThanOrEqual(3);
    expect(s3.requests.some((r) => r.method === 'PUT' && r.url.startsWith(`/${s3.bucket}/${key}`) && r.headers['x-amz-copy-source'])).toBe(true);
    // The first upload again, as it was, for the evidence below.
    const again = await postUpload(a, adminA, 'q4-export.csv', EXPORT, { uploadMode: 'replace', emailNotification: 'false' });
    expect(await settleUpload(adminA, again.body.uploadId)).toMatchObject({ status: 'completed', recordCount: 3 });
  });

  it('reads workbooks from the store: an .xlsx by ranges of the object, a legacy .xls whole', { timeout: 90_000 }, async () => {
    const file = path.join(work, 'export.xlsx');
    await writeXlsx(file, 12_000, { seed: 33 });
    expect(fs.statSync(file).size).toBeGreaterThan(1024 * 1024);
    const xlsx = await postUpload(a, adminA, 'export.xlsx', fs.readFileSync(file), { uploadMode: 'append', emailNotification: 'false' });
    const doneXlsx = await settleUpload(adminA, xlsx.body.uploadId);
    expect(doneXlsx).toMatchObject({ status: 'completed' });
    expect(doneXlsx.recordCount + doneXlsx.duplicatesSkipped).toBe(12_000);
    // The workbook's parts were read by ranges (its directory once, from the last MB), never the object whole.
    const key = `/${s3.bucket}/${PREFIX}/uploads/${xlsx.body.uploadId}.xlsx`;
    const reads = s3.requests.filter((r) => r.method === 'GET' && r.url.split('?')[0] === key);
    expect(reads.length).toBeGreaterThan(1);
    expect(reads.every((r) => typeof r.headers.range === 'string')).toBe(true);
    const XLSX = (await import('xlsx')).default;
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([HEADERS, ...[...generateRows(40, 34)]]), 'Report');
    const xls = await postUpload(a, adminA, 'legacy.xls', XLSX.write(wb, { type: 'buffer', bookType: 'biff8' }) as Buffer, {
      uploadMode: 'append',
      emailNotification: 'false',
    });
    expect(await settleUpload(adminA, xls.body.uploadId)).toMatchObject({ status: 'completed', recordCount: 40 });
  });

  it('starts on one instance a preview made on the other', { timeout: 60_000 }, async () => {
    const form = new FormData();
    form.append('file', new Blob([EXPORT]), 'preview.csv');
    const res = await fetch(`${a.url}/api/upload/preview`, { method: 'POST', body: form, headers: { cookie: adminA.cookieHeader } });
    expect(res.status).toBe(200);
    const { previewId } = (await res.json()) as { previewId: string };
    expect((await s3.keys()).some((k) => k.startsWith(`${PREFIX}/uploads/.preview/${previewId}`))).toBe(true);
    const started = await adminB.post(`/api/upload/preview/${previewId}/start`, { uploadMode: 'append', emailNotification: false });
    expect(started.status).toBe(202);
    const id = started.body.uploadId as string;
    expect(await settleUpload(adminB, id)).toMatchObject({ status: 'completed' });
    expect(await s3.digest(`${PREFIX}/uploads/${id}.csv`)).toEqual({ sha256: sha256(EXPORT), size: Buffer.byteLength(EXPORT) });
    expect((await s3.keys()).filter((k) => k.includes('/.preview/'))).toEqual([]);
  });

  it("keeps a closed period's evidence bundle in the store, downloaded identical from either instance", { timeout: 120_000 }, async () => {
    const periodId = (await adminA.post('/api/review-periods', { name: 'Stored evidence' })).body.id as string;
    expect((await adminA.put(`/api/review-periods/${periodId}/close`)).status).toBe(200);
    let zip: Buffer | undefined;
    let stated = '';
    for (const deadline = Date.now() + 60_000; !zip; await new Promise((r) => setTimeout(r, 250))) {
      const res = await fetch(`${a.url}/api/reports/evidence-bundle?periodId=${periodId}`, { headers: { cookie: adminA.cookieHeader } });
      const body = Buffer.from(await res.arrayBuffer());
      if (res.status === 200) {
        zip = body;
        stated = res.headers.get('x-bundle-sha256') ?? '';
      } else expect(res.status).toBe(409);
      if (Date.now() > deadline) throw new Error('the bundle was not written within a minute');
    }
    expect(sha256(zip)).toBe(stated);
    const keys = (await s3.keys()).filter((k) => k.startsWith(`${PREFIX}/evidence/${periodId}/`));
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatch(/\/v1-[0-9a-f]{8}\.zip$/);
    expect(await s3.digest(keys[0]!)).toEqual({ sha256: sha256(zip), size: zip.length });
    const fromB = await fetch(`${b.url}/api/reports/evidence-bundle?periodId=${periodId}`, { headers: { cookie: adminB.cookieHeader } });
    expect(sha256(Buffer.from(await fromB.arrayBuffer()))).toBe(sha256(zip));
    // The close read each upload's file from the store for its checksum.
    const manifest = JSON.parse(await (await JSZip.loadAsync(zip)).file('manifest.json')!.async('string'));
    const live = manifest.scope.uploads.filter((u: { liveAtClose: boolean }) => u.liveAtClose);
    expect(live.length).toBeGreaterThan(0);
    const keysNow = await s3.keys();
    for (const u of live) {
      const stored = keysNow.find((k) => k.startsWith(`${PREFIX}/uploads/${u.uploadId}.`))!;
      expect(u.sha256).toBe((await s3.digest(stored)).sha256);
    }
    expect(live.map((u: { sha256: string }) => u.sha256)).toContain(sha256(EXPORT));
  });

  it('addresses the store path-style, sends no checksum it does not require, and writes under the prefix only', () => {
    expect(s3.requests.length).toBeGreaterThan(10);
    // Path-style (/bucket/key), every key under the prefix; a listing asks for keys under it.
    const under = (r: { url: string }) => {
      const url = new URL(r.url, s3.endpoint);
      return (
        url.pathname.startsWith(`/${s3.bucket}/${PREFIX}/`) ||
        (url.pathname.replace(/\/$/, '') === `/${s3.bucket}` && !!url.searchParams.get('prefix')?.startsWith(`${PREFIX}/`))
      );
    };
    const outside = s3.requests.filter((r) => !under(r));
    expect(outside.map((r) => `${r.method} ${r.url}`)).toEqual([]);
    const checksums = s3.requests.flatMap((r) => Object.keys(r.headers).filter((h) => h.startsWith('x-amz-checksum-') || h === 'x-amz-sdk-checksum-algorithm'));
    expect(checksums).toEqual([]);
  });

  it('writes none of those files to either instance’s DATA_DIR', () => {
    for (const s of [a, b]) {
      const stored = filesUnder(s.dataDir).filter((f) => /(^|\/)(uploads|evidence)(\/|$)/.test(f));
      expect(stored).toEqual([]);
    }
  });
});
