import { expect, test } from '@playwright/test';
import { signInAsAdmin, storedUser } from './helpers';

test('Sign Out ends the session, clears the stored user and goes to /', async ({ page, request }) => {
  await signInAsAdmin(page, request);
  expect(await storedUser(page)).not.toBeNull();
  await page.goto('/reports');
  await expect(page.getByRole('heading', { name: 'Reports', level: 1 })).toBeVisible();

  await page.getByRole('button', { name: 'Sign Out' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('button', { name: 'Sign In to Continue' })).toBeVisible();
  expect(await storedUser(page)).toBeNull();

  // The server session is gone: a reload stays signed out.
  await page.reload();
  await expect(page.getByRole('button', { name: 'Sign In to Continue' })).toBeVisible();
  // Signed out, a page's link goes to sign-in and back to it afterwards.
  await page.goto('/reports');
  await expect(page).toHaveURL(/\/internal-login\?next=%2Freports$/);
  await expect(page.getByRole('heading', { name: 'Internal User Login' })).toBeVisible();
});

test('signing out in one tab signs the other tab out', async ({ page, request, context }) => {
  await signInAsAdmin(page, request);
  const other = await context.newPage();
  await other.goto('/reports');
  await expect(other.getByRole('heading', { name: 'Reports', level: 1 })).toBeVisible();

  await page.getByRole('button', { name: 'Sign Out' }).click();
  await expect(page.getByRole('button', { name: 'Sign In to Continue' })).toBeVisible();
  await expect(other.getByRole('button', { name: 'Sign In to Continue' })).toBeVisible();
  await other.close();
});
