// npm run bench:ingest -- --rows 1000000 [--db postgres|pglite|both] [--skip-duplicates true|false]
// Loads a generated export through the real upload path (HTTP multipart ->
// disk -> background job -> COPY) and prints rows/s, MB/s, peak server memory
// and the latency of risk-list requests made during the load; on PostgreSQL
// also `psql \copy` of the same file into a table with the same columns and
// indexes (the limit), with the ratio.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import pg from 'pg';
import { loadConfig } from '../api/src/config.js';
import { createApp } from '../api/src/app.js';
import { writeCsv } from './gen-data.js';

const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : dflt;
};
const rows = Number(arg('rows', '1000000'));
const which = arg('db', 'both');
const skipDuplicates = arg('skip-duplicates', 'true') !== 'false';
const pgUrl = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

const file = path.resolve(`data/bench-${rows}.csv`);
if (!fs.existsSync(file)) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  console.log(`generating ${rows} rows…`);
  writeCsv(file, rows);
}
const mb = fs.statSync(file).size / 1e6;
console.log(`file: ${file} (${mb.toFixed(0)} MB, ${rows} rows)`);

function pct(a: number[], p: number) {
  const s = [...a].sort((x, y) => x - y);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! : NaN;
}

async function throughUpload(kind: 'postgres' | 'pglite') {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'grc-bench-'));
  let dbUrl: string | undefined;
  let dbName = '';
  if (kind === 'postgres') {
    dbName = `grc_bench_${Date.now()}`;
    const c = new pg.Client({ connectionString: pgUrl });
    await c.connect();
    await c.query(`CREATE DATABASE ${dbName}`);
    await c.end();
    const u = new URL(pgUrl);
    u.pathname = `/${dbName}`;
    dbUrl = u.toString();
  }
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ADMIN_PASSWORD: 'Bench#Pass1',
    JOB_POLL_SECONDS: '0.5',
    PORT: '0',
    ...(dbUrl ? { DATABASE_URL: dbUrl } : {}),
  });
  const app = await createApp(config);
  await app.server.app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.app.server.address() as { port: number }).port;
  const base = `http://127.0.0.1:${port}`;
  await app.deps.prisma.user.updateMany({ data: { passwordResetRequired: false } });
  const login = await fetch(base + '/api/internal-login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@example.com', password: 'Bench#Pass1' }),
  });
  const cookie = login.headers.getSetCookie()[0]!.split(';')[0]!;

  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  const t0 = Date.now();
  const form = new FormData();
  form.append('skipDuplicates', String(skipDuplicates));
  form.append('batchSize', '50000');
  form.append('emailNotification', 'false');
  form.append('file', await fs.openAsBlob(file), path.basename(file));
  const r = await fetch(base + '/api/upload', { method: 'POST', body: form, headers: { cookie } });
  const { uploadId } = (await r.json()) as { uploadId: string };
  const tUploaded = Date.now();
  const latencies: number[] = [];
  let status = 'processing';
  let detail: Record<string, unknown> = {};
  while (status === 'processing') {
    const q0 = performance.now();
    await (await fetch(base + '/api/risks?limit=25&page=1', { headers: { cookie } })).json();
    latencies.push(performance.now() - q0);
    detail = (await (await fetch(base + `/api/upload-status/${uploadId}`, { headers: { cookie } })).json()) as Record<string, unknown>;
    status = String(detail.status);
    await new Promise((res) => setTimeout(res, 250));
  }
  const secs = (Date.now() - t0) / 1000;
  clearInterval(sampler);
  await app.close();
  if (dbName) {
    const c = new pg.Client({ connectionString: pgUrl });
    await c.connect();
    await c.query(`DROP DATABASE ${dbName} WITH (FORCE)`);
    await c.end();
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
  if (status !== 'completed') throw new Error(`upload ${status}: ${detail.errorMessage}`);
  return {
    kind,
    secs,
    uploadSecs: (tUploaded - t0) / 1000,
    rowsPerSec: rows / secs,
    mbPerSec: mb / secs,
    peakMb: peak / 1e6,
    records: Number(detail.recordCount),
    p50: pct(latencies, 50),
    p95: pct(latencies, 95),
    max: Math.max(...latencies),
  };
}

async function psqlCopy() {
  const dbName = `grc_bench_copy_${Date.now()}`;
  const c = new pg.Client({ connectionString: pgUrl });
  await c.connect();
  await c.query(`CREATE DATABASE ${dbName}`);
  await c.end();
  const u = new URL(pgUrl);
  u.pathname = `/${dbName}`;
  const url = u.toString();
  // Same columns and indexes as risk_rows (migrations applied), risk level as text since the file says 'Critical'.
  const cfg = loadConfig({ DATABASE_URL: url, DATA_DIR: os.tmpdir(), LOG_LEVEL: 'silent' });
  const { createDatabase } = await import('../api/src/db/client.js');
  const { migrate } = await import('../api/src/db/migrate.js');
  const db = await createDatabase({ databaseUrl: cfg.DATABASE_URL, dataDir: cfg.dataDir });
  await migrate(db.sql);
  await db.sql.exec(`DROP INDEX risk_rows_risk_level_idx; ALTER TABLE risk_rows ALTER COLUMN risk_level TYPE text; CREATE INDEX risk_rows_risk_level_idx ON risk_rows(risk_level);`);
  await db.close();
  const cols =
    'user_id,user_name,user_group,access_risk_id,risk_description,risk_level,risk_type,rule_id,org_rule_id,org_level,org_value,business_process,business_process_description,function,function_description,system,action,action_description,resource,resource_description,resource_extn,resource_extn_desc,value_from,value_to,role_profile,role_profile_description,composite_business_role,composite_role_description,mitigation_control,mitigation_control_description,monitor,monitor_name,short_description,execution_count,last_executed_on';
  const t0 = Date.now();
  const textCols = cols.split(',').filter((c) => c !== 'execution_count' && c !== 'last_executed_on').join(',');
  execFileSync('psql', [url, '-q', '-c', `\\copy risk_rows(${cols}) FROM '${file}' WITH (FORMAT csv, HEADER true, FORCE_NOT_NULL (${textCols}))`], { stdio: 'inherit' });
  const secs = (Date.now() - t0) / 1000;
  const d = new pg.Client({ connectionString: pgUrl });
  await d.connect();
  await d.query(`DROP DATABASE ${dbName} WITH (FORCE)`);
  await d.end();
  return { secs, rowsPerSec: rows / secs };
}

const results: string[] = [];
let limit: Awaited<ReturnType<typeof psqlCopy>> | undefined;
if (which === 'postgres' || which === 'both') {
  limit = await psqlCopy();
  results.push(`psql \\copy (the limit), PostgreSQL: ${limit.secs.toFixed(1)} s, ${Math.round(limit.rowsPerSec).toLocaleString('en-US')} rows/s`);
}
for (const kind of ['postgres', 'pglite'] as const) {
  if (which !== 'both' && which !== kind) continue;
  const r = await throughUpload(kind);
  results.push(
    `${kind} upload path (skip duplicates ${skipDuplicates ? 'on' : 'off'}): ${r.secs.toFixed(1)} s end to end (body received in ${r.uploadSecs.toFixed(1)} s), ` +
      `${Math.round(r.rowsPerSec).toLocaleString('en-US')} rows/s, ${r.mbPerSec.toFixed(1)} MB/s, peak RSS ${Math.round(r.peakMb)} MB, ` +
      `${r.records.toLocaleString('en-US')} records` +
      (kind === 'postgres' && limit ? `, ${(r.rowsPerSec / limit.rowsPerSec).toFixed(2)}x the limit` : '') +
      `; risk list during load p50 ${r.p50.toFixed(0)} ms, p95 ${r.p95.toFixed(0)} ms, max ${r.max.toFixed(0)} ms`,
  );
}
console.log('\n' + results.join('\n'));
