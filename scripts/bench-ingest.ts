// npm run bench:ingest -- --rows 1000000 [--db postgres|pglite|both] [--format csv|xlsx|both]
//                         [--skip-duplicates true|false] [--batch-size 50000]
// Loads a generated export through the real upload path (HTTP multipart ->
// disk -> background job -> COPY) of a server started as its own process
// (`node --import tsx api/src/main.ts`, as `npm start` runs it), and prints
// rows/s, MB/s, the server's peak memory (VmHWM of that process, plus the
// largest VmRSS sampled during the load) and the latency of risk-list
// requests made during the load, and the CPU seconds the server process and
// the local PostgreSQL cluster spent on it (the work, whatever else runs on the
// machine), beside the load average. On PostgreSQL, for CSV, also `psql \copy` of
// the same file into a table with the same columns and indexes (the limit),
// with the ratio; psql cannot read .xlsx, so an .xlsx load is compared with
// the CSV limit of the same rows when this run measured it (--format both).
// BENCH_SERVER_NODE_ARGS adds node options to the server (e.g.
// '--max-old-space-size=256'); BENCH_KEEP_LOG=<file> keeps the server's log.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, spawn } from 'node:child_process';
import pg from 'pg';
import { loadConfig } from '../api/src/config.js';
import { writeCsv, writeXlsx } from './gen-data.js';
import { arg, percentile as pct } from './cli.js';
import { loadAverage, postgresCpuSeconds, processCpuSeconds, procStatus } from './proc-stats.js';

const root = path.resolve(import.meta.dirname, '..');
const rows = Number(arg('rows', '1000000'));
const which = arg('db', 'both');
const formatArg = arg('format', 'csv');
const skipArg = arg('skip-duplicates', 'true');
const batchSize = Number(arg('batch-size', '50000'));
const pgUrl = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
if (!['csv', 'xlsx', 'both'].includes(formatArg) || !['postgres', 'pglite', 'both'].includes(which) || !['true', 'false'].includes(skipArg) || !(rows > 0)) {
  console.error('usage: bench-ingest --rows N [--db postgres|pglite|both] [--format csv|xlsx|both] [--skip-duplicates true|false] [--batch-size N]');
  process.exit(2);
}
const skipDuplicates = skipArg === 'true';
const formats = (formatArg === 'both' ? ['csv', 'xlsx'] : [formatArg]) as ('csv' | 'xlsx')[];

async function benchFile(format: 'csv' | 'xlsx') {
  const file = path.join(root, `data/bench-${rows}.${format}`);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    console.log(`generating ${rows} rows as ${format}…`);
    // Written under a temporary name, so an interrupted run leaves no half file behind.
    const tmp = `${file}.tmp-${process.pid}`;
    if (format === 'xlsx') await writeXlsx(tmp, rows);
    else writeCsv(tmp, rows);
    fs.renameSync(tmp, file);
  }
  const mb = fs.statSync(file).size / 1e6;
  console.log(`file: ${file} (${mb.toFixed(0)} MB, ${rows.toLocaleString('en-US')} rows)`);
  return { file, mb };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

async function withDatabase<T>(prefix: string, fn: (url: string) => Promise<T>): Promise<T> {
  const dbName = `${prefix}_${Date.now()}`;
  const c = new pg.Client({ connectionString: pgUrl });
  await c.connect();
  await c.query(`CREATE DATABASE ${dbName}`);
  await c.end();
  const u = new URL(pgUrl);
  u.pathname = `/${dbName}`;
  try {
    return await fn(u.toString());
  } finally {
    const d = new pg.Client({ connectionString: pgUrl });
    await d.connect();
    await d.query(`DROP DATABASE ${dbName} WITH (FORCE)`);
    await d.end();
  }
}

/** Starts the server as its own process and waits until it answers. */
async function startServer(env: Record<string, string>, logFile: string) {
  const port = await freePort();
  const log = fs.openSync(logFile, 'a');
  // The server runs with the node options `npm start` gives it (package.json), unless told otherwise.
  const startScript = (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
  const startFlags = startScript
    .split(' ')
    .filter((a) => a.startsWith('--'))
    .join(' ');
  const extra = (process.env.BENCH_SERVER_NODE_ARGS ?? startFlags).split(' ').filter(Boolean);
  console.log(`server: node ${[...extra, '--import', 'tsx', 'api/src/main.ts'].join(' ')}`);
  const child = spawn(process.execPath, [...extra, '--import', 'tsx', 'api/src/main.ts'], {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', log, log],
  });
  fs.closeSync(log);
  let exited: string | undefined;
  const gone = new Promise<void>((resolve) =>
    child.on('exit', (code, signal) => {
      exited = signal ?? String(code);
      resolve();
    }),
  );
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (exited !== undefined) throw new Error(`the server exited (${exited}) before it was ready:\n${fs.readFileSync(logFile, 'utf8').slice(-3000)}`);
    try {
      if ((await fetch(base + '/readyz')).ok) break;
    } catch {
      /* not yet */
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error('the server did not start within 2 minutes');
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    base,
    pid: child.pid!,
    async stop() {
      if (exited === undefined) child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await gone;
      clearTimeout(t);
    },
  };
}

async function throughUpload(kind: 'postgres' | 'pglite', format: 'csv' | 'xlsx', file: string, mb: number) {
  const run = async (dbUrl?: string) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'grc-bench-'));
    const logFile = path.join(dataDir, 'server.log');
    const server = await startServer(
      {
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        ADMIN_PASSWORD: 'Bench#Pass1',
        JOB_POLL_SECONDS: '0.5',
        ...(dbUrl ? { DATABASE_URL: dbUrl } : {}),
      },
      logFile,
    );
    try {
      const { base, pid } = server;
      const login = await fetch(base + '/api/internal-login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'admin@example.com', password: 'Bench#Pass1' }),
      });
      if (!login.ok) throw new Error(`sign-in failed: ${login.status} ${await login.text()}`);
      const cookie = login.headers.getSetCookie()[0]!.split(';')[0]!;
      // The first administrator must change the password before anything else.
      const changed = await fetch(base + '/api/internal/change-password', {
        method: 'PUT',
        headers: { 'content-type': 'application/json', cookie },
        body: JSON.stringify({ currentPassword: 'Bench#Pass1', newPassword: 'Bench#Pass2' }),
      });
      if (!changed.ok) throw new Error(`password change failed: ${changed.status} ${await changed.text()}`);

      const idleMb = procStatus(pid, 'VmRSS');
      let sampledPeak = 0;
      const sampler = setInterval(() => {
        const v = procStatus(pid, 'VmRSS');
        if (v > sampledPeak) sampledPeak = v;
      }, 100);
      const cpu0 = processCpuSeconds(pid);
      const pgCpu0 = kind === 'postgres' ? postgresCpuSeconds() : NaN;
      const t0 = Date.now();
      const form = new FormData();
      form.append('skipDuplicates', String(skipDuplicates));
      form.append('batchSize', String(batchSize));
      form.append('emailNotification', 'false');
      form.append('file', await fs.openAsBlob(file), path.basename(file));
      const r = await fetch(base + '/api/upload', { method: 'POST', body: form, headers: { cookie } });
      const accepted = (await r.json()) as { uploadId?: string; message?: string };
      if (!accepted.uploadId) throw new Error(`upload refused: ${r.status} ${accepted.message}`);
      const tUploaded = Date.now();
      const latencies: number[] = [];
      let status = 'processing';
      let detail: Record<string, unknown> = {};
      while (status === 'processing') {
        const q0 = performance.now();
        await (await fetch(base + '/api/risks?limit=25&page=1', { headers: { cookie } })).json();
        latencies.push(performance.now() - q0);
        detail = (await (await fetch(base + `/api/upload-status/${accepted.uploadId}`, { headers: { cookie } })).json()) as Record<string, unknown>;
        status = String(detail.status);
        await new Promise((res) => setTimeout(res, 250));
      }
      const secs = (Date.now() - t0) / 1000;
      clearInterval(sampler);
      const peakMb = procStatus(pid, 'VmHWM');
      // The status requests above cost the server a little CPU too; they are few (4 a second).
      const serverCpu = processCpuSeconds(pid) - cpu0;
      const pgCpu = postgresCpuSeconds() - pgCpu0;
      if (status !== 'completed') throw new Error(`upload ${status}: ${detail.errorMessage}`);
      return {
        kind,
        format,
        secs,
        uploadSecs: (tUploaded - t0) / 1000,
        rowsPerSec: rows / secs,
        mbPerSec: mb / secs,
        idleMb,
        sampledPeak,
        peakMb,
        records: Number(detail.recordCount),
        duplicates: Number(detail.duplicatesSkipped ?? 0),
        serverCpu,
        pgCpu,
        p50: pct(latencies, 50),
        p95: pct(latencies, 95),
        max: Math.max(...latencies),
      };
    } finally {
      await server.stop();
      if (process.env.BENCH_KEEP_LOG) fs.copyFileSync(logFile, process.env.BENCH_KEEP_LOG);
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  };
  return kind === 'postgres' ? withDatabase('grc_bench', run) : run();
}

async function psqlCopy(file: string) {
  return withDatabase('grc_bench_copy', async (url) => {
    // Same columns and indexes as risk_rows (migrations applied), risk level as text since the file says 'Critical'.
    const cfg = loadConfig({ DATABASE_URL: url, DATA_DIR: os.tmpdir(), LOG_LEVEL: 'silent' });
    const { createDatabase } = await import('../api/src/db/client.js');
    const { migrate } = await import('../api/src/db/migrate.js');
    const db = await createDatabase({ databaseUrl: cfg.DATABASE_URL, dataDir: cfg.dataDir });
    await migrate(db.sql);
    await db.sql.exec(
      `DROP INDEX risk_rows_risk_level_idx; ALTER TABLE risk_rows ALTER COLUMN risk_level TYPE text; CREATE INDEX risk_rows_risk_level_idx ON risk_rows(risk_level);`,
    );
    await db.close();
    const cols =
      'user_id,user_name,user_group,access_risk_id,risk_description,risk_level,risk_type,rule_id,org_rule_id,org_level,org_value,business_process,business_process_description,function,function_description,system,action,action_description,resource,resource_description,resource_extn,resource_extn_desc,value_from,value_to,role_profile,role_profile_description,composite_business_role,composite_role_description,mitigation_control,mitigation_control_description,monitor,monitor_name,short_description,execution_count,last_executed_on';
    const textCols = cols
      .split(',')
      .filter((c) => c !== 'execution_count' && c !== 'last_executed_on')
      .join(',');
    const pgCpu0 = postgresCpuSeconds();
    const t0 = Date.now();
    execFileSync('psql', [url, '-q', '-c', `\\copy risk_rows(${cols}) FROM '${file}' WITH (FORMAT csv, HEADER true, FORCE_NOT_NULL (${textCols}))`], {
      stdio: 'inherit',
    });
    const secs = (Date.now() - t0) / 1000;
    return { secs, rowsPerSec: rows / secs, pgCpu: postgresCpuSeconds() - pgCpu0 };
  });
}

const n = (v: number) => Math.round(v).toLocaleString('en-US');
const results: string[] = [];
let limit: Awaited<ReturnType<typeof psqlCopy>> | undefined;
const files: Partial<Record<'csv' | 'xlsx', { file: string; mb: number }>> = {};
for (const format of formats) files[format] = await benchFile(format);
console.log(`batch ${n(batchSize)}, skip duplicates ${skipDuplicates ? 'on' : 'off'}, load average ${loadAverage()}\n`);
if ((which === 'postgres' || which === 'both') && files.csv) {
  limit = await psqlCopy(files.csv.file);
  results.push(
    `psql \\copy of the CSV (the limit), PostgreSQL: ${limit.secs.toFixed(1)} s, ${n(limit.rowsPerSec)} rows/s, ${(files.csv.mb / limit.secs).toFixed(1)} MB/s, ` +
      `PostgreSQL CPU ${limit.pgCpu.toFixed(1)} s`,
  );
}
for (const format of formats) {
  const { file, mb } = files[format]!;
  for (const kind of ['postgres', 'pglite'] as const) {
    if (which !== 'both' && which !== kind) continue;
    const r = await throughUpload(kind, format, file, mb);
    const ratio =
      kind === 'postgres' && limit
        ? `, ${(r.rowsPerSec / limit.rowsPerSec).toFixed(2)}x the limit` + (format === 'xlsx' ? ' of the same rows as CSV' : '')
        : '';
    results.push(
      `${kind} ${format} upload path (skip duplicates ${skipDuplicates ? 'on' : 'off'}): ${r.secs.toFixed(1)} s end to end (body received in ${r.uploadSecs.toFixed(1)} s), ` +
        `${n(r.rowsPerSec)} rows/s, ${r.mbPerSec.toFixed(1)} MB/s, ` +
        `server peak RSS ${n(r.peakMb)} MB (idle ${n(r.idleMb)} MB, largest sampled during the load ${n(r.sampledPeak)} MB), ` +
        `${n(r.records)} records, ${n(r.duplicates)} duplicates skipped${ratio}; ` +
        `CPU: server ${r.serverCpu.toFixed(1)} s` +
        (kind === 'postgres' ? `, PostgreSQL ${r.pgCpu.toFixed(1)} s` + (limit ? ` (the limit's ${limit.pgCpu.toFixed(1)} s)` : '') : '') +
        '; ' +
        `risk list during load p50 ${r.p50.toFixed(0)} ms, p95 ${r.p95.toFixed(0)} ms, max ${r.max.toFixed(0)} ms`,
    );
    console.log(results.at(-1));
  }
}
console.log('\n' + results.join('\n') + `\nload average at the end ${loadAverage()}`);
