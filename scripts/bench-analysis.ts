// npm run bench:analysis -- [--users 50000] [--assignments N] [--auth-rows N] [--pglite-users 5000]
//   [--skip-pglite] [--explain] [--explain-reanalysis] [--reads] [--keep-db] [--dir /tmp/folder]
// The access engine at an estate's size: a generated SAP estate of one
// system (scripts/access-estate.ts: `users`, 20 role assignments and 80
// AGR_1251 rows a user unless given) and a rule set of 200 risks / 500
// functions, written to disk as CSV files and zipped as streams. On a fresh
// PostgreSQL database it times:
// - the extract's load through the product's path (the load job's service:
//   zip, parse, COPY, counts, ANALYZE) beside `psql \copy` of the same CSV
//   files into plain tables of a second fresh database: the ratio;
// - a full analysis (the run job's service) and the process's peak RSS
//   (VmHWM, reset before the load);
// - a new extract in which one role's authorizations changed, then the
//   re-analysis, which recomputes only the role's holders;
// then the same full analysis on PGlite at `pglite-users`. --explain prints
// each statement's time of the full run (EXPLAIN ANALYZE) instead of timing
// the run whole.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import pg from 'pg';
import type { Config } from '../api/src/config.js';
import { createDatabase, type Database } from '../api/src/db/client.js';
import { migrate } from '../api/src/db/migrate.js';
import type { JobQueue } from '../api/src/db/queue.js';
import { localStore, type ObjectStore } from '../api/src/db/storage/index.js';
import { receiveFile } from '../api/src/services/uploads/uploads.js';
import type { AppDeps } from '../api/src/services/deps.js';
import { createCaller, type Caller } from '../api/src/services/caller.js';
import { uploadRuleSet } from '../api/src/services/access/rule-sets.js';
import { loadExtract, startExtract } from '../api/src/services/access/extracts.js';
import { runAnalysis, startAnalysis } from '../api/src/services/access/analysis.js';
import { ANALYSIS_CONFLICTS_SQL, analysisStatements } from '../api/src/services/access/analysis-sql.js';
import { previousRealRun } from '../api/src/services/access/compared-run.js';
import { changeCounts } from '../api/src/services/access/changes.js';
import { conflictBreakdown, countConflicts, listConflicts } from '../api/src/services/access/conflicts.js';
import { ADDED_REMOVED_SQL, INCREMENTAL_MERGE_SQL, RECOMPUTED_TOUCHED_SQL, incrementalBase, touchedUsersSql } from '../api/src/services/access/incremental.js';
import { ESTATE_COLUMNS, generateRuleSet, largeCodes, tablesZip, writeLargeEstate, zipFiles } from './access-estate.js';
import { arg } from './cli.js';

const users = Number(arg('users', '50000'));
const assignments = Number(arg('assignments', String(users * 20)));
const authRows = Number(arg('auth-rows', String(users * 80)));
const pgliteUsers = Number(arg('pglite-users', '5000'));
const flag = (f: string) => process.argv.includes(f);
const pgUrl = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const dir = flag('--dir') ? arg('dir', '') : fs.mkdtempSync(path.join(os.tmpdir(), 'grc-bench-access-'));
const AS_OF = '2026-06-30';
const figures: [string, string, string][] = [];
const figure = (f: [string, string, string]) => {
  figures.push(f);
  console.log(f.join(' · '));
};
const secs = (t0: number) => (performance.now() - t0) / 1000;
const n = (v: number) => Math.round(v).toLocaleString('en-US');
const mb = (kb: number) => `${n(kb / 1024)} MB`;
const status = (field: 'VmHWM' | 'VmRSS') =>
  Number(
    /\d+/.exec(
      fs
        .readFileSync('/proc/self/status', 'utf8')
        .split('\n')
        .find((l) => l.startsWith(field))!,
    )![0],
  );
const resetPeak = () => fs.writeFileSync('/proc/self/clear_refs', '5');

/** The estate's files (CSV and zip) for a number of users, generated once into `dir`. */
async function estateFiles(u: number, a: number, r: number) {
  const at = path.join(dir, `u${u}`);
  const t0 = performance.now();
  const tables = await writeLargeEstate('PRD', at, { users: u, assignments: a, authRows: r, seed: 11 });
  await zipFiles(
    Object.values(tables).map((t) => t.file),
    path.join(at, 'PRD.zip'),
  );
  // The new extract: one single role gains a transaction and an org level.
  const changed = path.join(at, 'changed');
  fs.mkdirSync(changed, { recursive: true });
  for (const t of Object.values(tables)) fs.copyFileSync(t.file, path.join(changed, path.basename(t.file)));
  fs.appendFileSync(
    path.join(changed, 'AGR_1251.csv'),
    'Z_S0007,S_TCODE,T-1,TCD,Y0150,,\r\nZ_S0007,F_BKPF_BUK,F_BKPF99,BUKRS,*,,\r\nZ_S0007,F_BKPF_BUK,F_BKPF99,ACTVT,*,,\r\n',
  );
  await zipFiles(
    Object.values(tables).map((t) => path.join(changed, path.basename(t.file))),
    path.join(at, 'PRD-changed.zip'),
  );
  const rulesZip = path.join(at, 'rules.zip');
  fs.writeFileSync(rulesZip, await tablesZip(generateRuleSet({ users: u, seed: 11, functions: 500, risks: 200, codes: largeCodes(), systems: ['PRD'] })));
  console.log(
    `generated ${u} users in ${secs(t0).toFixed(1)} s: ${Object.entries(tables)
      .map(([t, x]) => `${t} ${n(x.rows)}`)
      .join(', ')}`,
  );
  return { tables, zip: path.join(at, 'PRD.zip'), changedZip: path.join(at, 'PRD-changed.zip'), rulesZip };
}

/** The product's path for an extract: the start (checks, keeps the file) and the load job's service. */
/** What the product's services are given here: the database, the uploads folder, and an administrator as the caller. */
type BenchDeps = { prisma: Database['prisma']; db: Database; config: Config; storage: ObjectStore; caller: Caller };

async function load(deps: BenchDeps, zip: string) {
  const received = await receiveFile(deps.storage, fs.createReadStream(zip), 'PRD.zip');
  const t0 = performance.now();
  const { id } = await startExtract(deps.caller, 'PRD', received);
  await loadExtract(deps, id);
  const x = await deps.prisma.accessExtract.findUniqueOrThrow({ where: { id } });
  if (x.status !== 'completed') throw new Error(`The extract failed: ${x.errorMessage}`);
  return { secs: secs(t0), x };
}

async function analyse(deps: BenchDeps, ruleSetId: string, explain: false | 'full' | 'incremental' = false) {
  const t0 = performance.now();
  const { id } = await startAnalysis(deps.caller, { ruleSetId, asOf: AS_OF });
  // The time explaining takes is not the run's.
  const t1 = performance.now();
  if (explain === 'full') await explainRun(deps.db, id);
  if (explain === 'incremental') await explainReanalysis(deps.db, id);
  const explaining = performance.now() - t1;
  await runAnalysis(deps, id);
  const run = await deps.prisma.accessAnalysisRun.findUniqueOrThrow({ where: { id } });
  if (run.status !== 'completed') throw new Error(`The analysis failed: ${run.errorMessage}`);
  return { secs: secs(t0) - explaining / 1000, run };
}

/** Each statement of a full run under EXPLAIN ANALYZE, in one rolled-back transaction: the slowest first. */
async function explainRun(db: Database, runId: string) {
  const run = await db.prisma.accessAnalysisRun.findUniqueOrThrow({ where: { id: runId } });
  await explainStatements(analysisStatements({ runId, ruleSetId: run.ruleSetId, extractIds: run.extractIds, asOf: AS_OF }).map((s) => [s, []]));
}

/** Each statement of an incremental run (as runAnalysis runs them) under EXPLAIN ANALYZE, rolled back. */
async function explainReanalysis(db: Database, runId: string) {
  const run = await db.prisma.accessAnalysisRun.findUniqueOrThrow({ where: { id: runId } });
  const previous = await previousRealRun(db.prisma, run);
  const base = incrementalBase(run, previous);
  if (!base) throw new Error('The re-analysis would be a full run');
  const ids = [runId, base.baseRunId];
  await explainStatements([
    [touchedUsersSql(base.oldExtract, base.newExtract), []],
    ['ANALYZE access_t_touched', []],
    ...analysisStatements({ runId, ruleSetId: run.ruleSetId, extractIds: run.extractIds, asOf: AS_OF, touchedOnly: true }).map((s): [string, string[]] => [
      s,
      [],
    ]),
    [ANALYSIS_CONFLICTS_SQL, [runId]],
    [RECOMPUTED_TOUCHED_SQL, [base.baseRunId]],
    ['SET LOCAL enable_nestloop = on', []],
    ...INCREMENTAL_MERGE_SQL.map((s): [string, string[]] => [s, ids.slice(0, s.includes('$2') ? 2 : 1)]),
    [ADDED_REMOVED_SQL, ids],
  ]);
}

async function explainStatements(statements: [string, string[]][]) {
  const client = new pg.Client({ connectionString: process.env.BENCH_DB_URL });
  await client.connect();
  await client.query('BEGIN');
  const times: [number, string][] = [];
  for (const [s, values] of statements) {
    const t0 = performance.now();
    if (s.startsWith('ANALYZE') || s.startsWith('SET')) await client.query(s);
    else {
      const plan = await client.query(`EXPLAIN (ANALYZE, BUFFERS) ${s}`, values);
      const text = plan.rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n');
      fs.writeFileSync(path.join(dir, `plan-${times.length}.txt`), `${s}\n\n${text}\n`);
    }
    times.push([secs(t0), s.trim().slice(0, 60).replace(/\s+/g, ' ')]);
  }
  await client.query('ROLLBACK');
  await client.end();
  for (const [t, s] of times) console.log(`${t.toFixed(2).padStart(7)} s  ${s}`);
  console.log(`plans in ${dir}/plan-N.txt`);
}

/** What the run's page reads, each timed: the first page of conflicts, their count, the change counts, the breakdown by system. */
async function reads(deps: BenchDeps, runId: string) {
  const run = await deps.prisma.accessAnalysisRun.findUniqueOrThrow({ where: { id: runId } });
  const took: string[] = [];
  for (const read of [
    () => listConflicts(deps.caller, runId, {}, { limit: 51 }),
    () => countConflicts(deps.caller, runId, {}),
    () => changeCounts(deps.caller, run),
    () => conflictBreakdown(deps.caller, runId, 'system', 100),
  ]) {
    const t0 = performance.now();
    await read();
    took.push(secs(t0).toFixed(2));
  }
  return `${took.join(' / ')} s`;
}

/** `psql \copy` of the same CSV files into plain tables of their columns (all text) in a fresh database. */
async function psqlCopy(tables: Record<string, { file: string }>) {
  const name = `grc_bench_access_copy_${Date.now()}`;
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const u = new URL(pgUrl);
  u.pathname = `/${name}`;
  try {
    const cols = (t: string) => ESTATE_COLUMNS[t]!.map((c) => `"${c.toLowerCase()}"`);
    execFileSync('psql', [
      u.toString(),
      '-q',
      '-c',
      Object.keys(tables)
        .map(
          (t) =>
            `CREATE TABLE x_${t.toLowerCase()} (${cols(t)
              .map((c) => `${c} text COLLATE "C"`)
              .join(', ')});`,
        )
        .join(''),
    ]);
    const t0 = performance.now();
    for (const [t, x] of Object.entries(tables))
      execFileSync('psql', [u.toString(), '-q', '-c', `\\copy x_${t.toLowerCase()}(${cols(t).join(',')}) FROM '${x.file}' WITH (FORMAT csv, HEADER true)`]);
    return secs(t0);
  } finally {
    await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
    await admin.end();
  }
}

/** The bench runs each job itself (loadExtract, runAnalysis): the queue takes what is sent and runs nothing. */
const NO_JOBS = { boss: { send: () => Promise.resolve(null) } } as unknown as JobQueue;

async function withDatabase<T>(kind: 'postgres' | 'pglite', work: (deps: BenchDeps) => Promise<T>): Promise<T> {
  const name = `grc_bench_access_${Date.now()}`;
  const admin = kind === 'postgres' ? new pg.Client({ connectionString: pgUrl }) : null;
  let url: string | undefined;
  if (admin) {
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const u = new URL(pgUrl);
    u.pathname = `/${name}`;
    url = u.toString();
    process.env.BENCH_DB_URL = url;
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'grc-bench-access-db-'));
  const db = await createDatabase({ databaseUrl: url, dataDir });
  try {
    await migrate(db.sql);
    const deps = { prisma: db.prisma, db, config: {} as Config, storage: localStore(dataDir), jobs: NO_JOBS };
    const admin = await db.prisma.user.create({ data: { email: 'bench.admin@example.com', firstName: 'Bench', lastName: 'Admin', role: 'admin' } });
    return await work({ ...deps, caller: createCaller(deps as AppDeps, { user: admin }) });
  } finally {
    await db.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (admin) {
      if (flag('--keep-db')) console.log(`kept database ${name}`);
      else await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
      await admin.end();
    }
  }
}

const size = `${n(users)} users, ${n(assignments)} assignments, ${n(authRows)} AGR_1251 rows`;
const files = await estateFiles(users, assignments, authRows);
const copySecs = await psqlCopy(files.tables);
await withDatabase('postgres', async (deps) => {
  const rules = await uploadRuleSet(deps.caller, files.rulesZip, 'rules.zip', 'Bench rules');
  resetPeak();
  const loaded = await load(deps, files.zip);
  figure([
    `extract load, PostgreSQL (${size})`,
    '≥ 0.5× psql \\copy',
    `${loaded.secs.toFixed(1)} s against \\copy ${copySecs.toFixed(1)} s: **${(copySecs / loaded.secs).toFixed(2)}×**`,
  ]);
  const full = await analyse(deps, rules.id, flag('--explain') && 'full');
  figure([
    `full analysis (${rules.risks} risks, ${rules.functions} functions)`,
    '≤ 60 s',
    `**${full.secs.toFixed(1)} s**: ${n(full.run.conflicts)} conflicts, ${n(full.run.rows)} rows, ${n(full.run.users)} users with conflicts`,
  ]);
  figure(['process peak RSS over load and analysis', '≤ 1 GB', mb(status('VmHWM'))]);
  const reloaded = await load(deps, files.changedZip);
  figure(['new extract, one role changed: load', '', `${reloaded.secs.toFixed(1)} s`]);
  const again = await analyse(deps, rules.id, flag('--explain-reanalysis') && 'incremental');
  figure([
    're-analysis after one role change',
    '≤ 5 s',
    `**${again.secs.toFixed(1)} s**: ${n(again.run.recomputedUsers ?? 0)} users recomputed, +${n(again.run.added)} / -${n(again.run.removed)} conflicts`,
  ]);
  if (flag('--reads')) {
    const full = await reads(deps, again.run.baseRunId!);
    const shared = await reads(deps, again.run.id);
    figure(['reads of the full run · of the re-analysis (first page, count, changes, by system)', '', `${full} · ${shared}`]);
  }
});
if (!flag('--skip-pglite')) {
  const small = await estateFiles(pgliteUsers, pgliteUsers * 20, pgliteUsers * 80);
  await withDatabase('pglite', async (deps) => {
    const rules = await uploadRuleSet(deps.caller, small.rulesZip, 'rules.zip', 'Bench rules');
    const loaded = await load(deps, small.zip);
    const full = await analyse(deps, rules.id);
    const reloaded = await load(deps, small.changedZip);
    const again = await analyse(deps, rules.id);
    figure([
      `PGlite, ${n(pgliteUsers)} users: load · full analysis · reload · re-analysis`,
      'completes',
      `${loaded.secs.toFixed(1)} s · ${full.secs.toFixed(1)} s (${n(full.run.conflicts)} conflicts) · ${reloaded.secs.toFixed(1)} s · ${again.secs.toFixed(1)} s (${n(again.run.recomputedUsers ?? 0)} users)`,
    ]);
  });
}
console.log(
  `\nload average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}\n`,
);
console.log('| what is measured | target | figure |\n|---|---|---|');
for (const [what, target, figure] of figures) console.log(`| ${what} | ${target} | ${figure} |`);
if (!flag('--dir')) fs.rmSync(dir, { recursive: true, force: true });
