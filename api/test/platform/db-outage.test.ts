// The PostgreSQL server ends the instance's connections in the middle of an
// upload (what a failover, a pooler reset or an idle-session kill does): the
// process stays up, the upload is failed as interrupted and loads on Retry,
// and the next requests work. While the database cannot be reached at all,
// requests are answered 503 with Retry-After (not a generic 500), /readyz
// fails and /healthz still answers; once it is back, requests work again.
// The instance reaches its own test database through a TCP proxy this test
// controls (cutting it is the outage); only connections to that database are
// terminated. Skipped without PostgreSQL.
import fs from 'node:fs';
import os from 'node:os';
import net from 'node:net';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, onPostgres, type TestDatabase } from '../helpers/db.js';
import { freePort, spawnServer, waitReady, type ServerProcess } from '../helpers/process.js';
import { Client } from '../helpers/server.js';
import { writeCsv } from '../../../scripts/gen-data.js';
import { postUploadFile } from '../helpers/upload.js';

if (!onPostgres) console.warn('db-outage.test.ts: skipped, it needs PostgreSQL (DATABASE_URL)');

/** A TCP proxy to PostgreSQL on a port of its own: cut() is an outage (connections dropped, new ones refused), restore() ends it. */
async function pgProxy(target: URL) {
  const port = await freePort();
  const [host, targetPort] = [target.hostname, Number(target.port || 5432)];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, host);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {});
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  const listen = () => new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  await listen();
  return {
    port,
    async cut() {
      const closed = new Promise((r) => server.close(r));
      for (const s of sockets) s.destroy();
      await closed;
    },
    restore: listen,
    close() {
      for (const s of sockets) s.destroy();
      server.close();
    },
  };
}

let db: TestDatabase | undefined;
let proxy: Awaited<ReturnType<typeof pgProxy>> | undefined;
let proc: ServerProcess | undefined;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'grc-db-outage-'));

afterAll(async () => {
  proc?.child.kill('SIGKILL');
  await proc?.exited;
  proxy?.close();
  await db?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** The upload's status; right after the connections were ended a request may be answered 503 (tried again). */
async function uploadStatus(admin: Client, id: string) {
  const r = await admin.get(`/api/upload-status/${id}`);
  if (r.status === 503) expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
  else expect(r.status).toBe(200);
  return r.status === 200 ? r.body : { status: 'processing', rowsProcessed: 0 };
}

async function until<T>(what: string, get: () => Promise<T>, ok: (v: T) => boolean, ms = 60_000): Promise<T> {
  for (const deadline = Date.now() + ms; ; await new Promise((r) => setTimeout(r, 100))) {
    if (proc!.child.exitCode !== null) throw new Error(`the instance exited (${proc!.child.exitCode}): ${proc!.output().slice(-2000)}`);
    const v = await get();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`${what}: ${JSON.stringify(v)}`);
  }
}

describe.runIf(onPostgres)('database connections lost', () => {
  let name: string;
  beforeAll(async () => {
    db = await freshDatabase();
    const url = new URL(db.url!);
    name = url.pathname.slice(1);
    proxy = await pgProxy(url);
    url.host = `127.0.0.1:${proxy.port}`;
    proc = spawnServer(
      {
        DATABASE_URL: url.toString(),
        DATA_DIR: dataDir,
        ADMIN_PASSWORD: 'Outage#Pass1',
        LOG_LEVEL: 'warn',
        JOB_POLL_SECONDS: '0.5',
        UPLOAD_STALE_SECONDS: '3',
      },
      await freePort(),
    );
    await waitReady(proc);
    const admin = new Client(proc.url);
    await admin.login('admin@example.com', 'Outage#Pass1');
    expect((await admin.put('/api/internal/change-password', { currentPassword: 'Outage#Pass1', newPassword: 'Outage#Pass2' })).status).toBe(200);
  }, 120_000);

  it('an upload whose connections the server ends fails as interrupted, the process stays up, Retry loads it', async () => {
    const admin = new Client(proc!.url);
    expect((await admin.login('admin@example.com', 'Outage#Pass2')).status).toBe(200);

    const file = path.join(dataDir, 'big.csv');
    writeCsv(file, 60000, { seed: 72 });
    const { uploadId } = (await postUploadFile(admin.baseUrl, admin, file, { batchSize: '5000', emailNotification: 'false' })).body as { uploadId: string };
    await until(
      'no progress',
      () => uploadStatus(admin, uploadId),
      (s) => s.rowsProcessed > 0 || s.status !== 'processing',
    );

    // Every connection of the instance to its own database is ended by the server, the slot's held one included.
    const direct = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await direct.connect();
    try {
      const ended = await direct.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [name]);
      expect(ended.rowCount).toBeGreaterThan(0);
    } finally {
      await direct.end();
    }

    const failed = await until(
      'the upload did not fail',
      () => uploadStatus(admin, uploadId),
      (s) => s.status !== 'processing',
    );
    expect(failed.status).toBe('failed');
    expect(failed.errorMessage).toMatch(/^The upload was interrupted: the connection to the database was lost.*Use Retry/);
    expect((await admin.get('/api/users')).status).toBe(200);
    expect((await admin.get('/api/risks?limit=1')).body.total).toBe(0);

    const retried = await admin.post(`/api/uploads/${uploadId}/retry`);
    expect(retried.status).toBe(202);
    const done = await until(
      'the retried upload did not finish',
      () => uploadStatus(admin, uploadId),
      (s) => s.status !== 'processing',
    );
    expect(done).toMatchObject({ status: 'completed', recordCount: 60000 });
    expect(proc!.child.exitCode).toBeNull();
  }, 240_000);

  it('while the database cannot be reached, requests answer 503 with Retry-After and /readyz fails; then they work again', async () => {
    const admin = new Client(proc!.url);
    expect((await admin.login('admin@example.com', 'Outage#Pass2')).status).toBe(200);
    await proxy!.cut();
    const refused = await admin.get('/api/users');
    expect(refused.status).toBe(503);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.body.message).toMatch(/database cannot be reached/);
    const ready = await fetch(`${proc!.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(((await ready.json()) as { degraded: string[] }).degraded).toEqual(['database']);
    expect((await fetch(`${proc!.url}/healthz`)).status).toBe(200);

    await proxy!.restore();
    await until(
      'requests did not work again',
      async () => (await admin.get('/api/users')).status,
      (s) => s === 200,
    );
    expect((await fetch(`${proc!.url}/readyz`)).status).toBe(200);
    expect(proc!.child.exitCode).toBeNull();
  }, 120_000);
});
