// npm run bench:review -- --rows 1000000 [--reviewers 50] [--runs 40] [--stages 1|2|3] [--saves 300]
//                         [--compare-chain] [--keep-db] [--reuse-db NAME]
// Loads a generated export through the upload path into a fresh PostgreSQL
// database, gives 50 reviewers criteria, then times over HTTP the admin risk
// queue (page 1, filtered, searched, a deep page reached with Next, the last
// page) and a reviewer's assigned risks, and prints p50 / p95 beside the same
// statements run directly in SQL, with the ratio. 'The same statements' are
// recorded from the pg driver while one request runs (the session lookup
// included) and replayed one after another on a separate connection. Then
// Reviewer Status for all reviewers (cold, after a data change, and warm) and
// a notification's delivery to every reviewer's open subscription.
// Everything is read during an active review period of --stages stages (the
// later ones reviewed by named reviewers, every decision passed on). Then one
// reviewer saves --saves decisions one at a time, timed over HTTP with the CPU
// each save cost this process (server and client) and PostgreSQL; with
// --compare-chain the saves run in six alternating blocks with the audit
// trail's hash chain on and off, so the machine's drift falls on both.
// --keep-db keeps the loaded database (its name is printed); --reuse-db NAME
// skips the load and uses it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadConfig } from '../api/src/config.js';
import { createApp } from '../api/src/app.js';
import { writeCsv } from './gen-data.js';
import { arg, percentile as pct } from './cli.js';
import { switchAuditChain } from './audit-chain-switch.js';
import { loadAverage, postgresCpuSeconds } from './proc-stats.js';
import { until, wsClient } from '../api/test/helpers/ws.js';
import { hashPassword } from '../api/src/auth/passwords.js';

const rows = Number(arg('rows', '1000000'));
const reviewers = Number(arg('reviewers', '50'));
const runs = Number(arg('runs', '40'));
const stageCount = Number(arg('stages', '1'));
const saves = Number(arg('saves', '300'));
const compareChain = process.argv.includes('--compare-chain');
if (![1, 2, 3].includes(stageCount) || !(saves >= 6)) {
  console.error('usage: bench-review --rows N [--reviewers N] [--runs N] [--stages 1|2|3] [--saves N>=6] [--compare-chain] [--keep-db] [--reuse-db NAME]');
  process.exit(2);
}
const pgUrl = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

const file = path.resolve(`data/bench-${rows}.csv`);
if (!fs.existsSync(file)) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  writeCsv(file, rows);
}
const reuse = process.argv.includes('--reuse-db') ? arg('reuse-db', '') : '';
const keep = process.argv.includes('--keep-db') || Boolean(reuse);
const dbName = reuse || `grc_bench_review_${Date.now()}`;
const admin = new pg.Client({ connectionString: pgUrl });
await admin.connect();
if (!reuse) await admin.query(`CREATE DATABASE ${dbName}`);
const u = new URL(pgUrl);
u.pathname = `/${dbName}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'grc-bench-review-'));
const config = loadConfig({
  DATABASE_URL: u.toString(),
  DATA_DIR: dataDir,
  LOG_LEVEL: 'silent',
  ADMIN_PASSWORD: 'Bench#Pass1',
  JOB_POLL_SECONDS: '0.5',
  PORT: '0',
});
const app = await createApp(config);
await app.server.app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.server.app.server.address() as { port: number }).port}`;
const prisma = app.deps.prisma;
await prisma.user.updateMany({ data: { passwordResetRequired: false } });

async function login(email: string, password: string) {
  const r = await fetch(base + '/api/internal-login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  return r.headers.getSetCookie()[0]!.split(';')[0]!;
}
const adminCookie = await login('admin@example.com', 'Bench#Pass1');

if (!reuse) {
  console.log(`loading ${rows} rows…`);
  const form = new FormData();
  form.append('emailNotification', 'false');
  form.append('file', await fs.openAsBlob(file), path.basename(file));
  const up = (await (await fetch(base + '/api/upload', { method: 'POST', body: form, headers: { cookie: adminCookie } })).json()) as { uploadId: string };
  for (;;) {
    const s = (await (await fetch(base + `/api/upload-status/${up.uploadId}`, { headers: { cookie: adminCookie } })).json()) as { status: string };
    if (s.status !== 'processing') break;
    await new Promise((r) => setTimeout(r, 1000));
  }
  await app.deps.db.sql.query('VACUUM ANALYZE');
}

// 50 reviewers, each with a system, two user groups and five risk ids.
const hash = await hashPassword('Review#Pass1');
const systems = (await app.deps.db.sql.query<{ system: string }>('SELECT DISTINCT system FROM risk_rows')).map((r) => r.system);
const groups = (await app.deps.db.sql.query<{ g: string }>('SELECT DISTINCT user_group AS g FROM risk_rows')).map((r) => r.g);
const risks = (await app.deps.db.sql.query<{ r: string }>('SELECT DISTINCT access_risk_id AS r FROM risk_rows')).map((r) => r.r);
const users = [];
for (let i = 0; i < reviewers; i++) {
  const email = `rev${i}@bench.example`;
  if (reuse && (await prisma.user.findUnique({ where: { email } }))) continue;
  const user = await prisma.user.create({ data: { email, firstName: 'Rev', lastName: String(i), role: 'reviewer', passwordHash: hash } });
  users.push(user);
  const crit = [
    { criteriaType: 'system' as const, criteriaValue: systems[i % systems.length]! },
    { criteriaType: 'user_group' as const, criteriaValue: groups[i % groups.length]! },
    { criteriaType: 'user_group' as const, criteriaValue: groups[(i + 3) % groups.length]! },
    ...Array.from({ length: 5 }, (_, k) => ({ criteriaType: 'risk_id' as const, criteriaValue: risks[(i * 5 + k) % risks.length]! })),
  ];
  await prisma.assignmentCriteria.createMany({ data: crit.map((c) => ({ ...c, name: c.criteriaValue, reviewerId: user.id })), skipDuplicates: true });
}
const reviewerCookie = await login('rev7@bench.example', 'Review#Pass1');

// The active period, with its later stages (if any) reviewed by named reviewers.
{
  const named = await prisma.user.findMany({ where: { email: { in: ['rev0@bench.example', 'rev1@bench.example'] } }, select: { id: true } });
  const later = ['Risk owner', 'Compliance'].slice(0, stageCount - 1).map((name) => ({
    name,
    reviewers: { type: 'users', userIds: named.map((n) => n.id) },
    passOn: 'all',
  }));
  const body = { name: `Bench ${stageCount} stage(s)`, ...(later.length ? { stages: [{ name: 'Reviewer', reviewers: { type: 'criteria' } }, ...later] } : {}) };
  const r = await fetch(base + '/api/review-periods', {
    method: 'POST',
    headers: { cookie: adminCookie, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (r.status === 409) console.log('a review period is already active in this database: timed in it');
  else if (r.status !== 201) throw new Error(`period not created: ${r.status} ${await r.text()}`);
}

// A deep page as the page buttons reach it: Next from the page before (the
// cursor is that page's last row), and the last page, read from the end.
const deepPage = Math.floor(rows / 25 / 2);
const [edge] = await app.deps.db.sql.query<{ id: string }>(`SELECT id::text FROM risk_rows ORDER BY id OFFSET ${(deepPage - 1) * 25 - 1} LIMIT 1`);
const total = ((await (await fetch(base + '/api/risks?limit=25', { headers: { cookie: adminCookie } })).json()) as { total: number }).total;

const cases: [string, string, string][] = [
  ['admin queue, page 1', '/api/risks?page=1&limit=25', adminCookie],
  ['admin queue, filtered (system + level)', '/api/risks?page=1&limit=25&system=Workday&riskLevel=high', adminCookie],
  ['admin queue, searched', '/api/risks?page=1&limit=25&search=Martin', adminCookie],
  [`admin queue, deep page ${deepPage} (Next)`, `/api/risks?page=${deepPage}&limit=25&after=${edge!.id}`, adminCookie],
  ['admin queue, last page', `/api/risks?page=${Math.ceil(total / 25)}&limit=25`, adminCookie],
  ['reviewer assigned risks', '/api/assigned-risks?page=1&limit=25', reviewerCookie],
  ['reviewer assigned risks, searched', '/api/assigned-risks?page=1&limit=25&search=Martin', reviewerCookie],
];

// Records the statements the server's pg clients run during one request.
type Stmt = { text: string; values?: unknown[] };
let recording: Stmt[] | null = null;
const proto = pg.Client.prototype as unknown as { query: (...a: unknown[]) => unknown };
const original = proto.query;
proto.query = function (this: unknown, ...a: unknown[]) {
  if (recording) {
    const q = a[0] as string | { text: string; values?: unknown[] };
    if (typeof q === 'string') recording.push({ text: q, values: Array.isArray(a[1]) ? (a[1] as unknown[]) : undefined });
    else if (q && typeof q === 'object' && 'text' in q) recording.push({ text: q.text, values: q.values });
  }
  return original.apply(this, a);
};
const direct = new pg.Client({ connectionString: u.toString() });
await direct.connect();

console.log(`\n${total.toLocaleString('en-US')} live rows, ${reviewers} reviewers, ${runs} runs each, load average ${loadAverage()}`);
console.log(
  `${''.padEnd(44)} ${'HTTP p50'.padStart(9)} ${'HTTP p95'.padStart(9)} ${'SQL p50'.padStart(9)} ${'SQL p95'.padStart(9)} ${'ratio p95'.padStart(9)}  statements`,
);
for (const [label, url, cookie] of cases) {
  // Warm up (first count per data version, plans), then record one request.
  await (await fetch(base + url, { headers: { cookie } })).json();
  recording = [];
  await (await fetch(base + url, { headers: { cookie } })).json();
  const stmts = recording.filter((q) => !/^(BEGIN|COMMIT|ROLLBACK|SET|SHOW)/i.test(q.text.trim()));
  recording = null;
  const http: number[] = [];
  const sql: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    const r = await fetch(base + url, { headers: { cookie } });
    await r.json();
    http.push(performance.now() - t);
    const s0 = performance.now();
    for (const q of stmts) await direct.query(q.text, q.values as unknown[] | undefined);
    sql.push(performance.now() - s0);
  }
  const f = (n: number) => `${n.toFixed(0)} ms`.padStart(9);
  console.log(
    `${label.padEnd(44)} ${f(pct(http, 50))} ${f(pct(http, 95))} ${f(pct(sql, 50))} ${f(pct(sql, 95))} ${`${(pct(http, 95) / pct(sql, 95)).toFixed(1)}x`.padStart(9)}  ${stmts.length}`,
  );
}
proto.query = original;

// Reviewer Status counts every reviewer's assigned rows: cached per data
// version, so the first view after an upload (or any change to the rows)
// pays for all of them. 'cold' bumps the data version before each request.
const statusRuns = Math.max(3, Math.floor(runs / 8));
for (const cold of [true, false]) {
  const times: number[] = [];
  for (let i = 0; i < (cold ? statusRuns : runs); i++) {
    if (cold) await direct.query('UPDATE risk_data_version SET version = version + 1 WHERE id = 1');
    const t = performance.now();
    await (await fetch(base + '/api/reviewer-status', { headers: { cookie: adminCookie } })).json();
    times.push(performance.now() - t);
  }
  const f = (n: number) => `${n.toFixed(0)} ms`.padStart(9);
  console.log(`${`reviewer status, ${reviewers} reviewers${cold ? ', cold' : ''}`.padEnd(44)} ${f(pct(times, 50))} ${f(pct(times, 95))}`);
}
await direct.end();

// Decision saves, one at a time as the queue's buttons make them, on the
// reviewer's rows in order ('retain', then 'remove' once each row has one).
{
  const ids: number[] = [];
  for (let page = 1; ids.length < saves + saves / 6; page++) {
    const r = (await (await fetch(base + `/api/assigned-risks?page=${page}&limit=100`, { headers: { cookie: reviewerCookie } })).json()) as {
      risks: { id: number }[];
    };
    if (!r.risks.length) break;
    ids.push(...r.risks.map((d) => d.id));
  }
  const perBlock = Math.floor(saves / 6);
  const save = async (n: number) => {
    const r = await fetch(base + '/api/reviews/decision', {
      method: 'POST',
      headers: { cookie: reviewerCookie, 'content-type': 'application/json' },
      body: JSON.stringify({ riskDefinitionId: ids[n % ids.length], decision: Math.floor(n / ids.length) % 2 ? 'remove' : 'retain' }),
    });
    await r.arrayBuffer();
    if (!r.ok) throw new Error(`decision save refused: ${r.status}`);
  };
  // A block not counted first: the first saves compile and plan what the others reuse.
  for (let i = 0; i < perBlock; i++) await save(i);
  const states = new Map<string, { times: number[]; cpu: number; pgCpu: number }>();
  let n = 0;
  let chainOn = true;
  for (let block = 0; block < 6; block++) {
    const on = !compareChain || block % 2 === 0;
    const state = compareChain ? `audit chain ${on ? 'on' : 'off'}` : 'decision saves';
    if (on !== chainOn) await switchAuditChain(app.deps.db.sql, (chainOn = on));
    const acc = states.get(state) ?? { times: [], cpu: 0, pgCpu: 0 };
    states.set(state, acc);
    const cpu0 = process.cpuUsage();
    const pg0 = postgresCpuSeconds();
    for (let i = 0; i < perBlock; i++, n++) {
      const t = performance.now();
      await save(perBlock + n);
      acc.times.push(performance.now() - t);
    }
    const used = process.cpuUsage(cpu0);
    acc.cpu += (used.user + used.system) / 1e6;
    acc.pgCpu += postgresCpuSeconds() - pg0;
  }
  if (!chainOn) await switchAuditChain(app.deps.db.sql, true);
  const f = (v: number) => `${v.toFixed(0)} ms`.padStart(9);
  for (const [state, { times, cpu, pgCpu }] of states) {
    console.log(
      `${`${state} (${times.length}, ${stageCount} stage${stageCount > 1 ? 's' : ''})`.padEnd(44)} ${f(pct(times, 50))} ${f(pct(times, 95))}   ` +
        `CPU a save: this process ${((cpu / times.length) * 1000).toFixed(1)} ms, PostgreSQL ${((pgCpu / times.length) * 1000).toFixed(1)} ms`,
    );
  }
}

// Export Results over every row (the dashboard's risk report is the same
// export), beside PostgreSQL writing the same rows as CSV itself.
{
  const t = performance.now();
  const res = await fetch(base + '/api/risks/export', { headers: { cookie: adminCookie } });
  let bytes = 0;
  let lines = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    for (let i = 0; i < chunk.length; i++) if (chunk[i] === 10) lines++;
  }
  const http = (performance.now() - t) / 1000;
  const copyClient = new pg.Client({ connectionString: u.toString() });
  await copyClient.connect();
  const { to } = await import('pg-copy-streams');
  const c0 = performance.now();
  const out = copyClient.query(to('COPY (SELECT * FROM risk_rows ORDER BY id) TO STDOUT WITH (FORMAT csv)'));
  let copyBytes = 0;
  for await (const chunk of out as AsyncIterable<Buffer>) copyBytes += chunk.length;
  const copy = (performance.now() - c0) / 1000;
  await copyClient.end();
  const mb = (n: number) => `${(n / 1024 ** 2).toFixed(0)} MB`;
  console.log(
    `export, all ${(lines - 1).toLocaleString('en-US')} rows: ${http.toFixed(1)} s (${Math.round((lines - 1) / http).toLocaleString('en-US')} rows/s, ${mb(bytes)}); COPY TO STDOUT of the table: ${copy.toFixed(1)} s (${mb(copyBytes)}), ratio ${(copy / http).toFixed(2)}`,
  );
}

// A notification sent to everyone, as it reaches each of 50 reviewers' open
// browsers (graphql-ws): time from the administrator's POST to each arrival.
{
  const arrivals: number[] = [];
  let sentAt = 0;
  const cookies = await Promise.all(Array.from({ length: reviewers }, (_, i) => login(`rev${i}@bench.example`, 'Review#Pass1')));
  const sockets = cookies.map((cookie) => {
    const c = wsClient(base, cookie);
    c.subscribe(
      { query: 'subscription { notificationAdded { title } }' },
      { next: () => arrivals.push(performance.now() - sentAt), error: () => {}, complete: () => {} },
    );
    return c;
  });
  // Arrival times are taken as each message comes; the wait only ends the round.
  await until(() => app.deps.pubsub.listening('notification:added') >= reviewers, 30_000);
  const all: number[] = [];
  for (let i = 0; i < Math.max(5, Math.floor(runs / 4)); i++) {
    arrivals.length = 0;
    sentAt = performance.now();
    await fetch(base + '/api/notifications', {
      method: 'POST',
      headers: { cookie: adminCookie, 'content-type': 'application/json' },
      body: JSON.stringify({ title: `Bench ${i}`, message: 'x' }),
    });
    await until(() => arrivals.length >= reviewers, 30_000);
    all.push(...arrivals);
  }
  const f = (n: number) => `${n.toFixed(0)} ms`.padStart(9);
  console.log(
    `${`notification to ${reviewers} open sessions`.padEnd(44)} ${f(pct(all, 50))} ${f(pct(all, 95))}   (max ${Math.max(...all).toFixed(0)} ms, from the POST)`,
  );
  await Promise.all(sockets.map((c) => c.dispose()));
}
await app.close();
console.log(`load average at the end ${loadAverage()}`);
if (keep) console.log(`\ndatabase kept: ${dbName} (reuse with --reuse-db ${dbName})`);
else await admin.query(`DROP DATABASE ${dbName} WITH (FORCE)`);
await admin.end();
fs.rmSync(dataDir, { recursive: true, force: true });
