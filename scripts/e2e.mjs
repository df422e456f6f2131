// `npm run test:e2e`: builds the web app, starts the real server on a fresh
// database (PGlite in a temporary DATA_DIR, or a new database on the
// PostgreSQL server when DATABASE_URL is set) with a real SMTP server for its
// mail, runs the Playwright specs in Debian's Chromium, and stops everything.
// Specs read received mail from E2E_MAILBOX_URL.
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

// E2E_WEB_DIST builds into another folder, so two runs on one machine do not collide.
const webDist = path.resolve(root, process.env.E2E_WEB_DIST ?? 'web/dist');
if (!process.env.E2E_SKIP_BUILD) {
  const b = spawnSync(process.execPath, ['scripts/build-web.mjs', '--outDir', webDist, '--emptyOutDir'], { stdio: 'inherit', cwd: root });
  if (b.status !== 0) process.exit(b.status ?? 1);
}

// A real SMTP server standing in for the company relay, with a small HTTP
// mailbox the specs read: GET http://127.0.0.1:<E2E_MAILBOX_PORT>/messages.
const { SMTPServer } = await import('smtp-server');
const http = await import('node:http');
const messages = [];
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData(stream, session, callback) {
    const chunks = [];
    stream.on('data', (c) => chunks.push(c));
    stream.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const i = raw.indexOf('\r\n\r\n');
      const head = raw.slice(0, i);
      let body = raw.slice(i + 4);
      if (/Content-Transfer-Encoding: quoted-printable/i.test(head)) {
        body = Buffer.from(
          body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, h) => String.fromCharCode(parseInt(h, 16))),
          'latin1',
        ).toString('utf8');
      }
      messages.push({
        to: session.envelope.rcptTo.map((r) => r.address),
        subject: /^Subject: (.*)$/im.exec(head)?.[1]?.trim() ?? '',
        body,
      });
      callback();
    });
  },
});
await new Promise((r) => smtp.listen(0, '127.0.0.1', r));
const smtpPort = smtp.server.address().port;
const mailbox = http.createServer((req, res) => {
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify(messages));
});
await new Promise((r) => mailbox.listen(0, '127.0.0.1', r));
const mailboxUrl = `http://127.0.0.1:${mailbox.address().port}/messages`;

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
  SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
  WEB_DIST: webDist,
  JOB_POLL_SECONDS: '0.5',
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

// Risk rows for the review screens (the specs' fixture), loaded before the server starts.
const fixture = path.join(root, 'web/e2e/fixtures/risk-rows.json');
if (fs.existsSync(fixture)) {
  const seeded = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/seed-rows.ts', fixture], { cwd: root, env, stdio: 'inherit' });
  if (seeded.status !== 0) process.exit(seeded.status ?? 1);
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
  // Asynchronous, not spawnSync: this process must keep serving the SMTP
  // server and the mailbox while the specs run.
  const pw = spawn(process.execPath, [require.resolve('@playwright/test/cli'), 'test', ...process.argv.slice(2)], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, E2E_BASE_URL: baseUrl, E2E_MAILBOX_URL: mailboxUrl },
  });
  code = await new Promise((resolve) => pw.on('exit', (status) => resolve(status ?? 1)));
} catch (err) {
  console.error(err.message);
} finally {
  server.kill('SIGTERM');
  await new Promise((r) => (serverExited ? r() : server.on('exit', r)));
  await dropDb();
  smtp.close();
  mailbox.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
process.exit(code);
