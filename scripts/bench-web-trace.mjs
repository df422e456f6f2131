// The first load's main-thread CPU time, two (or more) web builds side by side:
// a measure of what Lighthouse's Total Blocking Time counts that does not follow
// the machine's load. Lighthouse multiplies each task's wall time by 4 (its mobile
// CPU slowdown); on a shared 2-core machine wall time is mostly waiting. Here each
// task's CPU time (`tdur` of the renderer main thread's RunTask in a Chrome trace)
// is multiplied by 4 and what is over 50 ms is summed: the *blocking estimate*
// (docs/performance.md, 'Web first load').
//
//   node scripts/bench-web-trace.mjs --reuse-db NAME --dist A --dist B [--runs 6] [--port 3803] [--profile]
//
// NAME is a database the benchmarks made (bench:web's --keep-db, bench:reports'
// --keep-db); only what the app does when pages load is written to it (sessions).
// One server per build (ports --port, --port+1, ...), signed in once as the
// administrator through the API; each run is a cold load (HTTP cache cleared) of
// `/` and `/risk-review` at 412 px, the builds loaded alternately. Prints every
// run's estimate and the longest tasks (CPU ms ×4), then each build's medians.
// --profile: a CPU profile of one more load of each page per build, whose
// heaviest functions (self time) are printed.
import os from 'node:os';
import fs from 'node:fs';
import path from 'node:path';
import { startWebServer } from './bench-web-server.mjs';
import { benchTool } from './bench-tools.mjs';

const puppeteer = (await benchTool('puppeteer-core')).default;

const argv = process.argv.slice(2);
const all = (name) => argv.flatMap((a, i) => (a === `--${name}` && i + 1 < argv.length ? [argv[i + 1]] : []));
const arg = (name, dflt) => all(name)[0] ?? dflt;
const dists = all('dist').map((d) => path.resolve(d));
const dbName = arg('reuse-db', '');
const runs = Number(arg('runs', '6'));
const port0 = Number(arg('port', '3803'));
const profile = argv.includes('--profile');
if (!dbName || dists.length === 0) {
  console.error('usage: node scripts/bench-web-trace.mjs --reuse-db NAME --dist A [--dist B] [--runs 6] [--port 3803] [--profile]');
  process.exit(2);
}
const pgUrl = new URL(process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres');
pgUrl.pathname = `/${dbName}`;
const PASSWORD = 'Bench#Pass1';
const PAGES = [
  ['dashboard', '/', () => document.querySelector('h1')?.textContent === 'Risk Management Dashboard' && !document.querySelector('.bf')],
  ['risk queue', '/risk-review', () => document.querySelectorAll('tbody tr').length > 3 && !document.querySelector('.bf')],
];

const servers = dists.map((dist, i) => {
  const port = port0 + i;
  const child = startWebServer({
    port,
    databaseUrl: pgUrl.toString(),
    dist,
    dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'grc-bench-trace-')),
    adminPassword: PASSWORD,
    jobPollSeconds: 60,
  });
  return { dist, base: `http://127.0.0.1:${port}`, child, label: `${String.fromCharCode(65 + i)} ${path.basename(dist)}` };
});
let browser;
async function stop(code) {
  await browser?.close().catch(() => {});
  for (const s of servers) s.child.kill('SIGTERM');
  process.exit(code);
}
process.on('SIGINT', () => void stop(130));

const median = (v) => [...v].sort((a, b) => a - b)[Math.floor((v.length - 1) / 2)];

/** The page's renderer main thread's tasks (CPU ms) from the navigation on (the last one to about:blank before it). */
function tasksOf(events) {
  const blank = events.filter((e) => e.name === 'navigationStart' && e.args?.data?.documentLoaderURL === 'about:blank').map((e) => e.ts);
  const from = blank.length ? Math.max(...blank) : 0;
  const byThread = new Map();
  for (const e of events) {
    if (e.name !== 'RunTask' || e.ph !== 'X' || e.ts < from) continue;
    const k = `${e.pid}:${e.tid}`;
    if (!byThread.has(k)) byThread.set(k, []);
    byThread.get(k).push({ cpu: (e.tdur ?? 0) / 1000, wall: e.dur / 1000 });
  }
  const mains = new Set(events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  const cpu = (tasks) => tasks.reduce((sum, t) => sum + t.cpu, 0);
  return (
    [...byThread]
      .filter(([k]) => mains.has(k))
      .map(([, tasks]) => tasks)
      .sort((x, y) => cpu(y) - cpu(x))[0] ?? []
  );
}

try {
  for (const s of servers) {
    for (let i = 0; ; i++) {
      if (s.child.exitCode != null) throw new Error('a server exited');
      if (
        await fetch(`${s.base}/readyz`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      if (i > 240) throw new Error('a server did not become ready in 2 minutes');
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  browser = await puppeteer.launch({
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  const page = await browser.newPage();
  await page.setViewport({ width: 412, height: 823, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true });
  // Sign in through the form on the first server; the session cookie is the host's (every port's),
  // the stored user each origin's: copied to the others.
  const [first, ...others] = servers;
  await page.goto(`${first.base}/internal-login`);
  await page.waitForSelector('input[type="password"]');
  await page.type('input[type="email"], input[name="email"]', 'admin@example.com');
  await page.type('input[type="password"]', PASSWORD);
  await Promise.all([page.waitForFunction(() => window.location.pathname === '/', { timeout: 60_000 }), page.keyboard.press('Enter')]);
  await page.waitForFunction(PAGES[0][2], { timeout: 60_000 });
  const stored = await page.evaluate(() => JSON.stringify(Object.entries(localStorage)));
  for (const s of others) {
    await page.goto(`${s.base}/`);
    await page.evaluate((entries) => JSON.parse(entries).forEach(([k, v]) => localStorage.setItem(k, v)), stored);
    await page.reload();
    await page.waitForFunction(PAGES[0][2], { timeout: 60_000 });
  }
  const cdp = await page.createCDPSession();
  await cdp.send('Network.enable');
  const load = async (s, route, ready) => {
    await page.goto('about:blank');
    await cdp.send('Network.clearBrowserCache');
    await page.goto(`${s.base}${route}`, { waitUntil: 'load' });
    await page.waitForFunction(ready, { timeout: 60_000, polling: 50 });
    await new Promise((r) => setTimeout(r, 1500)); // the idle work after the first render
  };
  const results = new Map(); // label|page -> [{estimate, longest}]
  console.log(
    `blocking estimate: each main-thread task's CPU time ×4, summed above 50 ms (load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')})`,
  );
  for (let run = 0; run < runs; run++) {
    for (const [name, route, ready] of PAGES) {
      const order = run % 2 ? [...servers].reverse() : servers;
      for (const s of order) {
        await page.goto('about:blank');
        await page.tracing.start({
          categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'toplevel', 'blink.user_timing', 'loading', '__metadata'],
        });
        await load(s, route, ready);
        const events = JSON.parse(Buffer.from(await page.tracing.stop()).toString()).traceEvents;
        if (process.env.TRACE_DUMP) fs.writeFileSync(process.env.TRACE_DUMP, JSON.stringify(events));
        const tasks = tasksOf(events);
        const estimate = tasks.reduce((sum, t) => sum + Math.max(0, t.cpu * 4 - 50), 0);
        const total = tasks.reduce((sum, t) => sum + t.cpu, 0);
        const longest = tasks
          .map((t) => Math.round(t.cpu * 4))
          .sort((a, b) => b - a)
          .slice(0, 4);
        const key = `${s.label}|${name}`;
        if (!results.has(key)) results.set(key, []);
        results.get(key).push({ estimate, total });
        console.log(
          `run ${run + 1} ${name.padEnd(10)} ${s.label.padEnd(28)} estimate ${String(Math.round(estimate)).padStart(4)} ms  CPU ${total.toFixed(0).padStart(4)} ms  longest ×4: ${longest.join(', ')}`,
        );
      }
    }
  }
  console.log('\nmedians:');
  for (const [key, v] of results) {
    const [label, name] = key.split('|');
    console.log(
      `${name.padEnd(10)} ${label.padEnd(28)} estimate ${Math.round(median(v.map((x) => x.estimate)))} ms (${v.map((x) => Math.round(x.estimate)).join(', ')}), main-thread CPU ${Math.round(median(v.map((x) => x.total)))} ms`,
    );
  }
  if (profile) {
    for (const [name, route, ready] of PAGES) {
      for (const s of servers) {
        await page.goto('about:blank');
        await cdp.send('Profiler.enable');
        await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
        await cdp.send('Profiler.start');
        await load(s, route, ready);
        const { profile: p } = await cdp.send('Profiler.stop');
        const dt = new Map(p.nodes.map((n) => [n.id, 0]));
        for (let i = 0; i < p.samples.length; i++) dt.set(p.samples[i], dt.get(p.samples[i]) + (p.timeDeltas[i] ?? 0));
        const self = new Map();
        for (const n of p.nodes) {
          const f = n.callFrame;
          const k = `${f.functionName || '(anonymous)'} ${f.url ? `${path.basename(f.url)}:${f.lineNumber + 1}:${f.columnNumber + 1}` : ''}`;
          self.set(k, (self.get(k) ?? 0) + dt.get(n.id) / 1000);
        }
        console.log(`\nprofile ${name} ${s.label}: heaviest self time (ms, unthrottled)`);
        for (const [k, ms] of [...self]
          .filter(([k]) => !/^\((idle|program|root)\)/.test(k))
          .sort((a, b) => b[1] - a[1])
          .slice(0, 25))
          console.log(`${ms.toFixed(1).padStart(7)}  ${k}`);
      }
    }
  }
  await stop(0);
} catch (e) {
  console.error(e);
  await stop(1);
}
