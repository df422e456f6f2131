import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { startIdp, type TestIdp } from '../../api/test/helpers/idp';

// Single sign-on end to end in Chromium. The server scripts/e2e.mjs starts
// runs with single sign-on off (the other specs rely on that); this spec
// starts its own identity provider (oidc-provider, in this process) and a
// second app server configured for it, on a fresh embedded database, serving
// the same web build.

const root = process.cwd();
let idp: TestIdp;
let server: ChildProcess | null = null;
let ssoUrl = '';
let dataDir = '';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  idp = await startIdp();
  const port = await freePort();
  ssoUrl = `http://127.0.0.1:${port}`;
  idp.attach([ssoUrl]);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'grc-e2e-sso-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...idp.env(),
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    ADMIN_EMAIL: 'admin@example.com',
    ADMIN_PASSWORD: 'Initial#Pass1',
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    WEB_DIST: path.resolve(root, process.env.E2E_WEB_DIST ?? 'web/dist'),
    JOB_POLL_SECONDS: '0.5',
  };
  delete env.DATABASE_URL;
  delete env.SMTP_URL;
  server = spawn(process.execPath, ['--import', 'tsx', 'api/src/main.ts'], { cwd: root, env, stdio: ['ignore', 'inherit', 'inherit'] });
  let exited = false;
  server.on('exit', () => (exited = true));
  await expect
    .poll(
      async () => {
        if (exited) throw new Error('the single sign-on server exited before it was ready');
        return fetch(`${ssoUrl}/readyz`).then((r) => r.ok).catch(() => false);
      },
      { timeout: 60_000 },
    )
    .toBe(true);
});

test.afterAll(async () => {
  if (server && server.exitCode === null) {
    const stopped = new Promise((r) => server!.once('exit', r));
    server.kill('SIGTERM');
    await stopped;
  }
  await idp?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

test('an existing user signs in through the identity provider, and Sign Out goes through its sign-out to /internal-login', async ({ page }) => {
  // The first administrator, whose initial password still waits for its forced change.
  idp.accounts.set('ada', { email: 'Admin@Example.com', email_verified: true, given_name: 'Ada' });

  await page.goto(`${ssoUrl}/internal-login`);
  await expect(page.getByRole('heading', { name: 'Internal User Login' })).toBeVisible();
  await page.getByRole('link', { name: 'Sign in with single sign-on' }).click();

  await expect(page.getByRole('heading', { name: 'Test identity provider' })).toBeVisible();
  expect(page.url().startsWith(idp.issuer)).toBe(true);
  await page.getByLabel('Account').fill('ada');
  await page.getByRole('button', { name: 'Sign in' }).click();

  await expect(page).toHaveURL(`${ssoUrl}/`);
  await expect(page.getByRole('heading', { name: 'Risk Management Dashboard' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign Out' })).toBeVisible();
  // No forced change dialog: the provider vouched for the person.
  await expect(page.getByRole('dialog', { name: 'Change Password' })).toHaveCount(0);
  const me = await page.request.get(`${ssoUrl}/api/auth/user`);
  expect(me.status()).toBe(200);
  expect(await me.json()).toMatchObject({ email: 'admin@example.com', role: 'admin', authMethod: 'oidc' });

  await page.getByRole('button', { name: 'Sign Out' }).click();
  await expect(page.getByRole('heading', { name: 'Sign out of the test identity provider?' })).toBeVisible();
  await page.getByRole('button', { name: 'Yes, sign me out' }).click();
  await expect(page).toHaveURL(`${ssoUrl}/internal-login`);
  await expect(page.getByRole('heading', { name: 'Internal User Login' })).toBeVisible();
  expect((await page.request.get(`${ssoUrl}/api/auth/user`)).status()).toBe(401);
  await page.goto(`${ssoUrl}/`);
  await expect(page.getByRole('button', { name: 'Sign In to Continue' })).toBeVisible();
});

test('a person without an account is told so, with a way to the internal login', async ({ page }) => {
  idp.accounts.set('stranger', { email: 'stranger@example.com', email_verified: true });
  await page.goto(`${ssoUrl}/api/login`);
  await page.getByLabel('Account').fill('stranger');
  await page.getByRole('button', { name: 'Sign in' }).click();

  await expect(page).toHaveURL(`${ssoUrl}/sign-in-refused?reason=unknown`);
  await expect(page.getByRole('heading', { name: 'Sign-in refused' })).toBeVisible();
  await expect(page.getByText('there is no account for you on this platform')).toBeVisible();
  await page.getByRole('link', { name: 'Go to the internal login' }).click();
  await expect(page.getByRole('heading', { name: 'Internal User Login' })).toBeVisible();
});

test('with single sign-on off, the internal login offers no single sign-on and /api/login goes to it', async ({ page }) => {
  const asked = page.waitForResponse((r) => r.url().endsWith('/api/auth/sso'));
  await page.goto('/internal-login');
  expect(await (await asked).json()).toMatchObject({ enabled: false });
  await expect(page.getByRole('heading', { name: 'Internal User Login' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Sign in with single sign-on' })).toHaveCount(0);
  await page.goto('/api/login');
  await expect(page).toHaveURL(/\/internal-login$/);
});
