// npm run bench:load -- [--rows 1000000] [--reviewers 200] [--admins 20] [--seconds 60] [--skip-kill] [--compare-chain]
// Two server processes on a fresh PostgreSQL database with Redis between them
// (as in docker-compose.yml, without the load balancer: each simulated user
// has a home instance and fails over to the other on a connection error).
// Loads a generated export, then for --seconds: every reviewer, with its own
// session over HTTP and graphql-ws, pages its queue, searches, saves a single
// and a batch decision, submits and recalls; every administrator watches
// Reviewer Status and the dashboard; in the middle a notification goes to
// everyone. Afterwards the database is compared with every acknowledged
// decision (lost, doubled, wrong value) and p50/p95/p99 per operation and the
// notification's delivery p95 are printed. Then the same again with one
// instance killed (SIGKILL) half way (unless --skip-kill).
// --compare-chain: the steady phase three times, the audit trail's hash chain
// on, off (its triggers disabled and its check dropped, as before the chain
// existed) and on again, and the decision saves' p95 of each side by side:
// what chaining costs a save, measured in one run on the same data.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import WebSocket from 'ws';
import { createClient } from 'graphql-ws';
import { writeCsv } from './gen-data.js';
import { arg, percentile } from './cli.js';
import { switchAuditChain } from './audit-chain-switch.js';
import { freePort, spawnServer, waitReady, type ServerProcess } from '../api/test/helpers/process.js';

const rows = Number(arg('rows', '1000000'));
const reviewers = Number(arg('reviewers', '200'));
const admins = Number(arg('admins', '20'));
const seconds = Number(arg('seconds', '60'));
const pgUrl = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

const file = path.resolve(`data/bench-${rows}.csv`);
if (!fs.existsSync(file)) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  writeCsv(file, rows);
}
const dbName = `grc_bench_load_${Date.now()}`;
const root = new pg.Client({ connectionString: pgUrl });
await root.connect();
await root.query(`CREATE DATABASE ${dbName}`);
const dbUrl = new URL(pgUrl);
dbUrl.pathname = `/${dbName}`;
const sql = new pg.Client({ connectionString: dbUrl.toString() });
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'grc-bench-load-'));
const env = {
  DATABASE_URL: dbUrl.toString(),
  REDIS_URL: redisUrl,
  DATA_DIR: dataDir,
  APP_SECRET: 'bench-load-secret-0123456789',
  ADMIN_PASSWORD: 'Bench#Load1',
  LOG_LEVEL: 'warn',
  JOB_POLL_SECONDS: '0.5',
  EXPORT_RATE_PER_MINUTE: '1000',
};
const servers: ServerProcess[] = [];
async function cleanup() {
  for (const s of servers) s.child.kill('SIGKILL');
  await Promise.all(servers.map((s) => s.exited));
  await sql.end().catch(() => {});
  await root.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => {});
  await root.end();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

// ---------------------------------------------------------------- clients
class User {
  cookie = '';
  home = 0;
  constructor(readonly urls: () => string[]) {}
  get url() {
    const u = this.urls();
    return u[this.home % u.length]!;
  }
  /**
   * One call; on a connection error (instance gone) the user moves to the other instance and tries once more.
   * `failedOver`: the call was sent again after a connection error (the first may have been carried out).
   */
  async call(method: string, p: string, body?: unknown): Promise<{ status: number; json: any; failedOver?: boolean }> {
    for (let attempt = 0; ; attempt++) {
      try {
        const res = await fetch(this.url + p, {
          method,
          headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(this.cookie ? { cookie: this.cookie } : {}) },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const set = res.headers.getSetCookie()[0];
        if (set) this.cookie = set.split(';')[0]!;
        const text = await res.text();
        return { status: res.status, json: text ? JSON.parse(text) : null, failedOver: attempt > 0 };
      } catch (err) {
        if (attempt >= 2) throw err;
        failovers++;
        this.home++;
      }
    }
  }
}

let failovers = 0;
const timings = new Map<string, number[]>();
const failures = new Map<string, number>();
async function op<T>(
  name: string,
  fn: () => Promise<{ status: number; json: T; failedOver?: boolean }>,
  ok = (r: { status: number; failedOver?: boolean }) => r.status < 300,
): Promise<T | undefined> {
  const t = performance.now();
  try {
    const r = await fn();
    if (!ok(r)) {
      failures.set(
        `${name} ${r.status} ${JSON.stringify(r.json).slice(0, 120)}`,
        (failures.get(`${name} ${r.status} ${JSON.stringify(r.json).slice(0, 120)}`) ?? 0) + 1,
      );
      return undefined;
    }
    (timings.get(name) ?? timings.set(name, []).get(name)!).push(performance.now() - t);
    return r.json;
  } catch (err) {
    failures.set(`${name} ${(err as Error).message}`, (failures.get(`${name} ${(err as Error).message}`) ?? 0) + 1);
    return undefined;
  }
}

// ---------------------------------------------------------------- set-up
for (let i = 0; i < 2; i++) servers.push(spawnServer(env, await freePort()));
await Promise.all(servers.map((s) => waitReady(s, 180_000)));
let alive = [...servers];
const urls = () => alive.map((s) => s.url);
await sql.connect();
await sql.query('UPDATE users SET password_reset_required = false');
const admin = new User(urls);
await admin.call('POST', '/api/internal-login', { email: 'admin@example.com', password: 'Bench#Load1' });

console.log(`loading ${rows.toLocaleString('en-US')} rows…`);
{
  const form = new FormData();
  form.append('emailNotification', 'false');
  form.append('file', await fs.openAsBlob(file), path.basename(file));
  const up = (await (await fetch(admin.url + '/api/upload', { method: 'POST', body: form, headers: { cookie: admin.cookie } })).json()) as { uploadId: string };
  for (;;) {
    const s = (await admin.call('GET', `/api/upload-status/${up.uploadId}`)).json as { status: string; errorMessage?: string };
    if (s.status === 'failed') throw new Error(`load failed: ${s.errorMessage}`);
    if (s.status !== 'processing') break;
    await new Promise((r) => setTimeout(r, 1000));
  }
  await sql.query('VACUUM ANALYZE');
}
function must(r: { status: number; json: any }) {
  if (r.status >= 300) throw new Error(`set-up call refused: ${r.status} ${JSON.stringify(r.json)}`);
  return r;
}
const period = must(await admin.call('POST', '/api/review-periods', { name: 'Load test' })).json as { id: string };
const groups = (await sql.query<{ g: string }>('SELECT DISTINCT user_group AS g FROM risk_rows ORDER BY 1')).rows.map((r) => r.g);
const reviewerUsers: { user: User; id: string; email: string }[] = [];
for (let i = 0; i < reviewers; i++) {
  const email = `load${i}@bench.example`;
  const created = must(await admin.call('POST', '/api/users', { email, firstName: 'Load', lastName: String(i), role: 'reviewer', password: 'Load#Pass1' }));
  const id = (created.json as { user: { id: string } }).user.id;
  must(await admin.call('POST', '/api/assignment-criteria', { reviewerId: id, criteriaType: 'user_group', criteriaValue: groups[i % groups.length] }));
  reviewerUsers.push({ user: new User(urls), id, email });
}
const adminUsers: User[] = [];
for (let i = 0; i < admins; i++) {
  const email = `watch${i}@bench.example`;
  await admin.call('POST', '/api/users', { email, firstName: 'Watch', lastName: String(i), role: 'admin', password: 'Watch#Pass1' });
  adminUsers.push(new User(urls));
}
await sql.query('UPDATE users SET password_reset_required = false');
for (const [i, r] of reviewerUsers.entries()) {
  r.user.home = i;
  await r.user.call('POST', '/api/internal-login', { email: r.email, password: 'Load#Pass1' });
}
for (const [i, a] of adminUsers.entries()) {
  a.home = i;
  await a.call('POST', '/api/internal-login', { email: `watch${i}@bench.example`, password: 'Watch#Pass1' });
}

// ---------------------------------------------------------------- one phase
/** The last acknowledged decision per reviewer and row: what the database must hold afterwards. */
const acknowledged = new Map<string, string>();

async function phase(name: string, killAtSeconds?: number) {
  timings.clear();
  failures.clear();
  failovers = 0;
  const deliveries: number[] = [];
  let sentAt = 0;
  const sockets = reviewerUsers.map((r, i) => {
    let turn = i;
    const client = createClient({
      url: () => urls()[turn++ % urls().length]!.replace('http', 'ws') + '/graphql',
      retryAttempts: Infinity,
      retryWait: () => new Promise((res) => setTimeout(res, 300)),
      webSocketImpl: class extends WebSocket {
        constructor(address: string, protocols?: string | string[]) {
          super(address, protocols, { headers: { cookie: r.user.cookie } });
        }
      },
    });
    client.subscribe(
      { query: 'subscription BenchLoadNotifications { notificationAdded { id title } }' },
      {
        next: (v: any) => v.data?.notificationAdded?.title === `notice ${name}` && deliveries.push(performance.now() - sentAt),
        error: () => {},
        complete: () => {},
      },
    );
    return client;
  });
  await new Promise((r) => setTimeout(r, 2000));
  const end = Date.now() + seconds * 1000;
  const reviewerLoop = async ({ user, id }: (typeof reviewerUsers)[number], i: number) => {
    let page = 1;
    while (Date.now() < end) {
      const q = await op('queue page', () => user.call('GET', `/api/assigned-risks?page=${page}&limit=50`));
      const list = ((q as { risks?: { id: number }[] } | undefined)?.risks ?? []).map((x) => x.id);
      page = list.length === 50 && page < 20 ? page + 1 : 1;
      await op('search', () => user.call('GET', `/api/assigned-risks?search=${encodeURIComponent(['SAP', 'FI', 'Admin', 'HR'][i % 4]!)}&limit=50`));
      if (!list.length) continue;
      const one = list[Math.floor(Math.random() * list.length)]!;
      const value = Math.random() < 0.5 ? 'retain' : 'remove';
      if (await op('save decision', () => user.call('POST', '/api/reviews/decision', { riskDefinitionId: one, decision: value })))
        acknowledged.set(`${id}:${one}`, value);
      const batch = list.slice(0, 5);
      const batchValue = Math.random() < 0.5 ? 'retain' : 'remove';
      if (
        await op('save batch (5)', () =>
          user.call('POST', '/api/reviews/decisions', { decisions: batch.map((b) => ({ riskDefinitionId: b, decision: batchValue })) }),
        )
      ) {
        for (const b of batch) acknowledged.set(`${id}:${b}`, batchValue);
      }
      // Sent again after a connection error, a submit or recall the lost instance had carried out is refused as done already.
      const doneBefore = (r: { status: number; failedOver?: boolean }) => r.status < 300 || (r.status === 409 && Boolean(r.failedOver));
      await op('submit', () => user.call('POST', '/api/reviews/submit', {}), doneBefore);
      await op('recall', () => user.call('POST', '/api/reviews/recall', {}), doneBefore);
    }
  };
  const adminLoop = async (a: User) => {
    while (Date.now() < end) {
      await op('reviewer status', () => a.call('GET', '/api/reviewer-status'));
      await op('dashboard', () => a.call('GET', '/api/dashboard/stats'));
    }
  };
  const middle = (async () => {
    await new Promise((r) => setTimeout(r, (seconds * 1000) / 2 - (killAtSeconds !== undefined ? 2000 : 0)));
    sentAt = performance.now();
    await op('send notification', () => admin.call('POST', '/api/notifications', { title: `notice ${name}`, message: 'to everyone', targetType: 'all' }));
  })();
  const killer = (async () => {
    if (killAtSeconds === undefined) return;
    await new Promise((r) => setTimeout(r, killAtSeconds * 1000));
    const victim = alive[1]!;
    alive = alive.filter((s) => s !== victim);
    victim.child.kill('SIGKILL');
    console.log(`  killed the instance on port ${victim.port} at ${killAtSeconds} s`);
  })();
  const started = Date.now();
  await Promise.all([...reviewerUsers.map(reviewerLoop), ...adminUsers.map(adminLoop), middle, killer]);
  const elapsed = (Date.now() - started) / 1000;
  await new Promise((r) => setTimeout(r, 2000));
  await Promise.all(sockets.map((s) => s.dispose()));

  // Every acknowledged write against the database.
  const { rows: stored } = await sql.query<{ reviewer_id: string; risk_row_id: string; decision: string; n: number }>(
    'SELECT reviewer_id, risk_row_id, decision::text AS decision, count(*) OVER (PARTITION BY reviewer_id, risk_row_id)::int AS n FROM decisions WHERE period_id = $1',
    [period.id],
  );
  const inDb = new Map(stored.map((s) => [`${s.reviewer_id}:${s.risk_row_id}`, s]));
  let lost = 0;
  let wrong = 0;
  for (const [key, value] of acknowledged) {
    const s = inDb.get(key);
    if (!s) lost++;
    else if (s.decision !== value) wrong++;
  }
  const doubled = stored.filter((s) => s.n > 1).length;
  const errors = [...failures.values()].reduce((a, b) => a + b, 0);

  console.log(
    `\n${name}: ${reviewers} reviewers, ${admins} administrators, 2 instances${killAtSeconds !== undefined ? `, one killed at ${killAtSeconds} s` : ''}, ${elapsed.toFixed(0)} s`,
  );
  console.log('operation            count     p50 ms   p95 ms   p99 ms');
  for (const [k, v] of [...timings].sort()) {
    console.log(
      `${k.padEnd(20)} ${String(v.length).padStart(6)}   ${percentile(v, 50).toFixed(0).padStart(6)}   ${percentile(v, 95).toFixed(0).padStart(6)}   ${percentile(v, 99).toFixed(0).padStart(6)}`,
    );
  }
  console.log(`notification delivered to ${deliveries.length}/${reviewers} open subscriptions, p95 ${percentile(deliveries, 95).toFixed(0)} ms`);
  console.log(
    `acknowledged decisions ${acknowledged.size}: lost ${lost}, doubled ${doubled}, wrong value ${wrong}; errors ${errors}; connection failovers ${failovers}`,
  );
  for (const [k, n] of failures) console.log(`  error x${n}: ${k}`);
  // What the servers logged as errors (a 500's cause), each distinct message once.
  const logged = new Map<string, number>();
  for (const s of servers) {
    for (const line of s.output().split('\n')) {
      const m = /"level":(\d+).*?"msg":"((?:[^"\\]|\\.){0,240})/.exec(line);
      if (m && Number(m[1]) >= 50) logged.set(m[2]!, (logged.get(m[2]!) ?? 0) + 1);
      else if (/unexpected|Error:/.test(line) && !line.startsWith('{')) logged.set(line.slice(0, 240), (logged.get(line.slice(0, 240)) ?? 0) + 1);
    }
  }
  for (const [msg, n] of logged) console.log(`  server logged x${n}: ${msg}`);
  return lost + doubled + wrong + errors;
}

const saveP95s: string[] = [];
function noteSaves(name: string) {
  const one = timings.get('save decision') ?? [];
  const batch = timings.get('save batch (5)') ?? [];
  saveP95s.push(
    `${name.padEnd(30)} save decision p95 ${percentile(one, 95).toFixed(0).padStart(5)} ms (${one.length}), save batch (5) p95 ${percentile(batch, 95).toFixed(0).padStart(5)} ms (${batch.length})`,
  );
}

let bad = 0;
try {
  bad += await phase('steady');
  if (process.argv.includes('--compare-chain')) {
    noteSaves('audit chain on (cold)');
    await switchAuditChain(sql, false);
    bad += await phase('steady, audit chain off');
    noteSaves('audit chain off');
    await switchAuditChain(sql, true);
    bad += await phase('steady, audit chain on again');
    noteSaves('audit chain on again');
    console.log(
      `\ndecision saves with and without the audit chain (load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}):`,
    );
    for (const line of saveP95s) console.log(`  ${line}`);
  }
  if (!process.argv.includes('--skip-kill')) bad += await phase('instance killed', seconds / 2);
} finally {
  await cleanup();
}
process.exit(bad ? 1 : 0);
