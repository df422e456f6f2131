// `npm run backup` and `npm run restore` end to end on the embedded database:
// a server writes data, stops; the backup is taken; the server writes more and
// stops; the restore brings back exactly the backed-up state (the later user is
// gone, the earlier one and the stored files are there). Both refuse while a
// server uses DATA_DIR.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, spawnServer, waitReady, type ServerProcess } from '../helpers/process.js';
import { Client } from '../helpers/server.js';

const root = path.resolve(import.meta.dirname, '../../..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'grc-backup-'));
const dataDir = path.join(tmp, 'data');
const archive = path.join(tmp, 'backups', 'grc.tar.gz');
const running: ServerProcess[] = [];
afterAll(async () => {
  for (const p of running) p.child.kill('SIGKILL');
  await Promise.all(running.map((p) => p.exited));
  fs.rmSync(tmp, { recursive: true, force: true });
});

const env = { DATA_DIR: dataDir, DATABASE_URL: '', ADMIN_PASSWORD: 'Backup#One1', LOG_LEVEL: 'warn', SHUTDOWN_DRAIN_SECONDS: '0' };

async function start(): Promise<{ p: ServerProcess; admin: Client }> {
  const p = spawnServer(env, await freePort());
  running.push(p);
  await waitReady(p);
  const admin = new Client(p.url);
  if ((await admin.login('admin@example.com', 'Backup#Two2')).status !== 200) {
    await admin.login('admin@example.com', 'Backup#One1');
    await admin.put('/api/internal/change-password', { currentPassword: 'Backup#One1', newPassword: 'Backup#Two2' });
  }
  return { p, admin };
}

async function stop(p: ServerProcess) {
  p.child.kill('SIGTERM');
  expect(await p.exited).toBe(0);
}

function npm(script: string, ...args: string[]) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', `scripts/${script}.ts`, ...args], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
    encoding: 'utf8',
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

async function userEmails(admin: Client): Promise<string[]> {
  const r = await admin.get('/api/users');
  return (r.body as { email: string }[]).map((u) => u.email).sort();
}

describe('backup and restore of DATA_DIR', () => {
  it('restores exactly what was backed up, and refuses while a server runs', async () => {
    let { p, admin } = await start();
    expect(
      (await admin.post('/api/users', { email: 'kept@example.com', firstName: 'Kept', lastName: 'User', role: 'reviewer', password: 'Kept#Pass1' })).status,
    ).toBe(201);
    fs.mkdirSync(path.join(dataDir, 'uploads'), { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'uploads', 'marker.csv'), 'stored upload');

    const busy = npm('backup', '--out', archive);
    expect(busy.code).toBe(1);
    expect(busy.err).toMatch(/^\[backup\] the server \(process \d+\) is using .*: stop it first/);
    await stop(p);

    const made = npm('backup', '--out', archive);
    expect(made.err).toBe('');
    expect(made.code).toBe(0);
    expect(made.out).toMatch(/\[backup\] .* -> .*grc\.tar\.gz/);

    ({ p, admin } = await start());
    expect(
      (await admin.post('/api/users', { email: 'later@example.com', firstName: 'Later', lastName: 'User', role: 'reviewer', password: 'Later#Pass1' })).status,
    ).toBe(201);
    expect(await userEmails(admin)).toEqual(['admin@example.com', 'kept@example.com', 'later@example.com']);
    expect(npm('restore', archive, '--force').code).toBe(1);
    await stop(p);

    expect(npm('restore', archive).err).toMatch(/is not empty: add --force/);
    const restored = npm('restore', archive, '--force');
    expect(restored.err).toBe('');
    expect(restored.code).toBe(0);
    expect(restored.out).toMatch(/\[restore\] .*: \d+ migrations, 2 users; the previous DATA_DIR is in .*before-restore-/);

    ({ p, admin } = await start());
    expect(await userEmails(admin)).toEqual(['admin@example.com', 'kept@example.com']);
    expect(fs.readFileSync(path.join(dataDir, 'uploads', 'marker.csv'), 'utf8')).toBe('stored upload');
    await stop(p);
  }, 300_000);
});
