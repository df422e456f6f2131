// The generated administrator password on the first start stands out from the
// log in a box, and a lost one is recovered with `npm run
// reset-admin-password`: a new generated password, printed in the same box,
// to be changed at sign-in, the old password and sessions no longer valid.
// The command refuses while a server uses the embedded database.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, spawnServer, waitReady, type ServerProcess } from '../helpers/process.js';
import { Client } from '../helpers/server.js';

const root = path.resolve(import.meta.dirname, '../../..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'grc-admin-pass-'));
const dataDir = path.join(tmp, 'data');
const running: ServerProcess[] = [];
afterAll(async () => {
  for (const p of running) p.child.kill('SIGKILL');
  await Promise.all(running.map((p) => p.exited));
  fs.rmSync(tmp, { recursive: true, force: true });
});

const env = { DATA_DIR: dataDir, DATABASE_URL: '', ADMIN_PASSWORD: '', LOG_LEVEL: 'info', SHUTDOWN_DRAIN_SECONDS: '0' };

async function start() {
  const p = spawnServer(env, await freePort());
  running.push(p);
  await waitReady(p);
  return p;
}

/** The password of the box: the line 'Password: …' between '║' borders. */
function boxedPassword(out: string): string | undefined {
  expect(out).toMatch(/╔═+╗\n║ GRC Platform: administrator sign-in +║\n/);
  return /║ Password: (\S+) +║/.exec(out)?.[1];
}

function resetCommand() {
  return spawnSync(process.execPath, ['--import', 'tsx', 'scripts/reset-admin-password.ts'], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
    encoding: 'utf8',
  });
}

// The embedded database is what it exercises: the PostgreSQL pass of CI would run the same again.
describe.skipIf(Boolean(process.env.DATABASE_URL))('the administrator password', () => {
  it('is printed in a box on the first start, and reset by the command when lost', async () => {
    let p = await start();
    const first = boxedPassword(p.stdout());
    expect(first).toBeTruthy();
    const admin = new Client(p.url);
    expect((await admin.login('admin@example.com', first!)).status).toBe(200);
    await admin.put('/api/internal/change-password', { currentPassword: first, newPassword: 'Chosen#Pass1' });

    // While the server holds the embedded database, the command refuses.
    const refused = resetCommand();
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/is using .*: stop it first/);

    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(0);
    const done = resetCommand();
    expect(done.status, done.stderr).toBe(0);
    const reset = boxedPassword(done.stdout);
    expect(reset).toBeTruthy();
    expect(reset).not.toBe(first);

    p = await start();
    const again = new Client(p.url);
    expect((await again.login('admin@example.com', 'Chosen#Pass1')).status).toBe(401);
    const signedIn = await again.login('admin@example.com', reset!);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user.passwordResetRequired).toBe(true);
  }, 180_000);
});
