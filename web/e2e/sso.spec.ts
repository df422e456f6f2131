import { expect, test } from '@playwright/test';
import { startIdp, type TestIdp } from '../../api/test/helpers/standins/idp';
import { freePort } from '../../api/test/helpers/process';
import { startAppServer, type AppServer } from './app-server';

// Single sign-on end to end in Chromium. The server scripts/e2e.mjs starts
// runs with single sign-on off (the other specs rely on that); this spec
// starts its own identity provider (oidc-provider, in this process) and a
// second app server configured for it, on a fresh embedded database, serving
// the same web build.

let idp: TestIdp;
let server: AppServer | null = null;
let ssoUrl = '';

test.beforeAll(async () => {
  test.setTimeout(120_000);
  idp = await startIdp();
  const port = await freePort();
  idp.attach([`http://127.0.0.1:${port}`]);
  server = await startAppServer({ name: 'sso', port, env: idp.env() });
  ssoUrl = server.url;
});

test.afterAll(async () => {
  await server?.stop();
  await idp?.close();
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
