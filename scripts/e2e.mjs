// `npm run test:e2e`: builds the web app, starts the real server on a fresh
// database (PGlite in a temporary DATA_DIR, or a new database on the
// PostgreSQL server when DATABASE_URL is set), runs the Playwright specs in
// Debian's Chromium, and stops the server.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const root = path.resolve(import.meta.dirname, '..');
const require = createRequire(import.meta.url);
const port = Number(process.env.E2E_PORT ?? 3100);
const baseUrl = `http://127.0.0.1:${port}`;

if (!process.env.E2E_SKIP_BUILD) {
  const b = spawnSync(process.execPath, ['scripts/build-web.mjs'], { stdio: 'inherit', cwd: root });
  if (b.status !== 0) process.exit(b.status ?? 1);
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'grc-e2e-'));
const env = {
  ...process.env,
  PORT: String(port),
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  ADMIN_EMAIL: 'admin@example.com',
  ADMIN_PASSWORD: 'Initial#Pass1',
  LOG_LEVEL: 'warn',
  NODE_ENV: 'production',
};

let dropDb = async () => {};
if (process.env.DATABASE_URL) {
  const pg = (await import('pg')).default;
  const name = `grc_e2e_${crypto.randomBytes(4).toString('hex')}`;
  const c = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await c.connect();
  await c.query(`CREATE DATABASE "${name}"`);
  await c.end();
  const u = new URL(process.env.DATABASE_URL);
  u.pathname = `/${name}`;
  env.DATABASE_URL = u.toString();
  dropDb = async () => {
    const d = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await d.connect();
    await d.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await d.end();
  };
}

const server = spawn(process.execPath, ['--import', 'tsx', 'api/src/main.ts'], { cwd: root, env, stdio: ['ignore', 'inherit', 'inherit'] });
let serverExited = false;
server.on('exit', () => (serverExited = true));

async function waitReady() {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (serverExited) throw new Error('server exited before it was ready');
    try {
      const r = await fetch(`${baseUrl}/readyz`);
      if (r.ok) return;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('server did not become ready in 60 s');
}

let code = 1;
try {
  await waitReady();
  const pw = spawnSync(process.execPath, [require.resolve('@playwright/test/cli'), 'test', ...process.argv.slice(2)], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, E2E_BASE_URL: baseUrl },
  });
  code = pw.status ?? 1;
} catch (err) {
  console.error(err.message);
} finally {
  server.kill('SIGTERM');
  await new Promise((r) => (serverExited ? r() : server.on('exit', r)));
  await dropDb();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
process.exit(code);
