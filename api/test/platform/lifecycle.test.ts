// The server's life as real processes on a fresh PostgreSQL database: several
// instances started at once migrate exactly once and all come up; a start that
// cannot succeed says why in one line and exits; SIGTERM turns /readyz to 503
// first, lets a running request finish, closes WebSockets with 1012 (which
// clients retry) and exits in time, also when a client never finishes its
// request. Skipped when no PostgreSQL answers.
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../helpers/db.js';
import { freePort, reachablePostgres, spawnServer, waitReady, type ServerProcess } from '../helpers/process.js';
import { wsClient } from '../helpers/ws.js';
import { Client } from '../helpers/server.js';
import { readMigrations } from '../../src/db/migrate.js';
import { writeCsv } from '../../../scripts/gen-data.js';

async function ingestedRows(p: ServerProcess): Promise<number> {
  try {
    const text = await (await fetch(`${p.url}/metrics`, { headers: { authorization: 'Bearer lifecycle-metrics-token-0123' } })).text();
    return Number(/^grc_ingest_rows_total (\d+)/m.exec(text)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

const pgUrl = await reachablePostgres();
const procs: ServerProcess[] = [];
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'grc-lifecycle-'));
let db: TestDatabase;

beforeAll(async () => {
  if (pgUrl) db = await freshDatabase(pgUrl);
});
afterAll(async () => {
  for (const p of procs) p.child.kill('SIGKILL');
  await Promise.all(procs.map((p) => p.exited));
  await db?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

function env(extra: Record<string, string> = {}): Record<string, string> {
  return {
    DATABASE_URL: db.url!,
    DATA_DIR: dataDir,
    ADMIN_PASSWORD: 'Life#Cycle1',
    LOG_LEVEL: 'info',
    JOB_POLL_SECONDS: '0.5',
    SHUTDOWN_DRAIN_SECONDS: '1.5',
    UPLOAD_STALE_SECONDS: '3',
    METRICS_TOKEN: 'lifecycle-metrics-token-0123',
    ...extra,
  };
}

async function start(extra?: Record<string, string>): Promise<ServerProcess> {
  const p = spawnServer(env(extra), await freePort());
  procs.push(p);
  return p;
}

/** A POST whose body is sent in two halves, the second when `finish()` is called. */
function slowLogin(p: ServerProcess) {
  const body = JSON.stringify({ email: 'admin@example.com', password: 'Life#Cycle2' });
  const req = http.request(`${p.url}/api/internal-login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
  });
  const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, body: text }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
  req.write(body.slice(0, 10));
  return { response, finish: () => req.end(body.slice(10)) };
}

describe.runIf(pgUrl)('instances as processes on PostgreSQL', () => {
  let servers: ServerProcess[] = [];

  it('three instances started at once on an empty database migrate exactly once and all come up', async () => {
    servers = await Promise.all([start(), start(), start()]);
    await Promise.all(servers.map((s) => waitReady(s)));
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    try {
      const rows = (await c.query('SELECT migration_name, count(*)::int AS n FROM "_prisma_migrations" GROUP BY 1')).rows;
      expect(rows.length).toBe(readMigrations().length);
      expect(rows.every((r) => r.n === 1)).toBe(true);
      expect((await c.query('SELECT count(*)::int AS n FROM users')).rows[0].n).toBe(1);
    } finally {
      await c.end();
    }
    const created = servers.filter((s) => /created the first administrator/.test(s.output()));
    expect(created).toHaveLength(1);
    for (const s of servers) expect(s.output()).not.toMatch(/deadlock|start failed/);
  }, 180_000);

  it('on SIGTERM: /readyz 503 first, a running request finishes, WebSockets close with 1012, exit 0 in time', async () => {
    const [a, b] = servers;
    const admin = new Client(a!.url);
    await admin.login('admin@example.com', 'Life#Cycle1');
    expect((await admin.put('/api/internal/change-password', { currentPassword: 'Life#Cycle1', newPassword: 'Life#Cycle2' })).status).toBe(200);

    let closeCode = 0;
    const ws = wsClient(a!.url, admin.cookieHeader);
    ws.on('closed', (e) => (closeCode = (e as { code: number }).code));
    const sub = new Promise<unknown>((resolve) =>
      ws.subscribe({ query: 'subscription { viewerSessionEnded }' }, { next: () => {}, error: resolve, complete: () => resolve('complete') }),
    );
    await new Promise<void>((resolve) => ws.on('connected', () => resolve()));

    const slow = slowLogin(a!);
    await new Promise((r) => setTimeout(r, 300));
    const sentAt = Date.now();
    a!.child.kill('SIGTERM');
    // /readyz turns 503 while the instance still answers.
    let ready = 200;
    for (let i = 0; i < 20 && ready === 200; i++) {
      ready = (await fetch(`${a!.url}/readyz`)).status;
      if (ready === 200) await new Promise((r) => setTimeout(r, 50));
    }
    expect(ready).toBe(503);
    expect((await fetch(`${b!.url}/readyz`)).status).toBe(200);
    slow.finish();
    const res = await slow.response;
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).user.email).toBe('admin@example.com');

    await sub;
    expect(closeCode).toBe(1012);
    expect(await a!.exited).toBe(0);
    expect(Date.now() - sentAt).toBeLessThan(10_000);
    expect(a!.output()).toMatch(/SIGTERM: shutting down/);
    await ws.dispose();
  }, 60_000);

  it('exits within SHUTDOWN_TIMEOUT_SECONDS when a client never finishes its request', async () => {
    const c = await start({ SHUTDOWN_TIMEOUT_SECONDS: '3', SHUTDOWN_DRAIN_SECONDS: '0.5' });
    await waitReady(c);
    const slow = slowLogin(c);
    slow.response.catch(() => {});
    await new Promise((r) => setTimeout(r, 300));
    const sentAt = Date.now();
    c.child.kill('SIGTERM');
    const code = await c.exited;
    expect(code).not.toBeNull();
    expect(Date.now() - sentAt).toBeLessThan(4_000);
  }, 120_000);

  it('an instance killed (SIGKILL) mid-load: another fails the upload within UPLOAD_STALE_SECONDS, and Retry there loads it', async () => {
    const [, b, c] = servers;
    const admin = new Client(b!.url);
    expect((await admin.login('admin@example.com', 'Life#Cycle2')).status).toBe(200);
    const file = path.join(dataDir, 'kill.csv');
    writeCsv(file, 80000, { seed: 91 });
    const form = new FormData();
    form.append('batchSize', '5000');
    form.append('emailNotification', 'false');
    form.append('file', await fs.openAsBlob(file), 'kill.csv');
    const res = await fetch(`${b!.url}/api/upload`, { method: 'POST', body: form, headers: { cookie: admin.cookieHeader } });
    const { uploadId } = (await res.json()) as { uploadId: string };
    // The instance that loads it is the one whose ingested-rows counter moves.
    let loader: ServerProcess | undefined;
    const deadline = Date.now() + 60_000;
    while (!loader) {
      for (const p of [b!, c!]) if ((await ingestedRows(p)) > 0) loader = p;
      if (Date.now() > deadline) throw new Error('no instance started loading');
      if (!loader) await new Promise((r) => setTimeout(r, 50));
    }
    const status = (await admin.get(`/api/upload-status/${uploadId}`)).body;
    expect(status.status).toBe('processing');
    loader.child.kill('SIGKILL');
    await loader.exited;
    const killedAt = Date.now();
    const survivor = loader === b ? c! : b!;
    const onSurvivor = new Client(survivor.url);
    expect((await onSurvivor.login('admin@example.com', 'Life#Cycle2')).status).toBe(200);
    let s: any;
    do {
      s = (await onSurvivor.get(`/api/upload-status/${uploadId}`)).body;
      if (s.status !== 'processing') break;
      await new Promise((r) => setTimeout(r, 200));
    } while (Date.now() - killedAt < 30_000);
    expect(s.status).toBe('failed');
    expect(s.errorMessage).toMatch(/^The upload was interrupted/);
    // Within the staleness limit and the reaper's period (at least 5 s), with start-up slack.
    expect(Date.now() - killedAt).toBeLessThan(15_000);
    expect((await onSurvivor.post(`/api/uploads/${uploadId}/retry`)).status).toBe(202);
    do {
      s = (await onSurvivor.get(`/api/upload-status/${uploadId}`)).body;
      if (s.status !== 'processing') break;
      await new Promise((r) => setTimeout(r, 250));
    } while (Date.now() - killedAt < 120_000);
    expect(s).toMatchObject({ status: 'completed', recordCount: 80000 });
  }, 240_000);

  it('a start that cannot succeed says why in one line and exits 1', async () => {
    const bad = new URL(db.url!);
    bad.pathname = '/grc_no_such_database';
    const p = await start({ DATABASE_URL: bad.toString() });
    expect(await p.exited).toBe(1);
    const lines = p.stderr().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\[grc\] start failed: .*grc_no_such_database/);
  }, 60_000);
});
