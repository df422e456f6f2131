// npm run bench:reports -- --rows 1000000 [--reviewers 50] [--runs 30] [--keep-db] [--reuse-db NAME]
// Loads a generated export through the upload path into a fresh PostgreSQL
// database, gives reviewers overlapping criteria (so roles are shared), has
// each decide half of their rows in an active period (straight in SQL), then
// times over HTTP the dashboard's figures (stats, trend over 30 days and 6
// months, categories), Recent Risk Reviews and All Reviews pages (first,
// shared only, searched, deep), printing p50 / p95; then downloads the risk
// report and prints its rate beside `COPY (SELECT …) TO STDOUT` of the same
// columns, with the server's memory before and after.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { loadConfig } from '../api/src/config.js';
import { createApp } from '../api/src/app.js';
import { EXPORT_COLUMNS } from '../api/src/services/risk-export.js';
import { hashPassword } from '../api/src/auth/passwords.js';
import { writeCsv } from './gen-data.js';
import { arg, percentile as pct } from './cli.js';

const rows = Number(arg('rows', '1000000'));
const reviewers = Number(arg('reviewers', '50'));
const runs = Number(arg('runs', '30'));
const pgUrl = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

const file = path.resolve(`data/bench-${rows}.csv`);
if (!fs.existsSync(file)) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  writeCsv(file, rows);
}
const reuse = process.argv.includes('--reuse-db') ? arg('reuse-db', '') : '';
const keep = process.argv.includes('--keep-db') || Boolean(reuse);
const dbName = reuse || `grc_bench_reports_${Date.now()}`;
const root = new pg.Client({ connectionString: pgUrl });
await root.connect();
if (!reuse) await root.query(`CREATE DATABASE ${dbName}`);
const u = new URL(pgUrl);
u.pathname = `/${dbName}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'grc-bench-reports-'));
const config = loadConfig({ DATABASE_URL: u.toString(), DATA_DIR: dataDir, LOG_LEVEL: 'silent', ADMIN_PASSWORD: 'Bench#Pass1', JOB_POLL_SECONDS: '0.5', PORT: '0' });
const app = await createApp(config);
await app.server.app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.server.app.server.address() as { port: number }).port}`;
const prisma = app.deps.prisma;
const sql = app.deps.db.sql;
await prisma.user.updateMany({ data: { passwordResetRequired: false } });

async function login(email: string, password: string) {
  const r = await fetch(base + '/api/internal-login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
  return r.headers.getSetCookie()[0]!.split(';')[0]!;
}
const adminCookie = await login('admin@example.com', 'Bench#Pass1');
const get = (url: string, cookie = adminCookie) => fetch(base + url, { headers: { cookie } });

if (!reuse) {
  console.log(`loading ${rows} rows…`);
  const form = new FormData();
  form.append('emailNotification', 'false');
  form.append('file', await fs.openAsBlob(file), path.basename(file));
  const up = (await (await fetch(base + '/api/upload', { method: 'POST', body: form, headers: { cookie: adminCookie } })).json()) as { uploadId: string };
  for (;;) {
    const s = (await (await get(`/api/upload-status/${up.uploadId}`)).json()) as { status: string };
    if (s.status !== 'processing') break;
    await new Promise((r) => setTimeout(r, 1000));
  }
  // Reviewers with overlapping criteria: a system and a user group each.
  const hash = await hashPassword('Review#Pass1');
  const systems = (await sql.query<{ v: string }>('SELECT DISTINCT system AS v FROM risk_rows')).map((r) => r.v);
  const groups = (await sql.query<{ v: string }>('SELECT DISTINCT user_group AS v FROM risk_rows')).map((r) => r.v);
  for (let i = 0; i < reviewers; i++) {
    const user = await prisma.user.create({ data: { email: `rev${i}@bench.example`, firstName: 'Rev', lastName: String(i), role: 'reviewer', passwordHash: hash } });
    await prisma.assignmentCriteria.createMany({
      data: [
        { name: 's', reviewerId: user.id, criteriaType: 'system', criteriaValue: systems[i % systems.length]! },
        { name: 'g', reviewerId: user.id, criteriaType: 'user_group', criteriaValue: groups[i % groups.length]! },
      ],
    });
  }
  const period = await prisma.reviewPeriod.create({ data: { name: 'Bench period', startDate: new Date(), status: 'active' } });
  // Each reviewer decides every other row they are assigned (half retain, half remove).
  await sql.query(`
    INSERT INTO decisions (period_id, reviewer_id, risk_row_id, decision)
    SELECT DISTINCT ON (ac.reviewer_id, r.id) '${period.id}'::uuid, ac.reviewer_id, r.id,
           (CASE WHEN r.id % 4 = 0 THEN 'remove' ELSE 'retain' END)::"DecisionValue"
      FROM risk_rows r JOIN assignment_criteria ac
        ON (ac.criteria_type = 'system' AND ac.criteria_value = r.system) OR (ac.criteria_type = 'user_group' AND ac.criteria_value = r.user_group)
     WHERE r.id % 2 = 0`);
  await sql.query('VACUUM ANALYZE');
}
const decisions = Number((await sql.query<{ n: string }>('SELECT count(*)::text AS n FROM decisions'))[0]!.n);
console.log(`${rows} rows, ${reviewers} reviewers, ${decisions} decisions`);
const reviewerCookie = await login('rev3@bench.example', 'Review#Pass1');

const cases: [string, string, string][] = [
  ['dashboard stats', '/api/dashboard/stats', adminCookie],
  ['dashboard trend, 30 days', '/api/dashboard/trend?range=30d', adminCookie],
  ['dashboard trend, 6 months', '/api/dashboard/trend?range=6m', adminCookie],
  ['dashboard categories', '/api/dashboard/categories', adminCookie],
  ['reviewer: dashboard trend', '/api/dashboard/trend?range=30d', reviewerCookie],
  ['recent reviews', '/api/dashboard/recent-reviews', adminCookie],
  ['all reviews, page 1 (100)', '/api/reviews/all?page=1&limit=100', adminCookie],
  ['all reviews, shared only', '/api/reviews/all?page=1&limit=100&shared=shared', adminCookie],
  ['all reviews, searched', '/api/reviews/all?page=1&limit=100&search=Martin', adminCookie],
  ['all reviews, page 50 (100)', '/api/reviews/all?page=50&limit=100', adminCookie],
  ['reviewer: all reviews, page 1', '/api/reviews/all?page=1&limit=100', reviewerCookie],
];
console.log('\n| request | p50 ms | p95 ms |\n|---|---|---|');
for (const [name, url, cookie] of cases) {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    const r = await get(url, cookie);
    await r.arrayBuffer();
    if (!r.ok) throw new Error(`${url}: ${r.status}`);
    times.push(performance.now() - t);
  }
  console.log(`| ${name} | ${pct(times, 50).toFixed(1)} | ${pct(times, 95).toFixed(1)} |`);
}

// The risk report against COPY of the same columns.
const live = Number((await sql.query<{ n: string }>('SELECT count(*)::text AS n FROM risk_rows'))[0]!.n);
const copyClient = new pg.Client({ connectionString: u.toString() });
await copyClient.connect();
let t = performance.now();
let bytes = 0;
for await (const chunk of copyClient.query(copyTo(`COPY (SELECT ${EXPORT_COLUMNS.map(([, c]) => `r.${c}`).join(', ')} FROM risk_rows r ORDER BY r.id) TO STDOUT WITH (FORMAT csv)`))) bytes += (chunk as Buffer).length;
const copyMs = performance.now() - t;
await copyClient.end();
const rssBefore = process.memoryUsage().rss;
let rssMax = rssBefore;
const sampler = setInterval(() => (rssMax = Math.max(rssMax, process.memoryUsage().rss)), 100);
t = performance.now();
let reportBytes = 0;
const res = await get('/api/reports/risk-report');
for await (const chunk of res.body! as unknown as AsyncIterable<Uint8Array>) reportBytes += (chunk as Uint8Array).length;
const reportMs = performance.now() - t;
clearInterval(sampler);
const rate = (ms: number) => Math.round(live / (ms / 1000));
console.log(`\n| export | rows/s | MB | ratio |\n|---|---|---|---|`);
console.log(`| COPY (SELECT …) TO STDOUT | ${rate(copyMs)} | ${(bytes / 1e6).toFixed(1)} | 1.00 |`);
console.log(`| GET /api/reports/risk-report | ${rate(reportMs)} | ${(reportBytes / 1e6).toFixed(1)} | ${(copyMs / reportMs).toFixed(2)} |`);
console.log(`server RSS (benchmark and server share a process): ${(rssBefore / 1e6).toFixed(0)} MB before, ${(rssMax / 1e6).toFixed(0)} MB at most while streaming`);

await app.close();
if (!keep) await root.query(`DROP DATABASE ${dbName} WITH (FORCE)`);
else console.log(`kept database ${dbName}`);
await root.end();
fs.rmSync(dataDir, { recursive: true, force: true });
