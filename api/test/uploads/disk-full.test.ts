// The embedded database's data folder fills up under a running server: a
// change that cannot be saved is answered 503 'the data folder is full' with
// Retry-After (never a generic 500), /healthz keeps answering while /readyz
// fails, an upload is refused as 'the data folder is full' and loads on
// Retry later, and once space is back the process exits with 75 for its supervisor
// to start it again (the embedded database takes writes again only in a new
// process), where everything saved before is there and changes are saved
// again. The data folder is a small tmpfs mounted by the test (as root);
// skipped, saying why, where mounting is not permitted. Runs in the embedded
// database's pass only.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { onPostgres } from '../helpers/db.js';
import { freePort, spawnServer, waitReady, type ServerProcess } from '../helpers/process.js';
import { Client } from '../helpers/server.js';
import { writeCsv } from '../../../scripts/gen-data.js';

const mountPoint = fs.mkdtempSync(path.join(os.tmpdir(), 'grc-full-'));
let mounted = false;
let skipReason = onPostgres ? 'it covers the embedded database (runs without DATABASE_URL)' : '';
if (!skipReason) {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=160m', 'tmpfs', mountPoint], { stdio: 'pipe' });
    mounted = true;
  } catch (err) {
    skipReason = `mounting a small tmpfs is not permitted here (${String((err as Error).message).split('\n')[0]})`;
  }
}
if (skipReason) console.warn(`disk-full.test.ts: skipped, ${skipReason}`);

const procs: ServerProcess[] = [];
afterAll(async () => {
  for (const p of procs) p.child.kill('SIGKILL');
  await Promise.all(procs.map((p) => p.exited));
  if (mounted) execFileSync('umount', ['-l', mountPoint]);
  fs.rmSync(mountPoint, { recursive: true, force: true });
  fs.rmSync(outside, { recursive: true, force: true });
});

const dataDir = path.join(mountPoint, 'data');
const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'grc-full-files-'));
const filler = path.join(mountPoint, 'filler');

/** Writes `filler` until the disk is full, to the last block; then frees `leaveBytes` of it. */
function fillDisk(leaveBytes = 0) {
  const fd = fs.openSync(filler, 'w');
  try {
    for (const size of [1 << 20, 1 << 12, 1 << 9]) {
      const chunk = Buffer.alloc(size, 1);
      try {
        for (;;) fs.writeSync(fd, chunk);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
      }
    }
    if (leaveBytes) fs.ftruncateSync(fd, fs.fstatSync(fd).size - leaveBytes);
  } finally {
    fs.closeSync(fd);
  }
}

/** POST /api/upload of `file` as `c` (no e-mail). */
async function upload(c: Client, file: string) {
  const form = new FormData();
  form.append('emailNotification', 'false');
  form.append('file', await fs.openAsBlob(file), 'export.csv');
  const res = await fetch(`${c.baseUrl}/api/upload`, { method: 'POST', body: form, headers: { cookie: c.cookieHeader } });
  return { status: res.status, headers: res.headers, body: (await res.json()) as { uploadId: string; message: string } };
}

async function settled(c: Client, id: string) {
  for (const deadline = Date.now() + 60_000; ; await new Promise((r) => setTimeout(r, 200))) {
    const s = (await c.get(`/api/upload-status/${id}`)).body;
    if (s.status !== 'processing') return s;
    if (Date.now() > deadline) throw new Error('the upload did not finish');
  }
}

async function start(port: number): Promise<ServerProcess> {
  const p = spawnServer({ DATA_DIR: dataDir, DATABASE_URL: '', ADMIN_PASSWORD: 'Full#Disk1', LOG_LEVEL: 'warn', JOB_POLL_SECONDS: '0.5' }, port);
  procs.push(p);
  await waitReady(p);
  return p;
}

describe.runIf(mounted)('the data folder of the embedded database fills up', () => {
  it('answers a clear 503, keeps /healthz up with /readyz failing, and exits for a restart once space is back, losing nothing', async () => {
    const port = await freePort();
    const first = await start(port);
    const admin = new Client(first.url);
    expect((await admin.login('admin@example.com', 'Full#Disk1')).status).toBe(200);
    expect((await admin.put('/api/internal/change-password', { currentPassword: 'Full#Disk1', newPassword: 'Full#Disk2' })).status).toBe(200);
    const send = (title: string) => admin.post('/api/notifications', { title, message: 'x'.repeat(3000), type: 'info', targetType: 'all' });
    expect((await send('Before the disk filled up')).status).toBe(201);

    // Nearly full: the file is stored, its rows are refused before the disk fills under the database.
    const csv = path.join(outside, 'export.csv');
    writeCsv(csv, 4000, { seed: 73 });
    fillDisk(fs.statSync(csv).size + 24 * 1024 * 1024);
    const nearly = await upload(admin, csv);
    expect(nearly.status).toBe(202);
    const refusedLoad = await settled(admin, nearly.body.uploadId);
    expect(refusedLoad).toMatchObject({ status: 'failed' });
    expect(refusedLoad.errorMessage).toMatch(/^The upload was interrupted: the data folder is full.*Retry/);
    fs.rmSync(filler);
    // The database itself never met the full disk: the instance is ready as before.
    expect((await fetch(`${first.url}/readyz`)).status).toBe(200);

    fillDisk();
    // A file that cannot even be stored, refused while most of it is still on its way:
    // the client reads the answer (the rest of the body is read and dropped), not a reset.
    const large = path.join(outside, 'large.csv');
    writeCsv(large, 150_000, { seed: 74 });
    const unstored = await upload(admin, large);
    expect(unstored.status).toBe(503);
    expect(unstored.body.message).toMatch(/^The data folder is full/);
    // Each notification takes room in its table: soon one needs space the disk no longer has.
    let refused: Awaited<ReturnType<typeof send>> | undefined;
    for (let i = 0; i < 500 && !refused; i++) {
      const r = await send(`While full ${i}`);
      if (r.status !== 201) refused = r;
    }
    expect(refused?.status).toBe(503);
    expect(refused?.body.message).toMatch(/^The data folder is full/);
    expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThan(0);
    // The process answers, and says it is not ready.
    expect((await fetch(`${first.url}/healthz`)).status).toBe(200);
    const ready = await fetch(`${first.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(((await ready.json()) as { message: string }).message).toMatch(/^The data folder is full/);
    expect((await send('Still full')).status).toBe(503);
    // What is saved can still be read.
    const listed = await admin.get('/api/notifications?admin=true');
    expect(listed.status).toBe(200);
    expect(listed.body.notifications.map((x: { title: string }) => x.title)).toContain('Before the disk filled up');

    // Space comes back: the process exits with 75, and its supervisor (here, the test) starts it again.
    fs.rmSync(filler);
    expect(await first.exited).toBe(75);
    expect(first.output()).toMatch(/space is back in the data folder/);
    const second = await start(port);
    const again = new Client(second.url);
    expect((await again.login('admin@example.com', 'Full#Disk2')).status).toBe(200);
    expect((await again.post('/api/notifications', { title: 'After the restart', message: 'Saved', type: 'info', targetType: 'all' })).status).toBe(201);
    const titles = ((await again.get('/api/notifications?admin=true')).body.notifications as { title: string }[]).map((x) => x.title);
    expect(titles).toContain('Before the disk filled up');
    expect(titles).toContain('After the restart');
    expect((await fetch(`${second.url}/readyz`)).status).toBe(200);
    // The upload refused for want of space loads on Retry.
    expect((await again.post(`/api/uploads/${nearly.body.uploadId}/retry`)).status).toBe(202);
    expect(await settled(again, nearly.body.uploadId)).toMatchObject({ status: 'completed', recordCount: 4000 });
  }, 240_000);
});
