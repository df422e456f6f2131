// Legacy .xls files are read by SheetJS in a worker thread with its own heap
// (api/src/ingest/xls-worker.mjs, started by openXls in tables.ts): the same
// batches as before, and a workbook the worker cannot read — too large for its
// heap, or damaged — fails its upload with a clear message while the server
// keeps serving.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import XLSX from 'xlsx';
import { openXls } from '../src/ingest/tables.js';
import { IngestError } from '../src/ingest/csv.js';
import { Client, adminClient, startServer, type TestServer } from './helpers/server.js';
import { HEADERS, generateRows } from '../../scripts/gen-data.js';

const root = path.resolve(import.meta.dirname, '../..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'grc-xls-'));
let n = 0;

function writeXls(rows: unknown[][]): string {
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(rows), 'Report');
  const file = path.join(tmp, `${n++}.xls`);
  fs.writeFileSync(file, XLSX.write(wb, { type: 'buffer', bookType: 'biff8' }) as Buffer);
  return file;
}

let server: TestServer;
let admin: Client;
beforeAll(async () => {
  server = await startServer();
  admin = await adminClient(server);
});
afterAll(async () => {
  delete process.env.XLS_WORKER_HEAP_MB;
  await server?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function upload(name: string, content: Buffer) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(content)]), name);
  const res = await fetch(server.url + '/api/upload', { method: 'POST', body: form, headers: { cookie: admin.cookieHeader } });
  expect(res.status).toBe(202);
  return ((await res.json()) as { uploadId: string }).uploadId;
}

async function settle(id: string) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const s = await admin.get(`/api/upload-status/${id}`);
    if (s.body.status !== 'processing') return s.body;
    if (Date.now() > deadline) throw new Error('upload did not finish');
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('openXls', () => {
  it('hands over the sheet in batches of at most the group size, with row numbers and progress', async () => {
    const rows = [...generateRows(2500, 91)];
    const file = writeXls([HEADERS, ...rows]);
    const reader = await openXls(file, 1000);
    expect(reader.header).toEqual(HEADERS);
    const sizes: number[] = [];
    const progress: number[] = [];
    const got: { row: number; fields: string[] }[] = [];
    for await (const b of reader.batches) {
      sizes.push(b.records.length);
      progress.push(b.bytesRead);
      got.push(...b.records);
    }
    expect(sizes).toEqual([1000, 1000, 500]);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress.at(-1)).toBe(fs.statSync(file).size);
    expect(got.map((r) => r.row)).toEqual(rows.map((_r, i) => i + 2));
    expect(got.map((r) => r.fields)).toEqual(rows.map((r) => HEADERS.map((_h, j) => String(r[j] ?? ''))));
  });

  it('terminates the worker when the reader is given up before the end', async () => {
    const terminate = vi.spyOn(Worker.prototype, 'terminate');
    try {
      const reader = await openXls(writeXls([HEADERS, ...generateRows(50, 92)]), 10);
      const first = await reader.batches.next();
      expect(first.done).toBe(false);
      await reader.batches.return(undefined);
      expect(terminate).toHaveBeenCalledTimes(1);
    } finally {
      terminate.mockRestore();
    }
  });

  it('refuses a damaged .xls with the reason SheetJS gives', async () => {
    const whole = fs.readFileSync(writeXls([HEADERS, ...generateRows(200, 93)]));
    const file = path.join(tmp, 'truncated.xls');
    fs.writeFileSync(file, whole.subarray(0, whole.length >> 1));
    const e = await openXls(file, 100).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(e).toBeInstanceOf(IngestError);
    expect((e as Error).message).toMatch(/^This \.xls file is not a readable Excel workbook \(.+\)\.$/);
  });

  it("gives the worker its own heap even when the server's heap is capped with --max-old-space-size", () => {
    // This workbook needs more than 64 MB of heap to read; the server runs with 48 MB.
    const file = writeXls([HEADERS, ...generateRows(5000, 94)]);
    const script = path.join(tmp, 'read-xls.mjs');
    fs.writeFileSync(
      script,
      `import v8 from 'node:v8';
const { openXls } = await import(${JSON.stringify(pathToFileURL(path.join(root, 'api/src/ingest/tables.ts')).href)});
const r = await openXls(process.argv[2], 2000);
let rows = 0;
for await (const b of r.batches) rows += b.records.length;
console.log(JSON.stringify({ rows, heapLimitMb: v8.getHeapStatistics().heap_size_limit / 1024 ** 2 }));
`,
    );
    const run = spawnSync(process.execPath, ['--max-old-space-size=48', '--max-semi-space-size=4', '--import', 'tsx', script, file], {
      cwd: root,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status, run.stderr).toBe(0);
    const out = JSON.parse(run.stdout.trim().split('\n').at(-1)!);
    expect(out.rows).toBe(5000);
    // The server's own heap keeps its cap.
    expect(out.heapLimitMb).toBeLessThan(64);
  });
});

describe('an .xls the worker cannot read fails its upload, and the server keeps serving', () => {
  it('a workbook too large for the worker heap', async () => {
    const buf = fs.readFileSync(writeXls([HEADERS, ...generateRows(2000, 95)]));
    const before = (await admin.get('/api/risks?limit=1')).body.total;
    process.env.XLS_WORKER_HEAP_MB = '32';
    let failed;
    try {
      failed = await settle(await upload('big.xls', buf));
    } finally {
      delete process.env.XLS_WORKER_HEAP_MB;
    }
    expect(failed.status).toBe('failed');
    expect(failed.errorMessage).toMatch(/^This \.xls file is too large to read: .* more than the 32 MB set aside for it\. Save it as \.xlsx or CSV/);

    // The server answers, and the same file loads with the normal heap.
    const risks = await admin.get('/api/risks?limit=1');
    expect(risks.status).toBe(200);
    expect(risks.body.total).toBe(before);
    const done = await settle(await upload('big-again.xls', buf));
    expect(done).toMatchObject({ status: 'completed', errorMessage: null });
    expect(done.recordCount + done.duplicatesSkipped).toBe(2000);
  });

  it('a damaged workbook', async () => {
    const whole = fs.readFileSync(writeXls([HEADERS, ...generateRows(200, 96)]));
    const before = (await admin.get('/api/risks?limit=1')).body.total;
    const failed = await settle(await upload('damaged.xls', whole.subarray(0, whole.length >> 1)));
    expect(failed.status).toBe('failed');
    expect(failed.errorMessage).toMatch(/^This \.xls file is not a readable Excel workbook/);
    expect((await admin.get('/api/risks?limit=1')).body.total).toBe(before);
  });
});
