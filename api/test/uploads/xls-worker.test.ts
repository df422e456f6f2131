// Legacy .xls files are read by SheetJS in a child process with its own heap
// (api/src/ingest/xls-worker.mjs, started by openXls in tables.ts): batches of
// at most the group size, and a workbook the child cannot read — too large for
// its heap, or damaged — fails its upload with a clear message while the server
// keeps serving. No child is left behind: closing the reader kills it, and it
// exits when the process that started it dies.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ChildProcess, spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import * as XLSX from 'xlsx';
import { openXls } from '../../src/ingest/tables.js';
import { IngestError } from '../../src/ingest/csv.js';
import { Client, adminClient, startServer, type TestServer } from '../helpers/server.js';
import { postUpload, settleUpload } from '../helpers/upload.js';
import { HEADERS, generateRows } from '../../../scripts/gen-data.js';

const root = path.resolve(import.meta.dirname, '../../..');
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
  const r = await postUpload(server, admin, name, content);
  expect(r.status).toBe(202);
  return (r.body as { uploadId: string }).uploadId;
}

/** Spies on each child process started (ChildProcess.prototype.spawn: its `this` is the child). */
const spyOnSpawn = () => vi.spyOn(ChildProcess.prototype as ChildProcess & { spawn(options: unknown): unknown }, 'spawn');

/** True while the process runs (a zombie, exited but not yet reaped, has gone). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return fs.readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '')[0] !== 'Z';
  } catch {
    return true; // no /proc: kill(pid, 0) has said
  }
}

const settle = (id: string) => settleUpload(admin, id);

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

  it('kills the child when the reader is given up before the end, and no child remains', async () => {
    const spawned = spyOnSpawn();
    const kill = vi.spyOn(ChildProcess.prototype, 'kill');
    try {
      const reader = await openXls(writeXls([HEADERS, ...generateRows(50, 92)]), 10);
      const first = await reader.batches.next();
      expect(first.done).toBe(false);
      expect(spawned).toHaveBeenCalledTimes(1);
      const child = spawned.mock.contexts[0] as ChildProcess;
      const pid = child.pid!;
      expect(pid).toBeGreaterThan(0);
      expect(alive(pid)).toBe(true);
      await reader.batches.return(undefined);
      expect(kill).toHaveBeenCalledTimes(1);
      // The reader's return() waits until the child has gone.
      expect(child.signalCode).toBe('SIGKILL');
      expect(alive(pid)).toBe(false);
      expect(() => process.kill(pid, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
    } finally {
      spawned.mockRestore();
      kill.mockRestore();
    }
  });

  it('leaves no child running when a reader is closed before its first batch, or when it has read to the end', async () => {
    const spawned = spyOnSpawn();
    try {
      const early = await openXls(writeXls([HEADERS, ...generateRows(50, 97)]), 10);
      await early.batches.return(undefined);
      const whole = await openXls(writeXls([HEADERS, ...generateRows(50, 98)]), 10);
      let rows = 0;
      for await (const b of whole.batches) rows += b.records.length;
      expect(rows).toBe(50);
      const children = spawned.mock.contexts as ChildProcess[];
      expect(children).toHaveLength(2);
      for (const c of children) expect(alive(c.pid!)).toBe(false);
    } finally {
      spawned.mockRestore();
    }
  });

  it('the child exits when the process that started it dies', async () => {
    const file = writeXls([HEADERS, ...generateRows(50, 99)]);
    const script = path.join(tmp, 'die-while-reading.mjs');
    fs.writeFileSync(
      script,
      `import { ChildProcess } from 'node:child_process';
const spawnChild = ChildProcess.prototype.spawn;
ChildProcess.prototype.spawn = function (...args) {
  const r = spawnChild.apply(this, args);
  console.log(JSON.stringify({ child: this.pid }));
  return r;
};
const { openXls } = await import(${JSON.stringify(pathToFileURL(path.join(root, 'api/src/ingest/tables.ts')).href)});
const r = await openXls(process.argv[2], 10);
await r.batches.next();
// Dies without closing the reader: its child waits for 'next'.
process.kill(process.pid, 'SIGKILL');
`,
    );
    const parent = spawn(process.execPath, ['--import', 'tsx', script, file], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    parent.stdout.on('data', (c) => (out += c));
    parent.stderr.on('data', (c) => (err += c));
    const signal = await new Promise((resolve) => parent.on('exit', (_code, sig) => resolve(sig)));
    expect(signal, err).toBe('SIGKILL');
    const pid = JSON.parse(out.trim().split('\n')[0]!).child as number;
    expect(pid).toBeGreaterThan(0);
    const deadline = Date.now() + 20_000;
    while (alive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(alive(pid)).toBe(false);
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

  it("gives the child its own heap even when the server's heap is capped with --max-old-space-size", async () => {
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
    // Run without blocking this process: the test server in it keeps answering meanwhile.
    const run = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, ['--max-old-space-size=48', '--max-semi-space-size=4', '--import', 'tsx', script, file], {
        cwd: root,
        timeout: 80_000,
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      child.on('close', (status) => resolve({ status, stdout, stderr }));
    });
    expect(run.status, run.stderr).toBe(0);
    const out = JSON.parse(run.stdout.trim().split('\n').at(-1)!);
    expect(out.rows).toBe(5000);
    // The server's own heap keeps its cap.
    expect(out.heapLimitMb).toBeLessThan(64);
  }, 90_000);
});

describe('an .xls the child cannot read fails its upload, and the server keeps serving', () => {
  it('a workbook too large for the child heap', async () => {
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

  it('a workbook that keeps the reader busy longer than its step limit is refused, and the server keeps serving', async () => {
    // A crafted workbook can make a parser spin; the limit (XLS_STEP_LIMIT_MS,
    // 2 minutes by default) is lowered here so that an ordinary file overruns it.
    const buf = fs.readFileSync(writeXls([HEADERS, ...generateRows(2000, 97)]));
    const before = (await admin.get('/api/risks?limit=1')).body.total;
    process.env.XLS_STEP_LIMIT_MS = '5';
    let failed;
    try {
      failed = await settle(await upload('slow.xls', buf));
    } finally {
      delete process.env.XLS_STEP_LIMIT_MS;
    }
    expect(failed.status).toBe('failed');
    expect(failed.errorMessage).toMatch(/^This \.xls file took longer than \d+ s to read, so it was refused\. Save it as \.xlsx or CSV/);
    expect((await admin.get('/api/risks?limit=1')).body.total).toBe(before);
    expect((await admin.get('/api/risks?limit=1')).status).toBe(200);
  });

  it('is read by a SheetJS build with the fixes for crafted files (prototype pollution before 0.19.3, ReDoS before 0.20.2)', () => {
    const [major, minor, patch] = XLSX.version.split('.').map(Number) as [number, number, number];
    expect(major * 1e6 + minor * 1e3 + patch).toBeGreaterThanOrEqual(20_003);
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
