// The JavaScript a browser downloads on the first load of each path:
// index.html's scripts and modulepreloads with everything they
// import statically, plus the chunks of the path's lazy screens (and their
// static imports). Prints raw, gzip (level 6) and brotli (quality 4, as the
// server compresses on the fly; quality 11 for reference) byte counts.
//
// Then Lighthouse on the signed-in dashboard and risk queue (scripts/bench-web-lighthouse.mjs:
// a server on a fresh PostgreSQL database with --rows generated rows loaded).
//
//   npm run bench:web                      builds the web app into a temporary folder, then measures
//   npm run bench:web -- --dist <folder>   measures an existing build
//   npm run bench:web -- --rows 1000000    Lighthouse with 1M rows loaded (default 20,000)
//   npm run bench:web -- --no-lighthouse   byte counts only
//   (--port P, --runs N, --keep-db and --reuse-db NAME go to the Lighthouse part)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { spawnSync } from 'node:child_process';

const root = path.resolve(import.meta.dirname, '..');
const distArg = process.argv.indexOf('--dist');
let dist = distArg > 0 ? path.resolve(process.argv[distArg + 1]) : null;
if (!dist) {
  dist = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-web-'));
  const r = spawnSync(process.execPath, [path.join(root, 'scripts/build-web.mjs'), '--outDir', dist], { stdio: 'inherit', cwd: root });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

/**
 * The screens each path shows, by the module names Vite gives their chunks
 * (a module not in a chunk of its own is in the entry's, counted already).
 */
const PATHS = {
  'sign-in (/ signed out, then /internal-login)': ['LandingRoute', 'InternalLoginRoute'],
  // A returning visitor with a stored user sees the page's frame while the session loads, not the landing page.
  'dashboard (/ signed in)': ['AppShell', 'notificationBellLoader', 'DashboardRoute', 'dashboardLoader'],
  'risk queue (/risk-review, administrator)': ['AppShell', 'notificationBellLoader', 'RiskReviewRoute', 'riskReviewLoader'],
};

const assetsDir = path.join(dist, 'assets');
const files = fs.readdirSync(assetsDir).filter((f) => f.endsWith('.js'));
const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
const read = (f) => fs.readFileSync(path.join(assetsDir, f));

function staticClosure(start) {
  const seen = new Set();
  const todo = [...start];
  while (todo.length) {
    const f = todo.pop();
    if (seen.has(f) || !files.includes(f)) continue;
    seen.add(f);
    const src = read(f).toString('utf8');
    for (const m of src.matchAll(/(?:\bimport|\bfrom)\s*["']\.\/([^"']+\.js)["']/g)) todo.push(m[1]);
  }
  return seen;
}

const entry = [...html.matchAll(/(?:src|href)="\/assets\/([^"]+\.js)"/g)].map((m) => m[1]);
const entrySet = staticClosure(entry);

function sizes(set) {
  let raw = 0;
  let gzip = 0;
  let br4 = 0;
  let br11 = 0;
  for (const f of set) {
    const b = read(f);
    raw += b.length;
    gzip += zlib.gzipSync(b, { level: 6 }).length;
    br4 += zlib.brotliCompressSync(b, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } }).length;
    br11 += zlib.brotliCompressSync(b, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  }
  return { files: set.size, raw, gzip, br4, br11 };
}

const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const rows = [['index.html entry', entrySet]];
for (const [name, modules] of Object.entries(PATHS)) {
  const chunks = files.filter((f) => modules.some((m) => f.startsWith(`${m}-`)));
  rows.push([name, new Set([...entrySet, ...staticClosure(chunks)])]);
}
const all = sizes(new Set(files));
console.log(`web build: ${dist}`);
console.log(
  `${'first load of'.padEnd(46)} ${'files'.padStart(5)} ${'raw'.padStart(10)} ${'gzip'.padStart(10)} ${'brotli q4'.padStart(10)} ${'brotli q11'.padStart(10)}`,
);
for (const [name, set] of [...rows, ['(every JS file of the build)', new Set(files)]]) {
  const s = name.startsWith('(every') ? all : sizes(set);
  console.log(
    `${name.padEnd(46)} ${String(s.files).padStart(5)} ${kb(s.raw).padStart(10)} ${kb(s.gzip).padStart(10)} ${kb(s.br4).padStart(10)} ${kb(s.br11).padStart(10)}`,
  );
}

if (!process.argv.includes('--no-lighthouse')) {
  const passOn = [];
  for (const name of ['rows', 'port', 'runs', 'reuse-db']) {
    const i = process.argv.indexOf(`--${name}`);
    if (i > 0) passOn.push(`--${name}`, process.argv[i + 1]);
  }
  if (process.argv.includes('--keep-db')) passOn.push('--keep-db');
  const r = spawnSync(process.execPath, [path.join(root, 'scripts/bench-web-lighthouse.mjs'), '--dist', dist, ...passOn], { stdio: 'inherit', cwd: root });
  process.exit(r.status ?? 1);
}
