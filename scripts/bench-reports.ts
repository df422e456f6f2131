// npm run bench:reports -- --rows 1000000 [--reviewers 50] [--deciders 2] [--runs 30] [--keep-db] [--reuse-db NAME] [--skip-report] [--append-rows N]
// Loads a generated export through the upload path into a fresh PostgreSQL
// database, gives reviewers overlapping criteria (so roles are shared), has
// every other row decided by up to --deciders of its reviewers (half retain,
// half remove) in an active period (straight in SQL; with 50 reviewers over a
// few systems and groups a row has about 20 reviewers, and letting all of them
// decide would make 10 decisions a row, 10M at 1M rows), then
// times over HTTP the dashboard's figures (stats, trend over 30 days and 6
// months, categories; a reviewer's own trend: with --append-rows, its first
// request is the first after an upload), Recent Risk Reviews and All Reviews
// pages (first, shared only, searched by user and by reviewers' names, deep), printing the first (cold) request apart from
// the p50 / p95 of the others; then a reviewer's first stats, trend and categories after a
// criteria change, once the job it sends has kept their figures, and the administrator's first
// stats and All Reviews page once it has refreshed the shared items (--skip-report stops there); then downloads the risk
// report and prints its rate beside `COPY (SELECT …) TO STDOUT` of the same
// columns (the export's and the review metadata, by the same joins: the
// report's own riskReportMetadata) without the formula neutralisation, with
// the server's memory before and after, and Export Results (the queue's CSV with the
// recommendation beside each row) beside the same COPY. Requests go through node:http, with
// no client time limit (fetch gives up on a response after 300 s).
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadConfig } from '../api/src/config.js';
import { createApp } from '../api/src/app.js';
import { Prisma } from '../api/src/generated/prisma/client.js';
import { EXPORT_COLUMNS, RISK_REPORT_CELLS, riskReportMetadata } from '../api/src/services/reports/risk-export.js';
import { LIVE_ROWS } from '../api/src/services/live-rows.js';
import { figuresNotKept, forgetCachedFigures, freshSharedItems, keysOf, periodsWithDecisions } from '../api/src/services/kept/index.js';
import { criteriaSetsFor, holdersOf } from '../api/src/services/holds.js';
import { scopeKey } from '../api/src/services/visibility.js';
import { JOBS } from '../api/src/db/queue.js';
import { hashPassword } from '../api/src/auth/passwords.js';
import { writeCsv } from './gen-data.js';
import { arg, percentile as pct } from './cli.js';
import { freePort, npmStartNodeFlags, spawnServer, waitReady } from '../api/test/helpers/process.js';

const rows = Number(arg('rows', '1000000'));
const reviewers = Number(arg('reviewers', '50'));
const runs = Number(arg('runs', '30'));
const deciders = Number(arg('deciders', '2'));
const pgUrl = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

const reuse = process.argv.includes('--reuse-db') ? arg('reuse-db', '') : '';
// --skip-report (or --only-requests): time the requests and stop (without the risk report and Export Results, minutes at 1M rows).
const onlyRequests = process.argv.includes('--only-requests') || process.argv.includes('--skip-report');
const file = path.resolve(`data/bench-${rows}.csv`);
if (!reuse && !fs.existsSync(file)) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  writeCsv(file, rows);
}
const keep = process.argv.includes('--keep-db') || Boolean(reuse);
const dbName = reuse || `grc_bench_reports_${Date.now()}`;
const root = new pg.Client({ connectionString: pgUrl });
await root.connect();
if (!reuse) await root.query(`CREATE DATABASE ${dbName}`);
const u = new URL(pgUrl);
u.pathname = `/${dbName}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'grc-bench-reports-'));
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
const sql = app.deps.db.sql;
await prisma.user.updateMany({ data: { passwordResetRequired: false } });

async function login(email: string, password: string, at = base) {
  const r = await fetch(at + '/api/internal-login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  return r.headers.getSetCookie()[0]!.split(';')[0]!;
}
const adminCookie = await login('admin@example.com', 'Bench#Pass1');
/** A GET with no client time limit; the response is read by the caller. */
const get = (url: string, cookie = adminCookie) =>
  new Promise<http.IncomingMessage>((resolve, reject) => http.get(base + url, { headers: { cookie } }, resolve).on('error', reject));
async function getJson<T>(url: string): Promise<T> {
  const res = await get(url);
  let text = '';
  for await (const chunk of res) text += String(chunk);
  return JSON.parse(text) as T;
}

if (!reuse) {
  console.log(`loading ${rows} rows…`);
  const form = new FormData();
  form.append('emailNotification', 'false');
  form.append('file', await fs.openAsBlob(file), path.basename(file));
  const up = (await (await fetch(base + '/api/upload', { method: 'POST', body: form, headers: { cookie: adminCookie } })).json()) as { uploadId: string };
  for (;;) {
    const s = await getJson<{ status: string }>(`/api/upload-status/${up.uploadId}`);
    if (s.status !== 'processing') break;
    await new Promise((r) => setTimeout(r, 1000));
  }
  // Reviewers with overlapping criteria: a system and a user group each.
  const hash = await hashPassword('Review#Pass1');
  const systems = (await sql.query<{ v: string }>('SELECT DISTINCT system AS v FROM risk_rows')).map((r) => r.v);
  const groups = (await sql.query<{ v: string }>('SELECT DISTINCT user_group AS v FROM risk_rows')).map((r) => r.v);
  for (let i = 0; i < reviewers; i++) {
    const user = await prisma.user.create({
      data: { email: `rev${i}@bench.example`, firstName: 'Rev', lastName: String(i), role: 'reviewer', passwordHash: hash },
    });
    await prisma.assignmentCriteria.createMany({
      data: [
        { name: 's', reviewerId: user.id, criteriaType: 'system', criteriaValue: systems[i % systems.length]! },
        { name: 'g', reviewerId: user.id, criteriaType: 'user_group', criteriaValue: groups[i % groups.length]! },
      ],
    });
  }
  const period = await prisma.reviewPeriod.create({ data: { name: 'Bench period', startDate: new Date(), status: 'active' } });
  // Every other row is decided by up to `deciders` of its reviewers (half retain, half remove), picked
  // by a hash of row and reviewer: every reviewer decides some (ordered by their ids, the few with the
  // lowest random ids made every decision, and rev3, whose figures are timed, often none).
  await sql.query(`
    INSERT INTO decisions (period_id, reviewer_id, risk_row_id, decision)
    SELECT '${period.id}'::uuid, x.reviewer_id, x.id, (CASE WHEN x.id % 4 = 0 THEN 'remove' ELSE 'retain' END)::"DecisionValue"
      FROM (SELECT a.id, a.reviewer_id, row_number() OVER (PARTITION BY a.id ORDER BY hashtext(a.id::text || a.reviewer_id::text), a.reviewer_id) AS n
              FROM (SELECT DISTINCT r.id, ac.reviewer_id
                      FROM risk_rows r JOIN assignment_criteria ac
                        ON (ac.criteria_type = 'system' AND ac.criteria_value = r.system) OR (ac.criteria_type = 'user_group' AND ac.criteria_value = r.user_group)
                     WHERE r.id % 2 = 0) a) x
     WHERE x.n <= ${deciders}`);
  await sql.query('VACUUM ANALYZE');
}
const decisions = Number((await sql.query<{ n: string }>('SELECT count(*)::text AS n FROM decisions'))[0]!.n);
const [spread] = await sql.query<{ lo: string; hi: string; rev3: string }>(`
  SELECT min(n)::text AS lo, max(n)::text AS hi, max(n) FILTER (WHERE u.email = 'rev3@bench.example')::text AS rev3
    FROM (SELECT u.id, u.email, count(d.id) AS n FROM users u LEFT JOIN decisions d ON d.reviewer_id = u.id WHERE u.role = 'reviewer' GROUP BY 1, 2) u`);
console.log(`${rows} rows, ${reviewers} reviewers, ${decisions} decisions (${spread!.lo}–${spread!.hi} a reviewer, rev3 ${spread!.rev3})`);
const reviewerCookie = await login('rev3@bench.example', 'Review#Pass1');
// 'Shared' is kept per period and refreshed when the rows or the criteria change: once here (timed),
// as the first All Reviews read after a load would, so the requests below read it kept.
{
  const t0 = performance.now();
  await freshSharedItems(prisma, await periodsWithDecisions(prisma));
  const [n] = await sql.query<{ items: string; shared: string }>(
    'SELECT count(*)::text AS items, count(*) FILTER (WHERE cardinality(reviewers) > 1)::text AS shared FROM shared_items',
  );
  console.log(`shared items refreshed in ${(performance.now() - t0).toFixed(0)} ms (${n!.items} items, ${n!.shared} shared)`);
}

// --append-rows N: an administrator appends N new rows through the upload path first, so the
// first (cold) requests below are the first reads after an upload (what an administrator opening
// the dashboard after each upload waits for), not after a start. Timed to 'completed' in the
// upload status and to the completion's announcement (open dashboards refetch on it).
const appendRows = Number(arg('append-rows', '0'));
if (appendRows > 0) {
  const small = path.join(dataDir, `append-${appendRows}.csv`);
  writeCsv(small, appendRows, { seed: Date.now() % 1_000_000 });
  const announced = (async () => {
    for await (const e of app.deps.pubsub.subscribe('dashboard:changed')) if (e.reason === 'upload') return performance.now();
    return NaN;
  })();
  const form = new FormData();
  form.append('uploadMode', 'append');
  form.append('emailNotification', 'false');
  form.append('file', await fs.openAsBlob(small), path.basename(small));
  const t0 = performance.now();
  const up = (await (await fetch(base + '/api/upload', { method: 'POST', body: form, headers: { cookie: adminCookie } })).json()) as { uploadId: string };
  let status = 'processing';
  while (status === 'processing') {
    await new Promise((r) => setTimeout(r, 100));
    status = (await getJson<{ status: string }>(`/api/upload-status/${up.uploadId}`)).status;
  }
  const completed = performance.now();
  console.log(`appended ${appendRows} rows: ${status} after ${(completed - t0).toFixed(0)} ms, announced after ${((await announced) - t0).toFixed(0)} ms`);
}

const cases: [string, string, string][] = [
  ['dashboard stats', '/api/dashboard/stats', adminCookie],
  ['dashboard trend, 30 days', '/api/dashboard/trend?range=30d', adminCookie],
  ['dashboard trend, 6 months', '/api/dashboard/trend?range=6m', adminCookie],
  ['dashboard categories', '/api/dashboard/categories', adminCookie],
  ['reviewer: dashboard stats', '/api/dashboard/stats', reviewerCookie],
  ['reviewer: dashboard trend', '/api/dashboard/trend?range=30d', reviewerCookie],
  ['recent reviews', '/api/dashboard/recent-reviews', adminCookie],
  ['all reviews, page 1 (100)', '/api/reviews/all?page=1&limit=100', adminCookie],
  ['all reviews, shared only', '/api/reviews/all?page=1&limit=100&shared=shared', adminCookie],
  ['all reviews, searched', '/api/reviews/all?page=1&limit=100&search=Martin', adminCookie],
  // Reviewers' names: 'Rev 3' finds rev3 and rev30…39, 'Rev' every reviewer.
  ['all reviews, searched by reviewer (Rev 3)', '/api/reviews/all?page=1&limit=100&search=Rev%203', adminCookie],
  ['all reviews, searched by reviewer (Rev)', '/api/reviews/all?page=1&limit=100&search=Rev', adminCookie],
  ['all reviews, page 50 (100)', '/api/reviews/all?page=50&limit=100', adminCookie],
  ['reviewer: all reviews, page 1', '/api/reviews/all?page=1&limit=100', reviewerCookie],
  ['reviewer: all reviews, remove only', '/api/reviews/all?page=1&limit=100&decision=remove', reviewerCookie],
];
// The first request of each (cold: what the first reader after a start or an upload waits for)
// apart from the warm p50 / p95 of the following runs.
console.log(
  `\nload average ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
);
console.log('\n| request | first (cold) ms | p50 ms | p95 ms |\n|---|---|---|---|');
for (const [name, url, cookie] of cases) {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    const r = await get(url, cookie);
    for await (const _chunk of r);
    if (r.statusCode !== 200) throw new Error(`${url}: ${r.statusCode}`);
    times.push(performance.now() - t);
  }
  const warm = times.length > 1 ? times.slice(1) : times;
  console.log(`| ${name} | ${times[0]!.toFixed(1)} | ${pct(warm, 50).toFixed(1)} | ${pct(warm, 95).toFixed(1)} |`);
}
console.log(
  `load average ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
);

// A reviewer's first dashboard after a criteria change: the administrator gives
// rev3 one more criterion (a role: a new scope, whose figures nobody has counted); the change sends
// the dashboard figures' job (jobs/dashboard-figures.ts), timed until rev3's figures are kept, then
// rev3's first stats, trend and categories. The criterion is deleted again afterwards.
{
  const rev3 = (await prisma.user.findUniqueOrThrow({ where: { email: 'rev3@bench.example' } })).id;
  const [role] = await sql.query<{ v: string }>(
    `SELECT role_profile AS v FROM risk_rows WHERE role_profile <> '' AND NOT EXISTS (SELECT 1 FROM assignment_criteria WHERE reviewer_id = '${rev3}' AND criteria_value = role_profile) LIMIT 1`,
  );
  const t0 = performance.now();
  const created = await fetch(base + '/api/assignment-criteria', {
    method: 'POST',
    headers: { cookie: adminCookie, 'content-type': 'application/json' },
    body: JSON.stringify({ reviewerId: rev3, criteriaType: 'role_profile', criteriaValue: role!.v }),
  });
  if (created.status !== 201) throw new Error(`criteria change: ${created.status}`);
  const criterion = ((await created.json()) as { id: string }).id;
  const changed = performance.now();
  const notKept = async () => {
    const [v] = await sql.query<{ v: string; c: string }>('SELECT version::text AS v, category_version::text AS c FROM risk_data_version WHERE id = 1');
    return (await figuresNotKept(prisma, BigInt(v!.v), Object.values(keysOf(scopeKey(await criteriaSetsFor(prisma, rev3)), BigInt(v!.c))))).size;
  };
  while ((await notKept()) > 0) await new Promise((r) => setTimeout(r, 50));
  const kept = performance.now();
  console.log(
    `\ncriteria change (rev3 + role ${role!.v}): answered after ${(changed - t0).toFixed(0)} ms, rev3's figures kept after ${(kept - t0).toFixed(0)} ms`,
  );
  // A table of the first and second request of each.
  const firstTwo = async (title: string, cases: readonly (readonly [string, string])[], cookie: string) => {
    console.log(`\n| ${title} | first ms | second ms |\n|---|---|---|`);
    for (const [name, url] of cases) {
      const times: number[] = [];
      for (let i = 0; i < 2; i++) {
        const t = performance.now();
        const r = await get(url, cookie);
        for await (const _chunk of r);
        if (r.statusCode !== 200) throw new Error(`${url}: ${r.statusCode}`);
        times.push(performance.now() - t);
      }
      console.log(`| ${name} | ${times[0]!.toFixed(1)} | ${times[1]!.toFixed(1)} |`);
    }
  };
  const rev3Dashboard = [
    ['dashboard stats', '/api/dashboard/stats'],
    ['dashboard trend, 30 days', '/api/dashboard/trend?range=30d'],
    ['dashboard categories', '/api/dashboard/categories'],
  ] as const;
  const timeRev3 = (label: string) => firstTwo(`rev3 after the criteria change, ${label}`, rev3Dashboard, reviewerCookie);
  await timeRev3('figures kept by the job');
  // The change itself kept the shared items up to date (services/kept/shared-items.ts keepSharedItemsAfter:
  // only rev3's places in the items; the full refresh timed above is what it saves); the job finds them
  // fresh. Timed until their stamp is fresh and the job done, then the administrator's first dashboard
  // stats and All Reviews page.
  const jobDone = async () =>
    (
      await sql.query<{ done: boolean }>(
        `SELECT (SELECT bool_and(s.data_version = v.version AND s.criteria_version = v.criteria_version)
                 FROM shared_item_periods s CROSS JOIN risk_data_version v WHERE v.id = 1)
          AND NOT EXISTS (SELECT 1 FROM pgboss.job WHERE name = '${JOBS.dashboardFigures}' AND state < 'completed') AS done`,
      )
    )[0]?.done === true;
  while (!(await jobDone())) await new Promise((r) => setTimeout(r, 100));
  console.log(`\nshared items fresh and the job done after ${(performance.now() - t0).toFixed(0)} ms (from the change)`);
  await firstTwo(
    'administrator after the criteria change',
    [
      ['dashboard stats', '/api/dashboard/stats'],
      ['all reviews, page 1 (100)', '/api/reviews/all?page=1&limit=100'],
    ],
    adminCookie,
  );
  // The same reads with no figure kept (rev3's new scope counted on its first read).
  await sql.query('DELETE FROM kept_figures');
  forgetCachedFigures();
  await timeRev3('nothing kept (counted on read)');
  const t1 = performance.now();
  await fetch(base + `/api/assignment-criteria/${criterion}`, { method: 'DELETE', headers: { cookie: adminCookie } });
  const fresh = async () =>
    (
      await sql.query<{ fresh: boolean }>(
        `SELECT bool_and(s.data_version = v.version AND s.criteria_version = v.criteria_version) AS fresh FROM shared_item_periods s CROSS JOIN risk_data_version v WHERE v.id = 1`,
      )
    )[0]?.fresh === true;
  console.log(`
criterion deleted: answered after ${(performance.now() - t1).toFixed(0)} ms, shared items fresh on its answer: ${await fresh()}`);
  // Its job (every scope's figures, the shared items) finishes here, not in the next run's timings.
  while (!(await jobDone())) await new Promise((r) => setTimeout(r, 100));
}
if (onlyRequests) {
  await app.close();
  if (!keep) await root.query(`DROP DATABASE ${dbName} WITH (FORCE)`);
  else console.log(`kept database ${dbName}`);
  await root.end();
  fs.rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
}

// The risk report against COPY of the same columns: the export's and the review metadata of the
// decision period, by the report's own joins, over the live rows in id order (not neutralised).
const live = Number((await sql.query<{ n: string }>('SELECT count(*)::text AS n FROM risk_rows'))[0]!.n);
const periodId =
  (await sql.query<{ id: string }>(`SELECT id::text AS id FROM review_periods WHERE status = 'active' ORDER BY created_at DESC LIMIT 1`))[0]?.id ?? null;
const baseline = Prisma.sql`SELECT ${Prisma.raw([...EXPORT_COLUMNS.map(([, c]) => `r.${c}`), ...RISK_REPORT_CELLS].join(', '))}
  FROM risk_rows r ${riskReportMetadata(periodId, null, await holdersOf(prisma, null))} WHERE ${LIVE_ROWS} ORDER BY r.id`;
let t = performance.now();
let bytes = 0;
for await (const chunk of sql.copyOut!(baseline.text, baseline.values)) bytes += chunk.length;
const copyMs = performance.now() - t;
const rssBefore = process.memoryUsage().rss;
let rssMax = rssBefore;
const sampler = setInterval(() => (rssMax = Math.max(rssMax, process.memoryUsage().rss)), 100);
t = performance.now();
let reportBytes = 0;
const res = await get('/api/reports/risk-report');
for await (const chunk of res) reportBytes += (chunk as Buffer).length;
const reportMs = performance.now() - t;
clearInterval(sampler);
const rate = (ms: number) => Math.round(live / (ms / 1000));
console.log(`\n| export | rows/s | MB | ratio |\n|---|---|---|---|`);
console.log(`| COPY (SELECT …) TO STDOUT | ${rate(copyMs)} | ${(bytes / 1e6).toFixed(1)} | 1.00 |`);
console.log(`| GET /api/reports/risk-report | ${rate(reportMs)} | ${(reportBytes / 1e6).toFixed(1)} | ${(copyMs / reportMs).toFixed(2)} |`);
console.log(
  `server RSS (benchmark and server share a process): ${(rssBefore / 1e6).toFixed(0)} MB before, ${(rssMax / 1e6).toFixed(0)} MB at most while streaming`,
);
// Export Results (the queue's CSV: the rows with the viewer's decision and the recommendation
// beside each), for the administrator: every row, against the same COPY as above.
t = performance.now();
let queueBytes = 0;
const queueRes = await get('/api/risks/export');
for await (const chunk of queueRes) queueBytes += (chunk as Buffer).length;
const queueMs = performance.now() - t;
console.log(
  `| GET /api/risks/export (Export Results, administrator) | ${rate(queueMs)} | ${(queueBytes / 1e6).toFixed(1)} | ${(copyMs / queueMs).toFixed(2)} |`,
);

// Closing the period: the close freezes its evidence in one transaction, then a job writes the
// signed bundle (every decision, the period's audit events with their chain, the summary); the
// bundle's write is timed from the close's answer to its row's 'ready'. The close runs on a server
// process started as `npm start` starts it (its heap cap), alone on the database, so the memory
// printed is the server's own, sampled from /proc every 100 ms.
if (periodId) {
  await app.close();
  const port = await freePort();
  const server = spawnServer(
    { DATABASE_URL: u.toString(), DATA_DIR: dataDir, LOG_LEVEL: 'warn', ADMIN_PASSWORD: 'Bench#Pass1', JOB_POLL_SECONDS: '0.5' },
    port,
    npmStartNodeFlags(),
  );
  await waitReady(server);
  const cookie = (await login('admin@example.com', 'Bench#Pass1', server.url))!;
  const rssMb = () => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${server.child.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  const closeRss = rssMb();
  let closeRssMax = closeRss;
  const closeSampler = setInterval(() => (closeRssMax = Math.max(closeRssMax, rssMb())), 100);
  t = performance.now();
  // node:http: no client time limit (a close of 1M decisions takes minutes).
  const closed = await new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = http.request(
      server.url + `/api/review-periods/${periodId}/close`,
      { method: 'PUT', headers: { cookie, 'content-type': 'application/json' } },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += String(c)));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify({ reason: 'Benchmark close' }));
  });
  const closeMs = performance.now() - t;
  if (closed.status !== 200) throw new Error(`close answered ${closed.status}: ${closed.text}`);
  const db = new pg.Client({ connectionString: u.toString() });
  await db.connect();
  let bundle: { status: string; size_bytes: string | null } | undefined;
  for (;;) {
    bundle = (
      await db.query<{ status: string; size_bytes: string | null }>(
        `SELECT status, size_bytes::text FROM evidence_bundles WHERE period_id = $1::uuid ORDER BY version DESC LIMIT 1`,
        [periodId],
      )
    ).rows[0];
    if (bundle && bundle.status !== 'writing') break;
    await new Promise((r) => setTimeout(r, 200));
  }
  const bundleMs = performance.now() - t - closeMs;
  clearInterval(closeSampler);
  const decisions = Number(
    (await db.query<{ n: string }>(`SELECT count(*)::text AS n FROM period_evidence_decisions WHERE period_id = $1::uuid`, [periodId])).rows[0]?.n ?? 0,
  );
  await db.end();
  server.child.kill('SIGTERM');
  await server.exited;
  console.log(
    `\nclose (evidence frozen): ${(closeMs / 1000).toFixed(1)} s; signed bundle ${bundle!.status} ${(bundleMs / 1000).toFixed(1)} s later, ` +
      `${(Number(bundle!.size_bytes ?? 0) / 1e6).toFixed(1)} MB, ${decisions} evidence rows; ` +
      `server RSS (npm start's heap cap: ${npmStartNodeFlags().join(' ')}) ${closeRss.toFixed(0)} MB before, ${closeRssMax.toFixed(0)} MB at most; load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
  );
} else {
  await app.close();
}

if (!keep) await root.query(`DROP DATABASE ${dbName} WITH (FORCE)`);
else console.log(`kept database ${dbName}`);
await root.end();
fs.rmSync(dataDir, { recursive: true, force: true });
