// A server killed (SIGKILL) in the middle of loading a file: after a restart
// the upload is failed as interrupted, never stuck in 'processing', and none of
// its rows are left.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { Client } from '../helpers/server.js';
import { freshDatabase } from '../helpers/db.js';
import { writeCsv } from '../../../scripts/gen-data.js';
import { createDatabase } from '../../src/db/client.js';
import { postUploadFile } from '../helpers/upload.js';

const root = path.resolve(import.meta.dirname, '../../..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'grc-crash-'));
const children: ChildProcess[] = [];
let dropDb = async () => {};

afterAll(async () => {
  for (const c of children) c.kill('SIGKILL');
  await dropDb();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function start(env: Record<string, string>, port: number) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'api/src/main.ts'], {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: 'ignore',
  });
  children.push(child);
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/readyz`)).ok) return child;
    } catch {
      /* not yet */
    }
    if (Date.now() > deadline) throw new Error('server did not start');
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('a server killed mid-load', () => {
  it('leaves, after restart, the upload failed as interrupted and no partial rows', async () => {
    const db = await freshDatabase();
    dropDb = db.drop;
    const port = 3400 + Math.floor(Math.random() * 500);
    const env: Record<string, string> = {
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      ADMIN_PASSWORD: 'Crash#Pass1',
      JOB_POLL_SECONDS: '0.5',
      UPLOAD_STALE_SECONDS: '3',
      ...(db.url ? { DATABASE_URL: db.url } : {}),
    };
    const first = await start(env, port);
    const admin = new Client(`http://127.0.0.1:${port}`);
    await admin.login('admin@example.com', 'Crash#Pass1');
    await admin.put('/api/internal/change-password', { currentPassword: 'Crash#Pass1', newPassword: 'Crash#Pass2' });

    const file = path.join(dataDir, 'big.csv');
    writeCsv(file, 60000, { seed: 71 });
    const { uploadId } = (await postUploadFile(admin.baseUrl, admin, file, { batchSize: '5000', emailNotification: 'false' })).body as { uploadId: string };

    // Kill it once some batches are in.
    const deadline = Date.now() + 60_000;
    for (;;) {
      const s = (await admin.get(`/api/upload-status/${uploadId}`)).body;
      if (s.status !== 'processing') throw new Error(`finished before the kill: ${JSON.stringify(s)}`);
      if (s.rowsProcessed > 0) break;
      if (Date.now() > deadline) throw new Error('no progress');
      await new Promise((r) => setTimeout(r, 50));
    }
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));

    await start(env, port);
    await admin.login('admin@example.com', 'Crash#Pass2');
    let s: any;
    const until = Date.now() + 30_000;
    do {
      s = (await admin.get(`/api/upload-status/${uploadId}`)).body;
      if (s.status !== 'processing') break;
      await new Promise((r) => setTimeout(r, 250));
    } while (Date.now() < until);
    expect(s.status).toBe('failed');
    expect(s.errorMessage).toMatch(/^The upload was interrupted/);
    expect((await admin.get('/api/risks?limit=1')).body.total).toBe(0);
    const history = (await admin.get('/api/uploads')).body;
    expect(history[0]).toMatchObject({ id: uploadId, status: 'failed', live: false });

    // No rows of the upload are left behind at all (not just invisible).
    const deadline2 = Date.now() + 15_000;
    let left = -1;
    for (const c of children) c.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 1500));
    const check = await createDatabase({ databaseUrl: db.url, dataDir });
    try {
      do {
        left = Number((await check.sql.query<{ n: string }>('SELECT count(*) AS n FROM risk_rows WHERE upload_id = $1', [uploadId]))[0]!.n);
        if (left === 0) break;
        await new Promise((r) => setTimeout(r, 250));
      } while (Date.now() < deadline2);
    } finally {
      await check.close();
    }
    expect(left).toBe(0);
  }, 180_000);
});
