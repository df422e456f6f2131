// npm run bench:review -- --rows 1000000 [--reviewers 50] [--runs 40]
// Loads a generated export through the upload path into a fresh PostgreSQL
// database, gives 50 reviewers criteria, then times over HTTP the admin risk
// queue (page 1, filtered, searched, a deep page) and a reviewer's assigned
// risks, and prints p50 / p95 beside the same query run directly in SQL.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadConfig } from '../api/src/config.js';
import { createApp } from '../api/src/app.js';
import { writeCsv } from './gen-data.js';
import { hashPassword } from '../api/src/auth/passwords.js';

const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : dflt;
};
const rows = Number(arg('rows', '1000000'));
const reviewers = Number(arg('reviewers', '50'));
const runs = Number(arg('runs', '40'));
const pgUrl = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const pct = (a: number[], p: number) => [...a].sort((x, y) => x - y)[Math.min(a.length - 1, Math.floor((p / 100) * a.length))]!;

const file = path.resolve(`data/bench-${rows}.csv`);
if (!fs.existsSync(file)) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  writeCsv(file, rows);
}
const dbName = `grc_bench_review_${Date.now()}`;
const admin = new pg.Client({ connectionString: pgUrl });
await admin.connect();
await admin.query(`CREATE DATABASE ${dbName}`);
const u = new URL(pgUrl);
u.pathname = `/${dbName}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'grc-bench-review-'));
const config = loadConfig({ DATABASE_URL: u.toString(), DATA_DIR: dataDir, LOG_LEVEL: 'silent', ADMIN_PASSWORD: 'Bench#Pass1', JOB_POLL_SECONDS: '0.5', PORT: '0' });
const app = await createApp(config);
await app.server.app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.server.app.server.address() as { port: number }).port}`;
const prisma = app.deps.prisma;
await prisma.user.updateMany({ data: { passwordResetRequired: false } });

async function login(email: string, password: string) {
  const r = await fetch(base + '/api/internal-login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
  return r.headers.getSetCookie()[0]!.split(';')[0]!;
}
const adminCookie = await login('admin@example.com', 'Bench#Pass1');

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
await app.deps.db.sql.query('ANALYZE');

// 50 reviewers, each with a system, two user groups and five risk ids.
const hash = await hashPassword('Review#Pass1');
const systems = (await app.deps.db.sql.query<{ system: string }>('SELECT DISTINCT system FROM risk_rows')).map((r) => r.system);
const groups = (await app.deps.db.sql.query<{ g: string }>('SELECT DISTINCT user_group AS g FROM risk_rows')).map((r) => r.g);
const risks = (await app.deps.db.sql.query<{ r: string }>('SELECT DISTINCT access_risk_id AS r FROM risk_rows')).map((r) => r.r);
const users = [];
for (let i = 0; i < reviewers; i++) {
  const user = await prisma.user.create({ data: { email: `rev${i}@bench.example`, firstName: 'Rev', lastName: String(i), role: 'reviewer', passwordHash: hash } });
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

const cases: [string, string, string][] = [
  ['admin queue, page 1', '/api/risks?page=1&limit=25', adminCookie],
  ['admin queue, filtered (system + level)', '/api/risks?page=1&limit=25&system=Workday&riskLevel=high', adminCookie],
  ['admin queue, searched', '/api/risks?page=1&limit=25&search=Martin', adminCookie],
  ['admin queue, deep page', `/api/risks?page=${Math.floor(rows / 25 / 2)}&limit=25`, adminCookie],
  ['reviewer assigned risks', '/api/assigned-risks?page=1&limit=25', reviewerCookie],
];
console.log(`\n${rows} rows, ${reviewers} reviewers, ${runs} runs each (HTTP, including the count)`);
for (const [label, url, cookie] of cases) {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    const r = await fetch(base + url, { headers: { cookie } });
    await r.json();
    times.push(performance.now() - t);
  }
  console.log(`${label.padEnd(42)} p50 ${pct(times, 50).toFixed(0).padStart(6)} ms   p95 ${pct(times, 95).toFixed(0).padStart(6)} ms`);
}
await app.close();
await admin.query(`DROP DATABASE ${dbName} WITH (FORCE)`);
await admin.end();
fs.rmSync(dataDir, { recursive: true, force: true });
