// npm run bench:simulation -- --rows 1000000 [--user-rows 20000] [--user-roles 300] [--runs 20]
//   [--estate-users 20000] [--engine-runs 5] [--engine-only] [--keep-db]
// Fills a fresh PostgreSQL database with `rows` risk rows
// generated in SQL (the upload path is bench:ingest's subject, not this one's):
// one user BIG with `user-rows` rows across `user-roles` composite roles, the
// rest spread over 5,000 users and 300 shared composite roles, each risk of two
// functions (an SoD pair), about one row in eight with a 02NN/03NN rule. Then
// times over HTTP, as the administrator, p50 / p95 of:
// - POST /api/risk-analysis/baseline-vs-simulation for BIG (with 10 role decisions);
// - POST /api/simulation/run for BIG on one risk (one role removed);
// - GET /api/simulation/role-what-if for a shared composite role (every holder).
// Then, unless --estate-users is 0, the Risk Simulation answered by the
// engine: a generated SAP estate of one system (scripts/access-estate.ts:
// `estate-users` users, 20 role assignments and 80 AGR_1251 rows a user) and
// a rule set of 200 risks / 500 functions loaded through the product's
// routes, then POST /api/simulation/run for the user with the most roles,
// one composite added and one role removed (`engine-runs` times). Its time
// follows the user's roles, not the estate: compare two estate sizes.
// --engine-only skips the imported rows. --keep-db keeps the database (its
// name is printed).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadConfig } from '../api/src/config.js';
import { createApp } from '../api/src/app.js';
import { arg, percentile as pct } from './cli.js';
import { generateRuleSet, largeCodes, tablesZip, writeLargeEstate, zipFiles } from './access-estate.js';

const rows = Number(arg('rows', '1000000'));
const userRows = Number(arg('user-rows', '20000'));
const userRoles = Number(arg('user-roles', '300'));
const runs = Number(arg('runs', '20'));
const estateUsers = Number(arg('estate-users', '20000'));
const engineRuns = Number(arg('engine-runs', '5'));
const engineOnly = process.argv.includes('--engine-only');
const pgUrl = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const keep = process.argv.includes('--keep-db');

const dbName = `grc_bench_simulation_${Date.now()}`;
const server = new pg.Client({ connectionString: pgUrl });
await server.connect();
await server.query(`CREATE DATABASE ${dbName}`);
const u = new URL(pgUrl);
u.pathname = `/${dbName}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'grc-bench-simulation-'));
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
await app.deps.prisma.user.updateMany({ data: { passwordResetRequired: false } });
const sql = (q: string) => app.deps.db.sql.query(q);

const login = await fetch(base + '/api/internal-login', {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ email: 'admin@example.com', password: 'Bench#Pass1' }),
});
const cookie = login.headers.getSetCookie()[0]!.split(';')[0]!;

async function time(label: string, call: () => Promise<Response>, check: (body: any) => string, times = runs) {
  const ms: number[] = [];
  let note = '';
  for (let i = 0; i < times + 1; i++) {
    const start = performance.now();
    const r = await call();
    const body = await r.json();
    const took = performance.now() - start;
    if (!r.ok) throw new Error(`${label}: ${r.status} ${JSON.stringify(body)}`);
    if (i > 0) ms.push(took); // the first run warms the caches
    note = check(body);
  }
  console.log(`${label.padEnd(58)} p50 ${pct(ms, 50).toFixed(0).padStart(5)} ms   p95 ${pct(ms, 95).toFixed(0).padStart(5)} ms   (${note})`);
}
const post = (url: string, body: unknown) =>
  fetch(base + url, { method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify(body) });

/** The simulation on imported risk rows: `rows` of them, BIG holding `user-rows`. */
async function importedRows() {
  console.log(`generating ${rows} rows (${userRows} of user BIG across ${userRoles} roles)…`);
  const t0 = performance.now();
  const columns = `user_id, user_name, access_risk_id, risk_description, risk_level, rule_id, function, system, role_profile, composite_business_role`;
  // Each (user, risk) holds both functions of its pair: row i of a user grants function i % 2.
  await sql(`INSERT INTO risk_rows (${columns})
    SELECT 'BIG', 'Big User', 'R' || lpad(((i / 2) % 200)::text, 3, '0'), 'Risk ' || ((i / 2) % 200),
           (CASE WHEN i % 3 = 0 THEN 'high' WHEN i % 3 = 1 THEN 'medium' ELSE 'low' END)::"RiskLevel",
           CASE WHEN i % 8 = 0 THEN '03' || lpad((i % 100)::text, 2, '0') ELSE '01' || lpad((i % 100)::text, 2, '0') END,
           'F' || (i % 2), 'SAP ERP', 'Z_P' || (i % ${userRoles * 2}), 'ZC_' || lpad((i % ${userRoles})::text, 3, '0')
      FROM generate_series(0, ${userRows - 1}) i`);
  const rest = Math.max(rows - userRows, 0);
  await sql(`INSERT INTO risk_rows (${columns})
    SELECT 'U' || lpad((i % 5000)::text, 5, '0'), 'User ' || (i % 5000), 'R' || lpad(((i / 10000) % 200)::text, 3, '0'), 'Risk ' || ((i / 10000) % 200),
           (CASE WHEN i % 3 = 0 THEN 'high' WHEN i % 3 = 1 THEN 'medium' ELSE 'low' END)::"RiskLevel",
           CASE WHEN i % 8 = 0 THEN '02' || lpad((i % 100)::text, 2, '0') ELSE '01' || lpad((i % 100)::text, 2, '0') END,
           'F' || ((i / 5000) % 2), 'SAP ERP', 'Z_P' || (i % 600), 'ZC_' || lpad(((i * 7) % 300)::text, 3, '0')
      FROM generate_series(0, ${rest - 1}) i`);
  await sql('VACUUM ANALYZE');
  console.log(`generated in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const roleDecisions = Array.from({ length: 10 }, (_, i) => ({ compositeBusinessRole: `ZC_${String(i * 3).padStart(3, '0')}`, decision: 'remove' }));
  await time(
    `analysis: BIG (${userRows} rows, ${userRoles} roles)`,
    () => post('/api/risk-analysis/baseline-vs-simulation', { userId: 'BIG', roleDecisions }),
    (b) => `${b.analysis.userStatus}, ${b.analysis.redCount}/${b.analysis.totalRisks} risk ids red`,
  );
  await time(
    'simulation: BIG, risk R000, one role removed',
    () => post('/api/simulation/run', { userId: 'BIG', riskId: 'R000', roleScenarios: [{ roleProfile: 'ZC_000', action: 'remove' }] }),
    (b) => `${b.match ? 'MATCH' : 'NO MATCH'} ${b.simulatedCount}/${b.originalCount}`,
  );
  await time(
    `role what-if: ZC_007 over ${rows} rows`,
    () => fetch(base + '/api/simulation/role-what-if?compositeBusinessRole=ZC_007', { headers: { cookie } }),
    (b) => `${b.usersAffected} users, ${b.risksLost} risks lost, ${b.usersTurningGreen} turning green`,
  );
}

/** The simulation answered by the engine on a generated estate of `estate-users` users. */
async function engine() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'grc-bench-simulation-estate-'));
  try {
    console.log(`generating an estate of ${estateUsers} users…`);
    const tables = await writeLargeEstate('PRD', dir, { users: estateUsers, seed: 11 });
    const zip = path.join(dir, 'PRD.zip');
    await zipFiles(
      Object.values(tables).map((t) => t.file),
      zip,
    );
    const rulesZip = await tablesZip(generateRuleSet({ users: estateUsers, seed: 11, functions: 500, risks: 200, codes: largeCodes(), systems: ['PRD'] }));
    const upload = async (url: string, file: Blob, fields: Record<string, string> = {}) => {
      const form = new FormData();
      for (const [k, v] of Object.entries(fields)) form.append(k, v);
      form.append('file', file, 'tables.zip');
      const r = await fetch(base + url, { method: 'POST', body: form, headers: { cookie } });
      if (!r.ok) throw new Error(`${url}: ${r.status} ${await r.text()}`);
      return (await r.json()) as { id: string };
    };
    await upload('/api/rule-sets', new Blob([new Uint8Array(rulesZip)]), { name: 'Bench rules' });
    const t0 = performance.now();
    const { id } = await upload('/api/systems/PRD/extracts', await fs.openAsBlob(zip));
    for (;;) {
      const x = (await (await fetch(`${base}/api/systems/PRD/extracts/${id}`, { headers: { cookie } })).json()) as { status: string; errorMessage?: string };
      if (x.status === 'failed') throw new Error(`The extract failed: ${x.errorMessage}`);
      if (x.status === 'completed') break;
      await new Promise((r) => setTimeout(r, 500));
    }
    const size = Object.entries(tables)
      .map(([t, x]) => `${t} ${x.rows}`)
      .join(', ');
    console.log(`extract loaded in ${((performance.now() - t0) / 1000).toFixed(1)} s: ${size}`);
    // The user with the most roles; a composite they do not hold is added, their first role removed.
    const [who] = (await sql(`SELECT uname, count(*)::int AS n, min(agr_name) AS first FROM access_x_agr_users WHERE col_flag <> 'X'
      AND uname IN (SELECT bname FROM access_x_usr02 WHERE uflag = 0) GROUP BY uname ORDER BY count(*) DESC, uname LIMIT 1`)) as {
      uname: string;
      n: number;
      first: string;
    }[];
    const [added] = (await sql(
      `SELECT min(agr_name) AS role FROM access_x_agr_agrs WHERE agr_name NOT IN (SELECT agr_name FROM access_x_agr_users WHERE uname = '${who!.uname}')`,
    )) as { role: string }[];
    const roleScenarios = [
      { roleProfile: added!.role, action: 'add' },
      { roleProfile: who!.first, action: 'remove' },
    ];
    await time(
      `engine simulation: ${who!.uname} (${who!.n} roles), ${estateUsers} users`,
      () => post('/api/simulation/run', { userId: who!.uname, riskId: 'R000', roleScenarios }),
      (b) => `${b.engine.appear.length} appear, ${b.engine.go.length} go, ${b.engine.remain.length} remain`,
      engineRuns,
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (!engineOnly) await importedRows();
if (estateUsers > 0) await engine();

await app.close();
if (keep) console.log(`kept database ${dbName}`);
else await server.query(`DROP DATABASE ${dbName} WITH (FORCE)`);
await server.end();
fs.rmSync(dataDir, { recursive: true, force: true });
