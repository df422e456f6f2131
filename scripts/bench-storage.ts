// The memory of a large upload to S3: a generated export of `--mb` MB (1024 by
// default) is received as the upload route receives it (services/uploads
// receiveFile: a multipart upload of STORAGE_PART_SIZE_MB parts) into a local
// S3-compatible server (s3rver, in its own process so that only this one's
// memory is measured), then read back through the CSV reader as a load reads
// it. Prints the time and the peak resident memory of each phase.
//   npm run bench:storage -- --mb 1024 --part-mb 8
import fs from 'node:fs';
import os from 'node:os';
import net from 'node:net';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { Readable } from 'node:stream';
import { openObjectStore } from '../api/src/db/storage/index.js';
import { openCsv } from '../api/src/ingest/csv.js';
import { receiveFile, uploadKey } from '../api/src/services/uploads/uploads.js';
import { HEADERS, generateRows } from './gen-data.js';
import { arg } from './cli.js';

const MB = 1024 * 1024;
const size = Number(arg('mb', '1024')) * MB;
const partMb = Number(arg('part-mb', '8'));

async function freePort(): Promise<number> {
  const s = net.createServer().listen(0, '127.0.0.1');
  await new Promise((r) => s.once('listening', r));
  const { port } = s.address() as net.AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}

/**
 * An export of about `bytes` bytes (whole lines), in chunks of about 1 MB: one
 * generated MB of rows repeated (generating a GB of distinct rows would take
 * minutes and measure the generator; the store and reader see the same bytes).
 */
async function* exportOf(bytes: number): AsyncGenerator<Buffer> {
  const line = (f: string[]) => f.map((v) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v)).join(',') + '\r\n';
  let text = '';
  for (const row of generateRows(5000, 7)) {
    text += line(row);
    if (text.length >= MB) break;
  }
  const block = Buffer.from(text);
  let sent = 0;
  yield Buffer.from(line(HEADERS));
  for (; sent < bytes; sent += block.length) yield block;
}

/** Runs `work` while sampling the resident memory every 20 ms: its time and the peak. */
async function measured<T>(work: () => Promise<T>): Promise<{ result: T; secs: number; peakMb: number }> {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const t0 = performance.now();
  try {
    const result = await work();
    return { result, secs: (performance.now() - t0) / 1000, peakMb: Math.max(peak, process.memoryUsage().rss) / MB };
  } finally {
    clearInterval(timer);
  }
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'grc-bench-storage-'));
const port = await freePort();
const server = spawn(
  process.execPath,
  [path.resolve('node_modules/s3rver/bin/s3rver.js'), '-d', dir, '-a', '127.0.0.1', '-p', String(port), '-s', '--configure-bucket', 'bench'],
  { stdio: 'ignore' },
);
try {
  for (let i = 0; ; i++) {
    const up = await fetch(`http://127.0.0.1:${port}/`).then(
      () => true,
      () => false,
    );
    if (up) break;
    if (i > 100) throw new Error('s3rver did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  process.env.AWS_ACCESS_KEY_ID ??= 'S3RVER';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'S3RVER';
  const storage = await openObjectStore({
    dataDir: dir,
    STORAGE_URL: 's3://bench/grc',
    AWS_ENDPOINT_URL: `http://127.0.0.1:${port}`,
    STORAGE_PART_SIZE_MB: partMb,
  });
  const baseline = process.memoryUsage().rss / MB;
  console.log(`object storage: ${size / MB} MB to s3rver, ${partMb} MB parts; resident memory before: ${baseline.toFixed(0)} MB`);
  const put = await measured(() => receiveFile(storage, Readable.from(exportOf(size)), 'large.csv'));
  const key = uploadKey('bench.csv');
  await storage.move(put.result.key, key);
  console.log(
    `  upload (multipart): ${(put.result.sizeBytes / MB).toFixed(0)} MB in ${put.secs.toFixed(1)} s (${(put.result.sizeBytes / MB / put.secs).toFixed(0)} MB/s), peak RSS ${put.peakMb.toFixed(0)} MB`,
  );
  const read = await measured(async () => {
    const reader = await openCsv(storage.source(key), 2000);
    let rows = 0;
    for await (const b of reader.batches) rows += b.records.length;
    return rows;
  });
  console.log(
    `  read back (CSV reader): ${read.result.toLocaleString('en-US')} rows in ${read.secs.toFixed(1)} s (${(size / MB / read.secs).toFixed(0)} MB/s), peak RSS ${read.peakMb.toFixed(0)} MB`,
  );
} finally {
  server.kill();
  fs.rmSync(dir, { recursive: true, force: true });
}
