import { expect, test } from '@playwright/test';
import { ADMIN_CHANGED_PASSWORD, ADMIN_EMAIL, ensureAdminSession, signInThroughForm, toast } from './helpers';

test('a signed-in administrator sees the dashboard and is welcomed', async ({ page, request }) => {
  await ensureAdminSession(request);
  await signInThroughForm(page, ADMIN_EMAIL, ADMIN_CHANGED_PASSWORD);
  await expect(toast(page, 'Login Successful')).toContainText('Welcome back, ');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { name: 'Risk Management Dashboard', level: 1 })).toBeVisible();
});

test('every screen of SPEC §2 is built: each shows its title and none says it is not available yet', async ({ page, request }) => {
  await ensureAdminSession(request);
  await signInThroughForm(page, ADMIN_EMAIL, ADMIN_CHANGED_PASSWORD);
  await expect(page.getByRole('heading', { name: 'Risk Management Dashboard' })).toBeVisible();

  const screens: Array<[string, string]> = [
    ['/risk-simulation', 'Risk Simulation & Analysis'],
    ['/admin-settings', 'Admin Settings'],
    ['/reports', 'Reports'],
    ['/all-reviews', 'All Review Decisions'],
  ];
  for (const [path, title] of screens) {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: title, exact: true, level: 1 })).toBeVisible();
    await expect(page.getByText('This screen is not available yet.')).toHaveCount(0);
  }

  // /assigned-risks is for reviewers only.
  await page.goto('/assigned-risks');
  await expect(page.getByText('Access Restricted')).toBeVisible();
  await expect(page.getByText('Only reviewers can access this page.')).toBeVisible();

  await page.goto('/no-such-page');
  await expect(page.getByRole('heading', { name: '404 Page Not Found' })).toBeVisible();
  await expect(page.getByText('Did you forget to add the page to the router?')).toBeVisible();
});

test("signed out, / is the landing page, a page's path goes to sign-in keeping the link, an unknown path is not found", async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('button', { name: 'Sign In to Continue' })).toBeVisible();
  // A path that is no page stays the not-found screen (the dashboard is /).
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: '404 Page Not Found' })).toBeVisible();
  await expect(page.getByText('Did you forget to add the page to the router?')).toBeVisible();
  for (const path of ['/users', '/reports', '/upload']) {
    await page.goto(path);
    await expect(page).toHaveURL(new RegExp(`/internal-login\\?next=${encodeURIComponent(path)}$`));
    await expect(page.getByRole('heading', { name: 'Internal User Login' })).toBeVisible();
    // Never the not-found screen on the way (it used to flash while the session loaded).
    await expect(page.getByRole('heading', { name: '404 Page Not Found' })).toHaveCount(0);
  }
});
