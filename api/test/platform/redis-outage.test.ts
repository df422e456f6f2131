// Redis, the event fan-out between instances, goes away under running
// instances and comes back: every request keeps working (a notification, a
// saved decision, a sign-out, a deactivation all publish an event), the
// process stays up, an instance can start while Redis is down, /readyz says
// that live events are paused, and once Redis is back a live event published
// on one instance reaches a browser on the other without a restart. The test
// runs its own redis-server on a free port (skipped, saying so, where there
// is none); the instances are real processes. On PostgreSQL both instances
// share one database; on the embedded database each has its own, and the
// event goes from an instance to a browser on the same one, through Redis.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { freshDatabase, onPostgres, type TestDatabase } from '../helpers/db.js';
import { freePort, spawnServer, waitReady, type ServerProcess } from '../helpers/process.js';
import { wsClient } from '../helpers/ws.js';
import { Client } from '../helpers/server.js';

function which(cmd: string): string | undefined {
  try {
    return execFileSync('which', [cmd], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}
const redisServer = which('redis-server');
if (!redisServer) console.warn('redis-outage.test.ts: skipped, no redis-server on this machine');

const procs: ServerProcess[] = [];
const dirs: string[] = [];
let redis: ChildProcess | undefined;
let db: TestDatabase | undefined;

afterAll(async () => {
  for (const p of procs) p.child.kill('SIGKILL');
  await Promise.all(procs.map((p) => p.exited));
  redis?.kill('SIGKILL');
  await db?.drop();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

/** A redis-server of this test's own on `port` (no persistence), once it answers PING. */
async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn(redisServer!, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const probe = new Redis(port, '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => {});
  try {
    for (const deadline = Date.now() + 15_000; ; await new Promise((r) => setTimeout(r, 100))) {
      try {
        if (probe.status !== 'ready') await probe.connect();
        if ((await probe.ping()) === 'PONG') return child;
      } catch {
        if (Date.now() > deadline) throw new Error('redis-server did not start');
      }
    }
  } finally {
    probe.disconnect();
  }
}

async function stopRedis(child: ChildProcess) {
  const gone = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await gone;
}

const PASSWORD = 'Outage#Pass2';

/** Signs in as the first administrator, changing the initial password the first time. */
async function admin(url: string): Promise<Client> {
  const c = new Client(url);
  if ((await c.login('admin@example.com', PASSWORD)).status === 200) return c;
  expect((await c.login('admin@example.com', 'Outage#Pass1')).status).toBe(200);
  expect((await c.put('/api/internal/change-password', { currentPassword: 'Outage#Pass1', newPassword: PASSWORD })).status).toBe(200);
  return c;
}

let n = 0;
/** A new reviewer, signed in with a changed password. */
async function reviewer(url: string, adm: Client): Promise<{ client: Client; id: string }> {
  const email = `outage${++n}@example.com`;
  const created = await adm.post('/api/users', { email, firstName: 'Out', lastName: `Age ${n}`, role: 'reviewer', password: 'Start#123' });
  expect(created.status).toBe(201);
  const client = new Client(url);
  expect((await client.login(email, 'Start#123')).status).toBe(200);
  expect((await client.put('/api/internal/change-password', { currentPassword: 'Start#123', newPassword: 'Changed#456' })).status).toBe(200);
  return { client, id: created.body.user.id };
}

async function start(env: Record<string, string>): Promise<ServerProcess> {
  const p = spawnServer(env, await freePort());
  procs.push(p);
  await waitReady(p);
  return p;
}

/** Waits until `p` has written `text` (fails at once when the process is gone). */
async function logged(p: ServerProcess, text: string) {
  let code: number | null | undefined;
  void p.exited.then((c) => (code = c));
  for (const deadline = Date.now() + 60_000; !p.output().includes(text); await new Promise((r) => setTimeout(r, 100))) {
    if (code !== undefined) throw new Error(`the instance exited (${code}) during the outage: ${p.output().slice(-1500)}`);
    if (Date.now() > deadline) throw new Error(`'${text}' was never logged: ${p.output().slice(-1500)}`);
  }
}

async function readyz(p: ServerProcess) {
  const res = await fetch(`${p.url}/readyz`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function untilReadyz(p: ServerProcess, check: (b: Record<string, unknown>) => boolean) {
  for (const deadline = Date.now() + 30_000; ; await new Promise((r) => setTimeout(r, 100))) {
    const r = await readyz(p);
    if (check(r.body)) return r;
    if (Date.now() > deadline) throw new Error(`/readyz: ${JSON.stringify(r.body)}`);
  }
}

const CSV =
  'User ID,User Name,Access Risk ID,Risk Description,Risk Level,Rule ID,System,Role/Profile\r\nU1,Alice Jones,R01,Pay vendors,High,0301,SAP ERP,Z_AP_CLERK\r\n';

describe.runIf(redisServer)('a Redis outage under running instances', () => {
  it('keeps requests and processes up, reports Redis degraded, and delivers live events again once Redis is back', async () => {
    const redisPort = await freePort();
    redis = await startRedis(redisPort);
    const redisUrl = `redis://127.0.0.1:${redisPort}`;
    db = onPostgres ? await freshDatabase() : undefined;
    const env = () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'grc-redis-outage-'));
      dirs.push(dataDir);
      return {
        DATA_DIR: dataDir,
        DATABASE_URL: db?.url ?? '',
        REDIS_URL: redisUrl,
        ADMIN_PASSWORD: 'Outage#Pass1',
        LOG_LEVEL: 'warn',
        JOB_POLL_SECONDS: '0.5',
      };
    };

    const a = await start(env());
    expect((await readyz(a)).body).toMatchObject({ status: 'ready', events: 'connected' });
    const adminA = await admin(a.url);
    // Something to decide on: one row, an open period, assigned to a reviewer.
    const form = new FormData();
    form.append('emailNotification', 'false');
    form.append('file', new Blob([CSV]), 'export.csv');
    const { uploadId } = (await (await fetch(`${a.url}/api/upload`, { method: 'POST', body: form, headers: { cookie: adminA.cookieHeader } })).json()) as {
      uploadId: string;
    };
    for (const deadline = Date.now() + 60_000; ; await new Promise((r) => setTimeout(r, 200))) {
      const s = (await adminA.get(`/api/upload-status/${uploadId}`)).body;
      if (s.status === 'completed') break;
      if (s.status === 'failed' || Date.now() > deadline) throw new Error(JSON.stringify(s));
    }
    expect((await adminA.post('/api/review-periods', { name: 'Outage period' })).status).toBe(201);
    const rev = await reviewer(a.url, adminA);
    expect((await adminA.post('/api/assignment-criteria', { reviewerId: rev.id, criteriaType: 'user_id', criteriaValue: 'U1' })).status).toBe(201);
    const leaving = await reviewer(a.url, adminA);
    const risk = (await rev.client.get('/api/assigned-risks')).body.risks[0];

    // Redis goes away.
    await stopRedis(redis);
    const degraded = await untilReadyz(a, (b) => b.status === 'degraded');
    expect(degraded.status).toBe(200);
    expect(degraded.body).toMatchObject({ status: 'degraded', events: 'unavailable', degraded: ['redis'] });
    expect(String(degraded.body.message)).toMatch(/Redis cannot be reached/);

    // Each of these publishes an event: each answers, and the process stays up after the publish failed.
    const sent = await adminA.post('/api/notifications', { title: 'During the outage', message: 'Still here', type: 'info', targetType: 'all' });
    expect(sent.status).toBe(201);
    expect((await rev.client.post('/api/reviews/decision', { riskDefinitionId: risk.id, decision: 'remove' })).status).toBe(200);
    expect((await leaving.client.post('/api/logout')).status).toBe(200);
    await logged(a, 'Redis publish on notification:added failed');
    await logged(a, 'Redis publish on dashboard:changed failed');
    expect((await rev.client.get('/api/assigned-risks')).body.risks[0]).toMatchObject({ id: risk.id, decision: 'remove' });
    expect((await adminA.get('/api/notifications?admin=true')).body.notifications[0]).toMatchObject({ title: 'During the outage' });

    // An instance started while Redis is down comes up, serves, and stays up after publishing.
    const b = await start(env());
    expect((await readyz(b)).body).toMatchObject({ status: 'degraded', degraded: ['redis'] });
    const adminB = await admin(b.url);
    expect((await adminB.post('/api/notifications', { title: 'From B', message: 'Started without Redis', type: 'info', targetType: 'all' })).status).toBe(201);
    await logged(b, 'Redis publish on notification:added failed');
    expect((await adminB.get('/api/users')).status).toBe(200);

    // A browser subscribes while Redis is still down (on the other instance, where both share a database).
    const watcher = await reviewer(a.url, adminA);
    const viewer = onPostgres ? b : a;
    const ws = wsClient(viewer.url, watcher.client.cookieHeader);
    const ended = new Promise<unknown>((resolve, reject) =>
      ws.subscribe({ query: 'subscription { viewerSessionEnded }' }, { next: resolve, error: reject, complete: () => {} }),
    );

    // Redis comes back on the same address: both instances reconnect by themselves.
    redis = await startRedis(redisPort);
    for (const p of [a, b]) expect((await untilReadyz(p, (r) => r.status === 'ready')).body).toMatchObject({ status: 'ready', events: 'connected' });
    // The subscription made during the outage reaches Redis once it is back.
    const probe = new Redis(redisPort, '127.0.0.1');
    try {
      for (const deadline = Date.now() + 30_000; ; await new Promise((r) => setTimeout(r, 100))) {
        const [, count] = (await probe.pubsub('NUMSUB', `session:ended:${watcher.id}`)) as [string, number];
        if (Number(count) >= 1) break;
        if (Date.now() > deadline) throw new Error('the subscription never reached Redis');
      }
    } finally {
      probe.disconnect();
    }
    expect((await adminA.put(`/api/users/${watcher.id}/deactivate`)).status).toBe(200);
    expect(await ended).toEqual({ data: { viewerSessionEnded: 'deactivated' } });
    await ws.dispose();
    expect(a.child.exitCode).toBeNull();
    expect(b.child.exitCode).toBeNull();
  }, 240_000);
});
