// Everyday paths: sign-in's redirects (already signed in, a deep link, a
// foreign next) and the queue's retain/remove control.
import { expect, test } from '@playwright/test';
import { baseURL, createActiveUser, ensureAdminSession, fillSignInForm, signInAsAdmin, toast } from './helpers';
import { adminInFreshPeriod, queueRows } from './review-helpers';

test('/internal-login when already signed in goes to the dashboard', async ({ page, request }) => {
  await signInAsAdmin(page, request);
  await page.goto('/internal-login');
  await expect(page.getByRole('heading', { name: 'Risk Management Dashboard' })).toBeVisible();
  expect(new URL(page.url()).pathname).toBe('/');
});

test('a signed-out deep link goes to sign-in and back to the link afterwards', async ({ page, request }) => {
  await ensureAdminSession(request);
  const reviewer = await createActiveUser(request, { role: 'reviewer', prefix: 'deep-link' });
  await page.goto('/assigned-risks?from=mail');
  await expect(page).toHaveURL(/\/internal-login\?next=%2Fassigned-risks%3Ffrom%3Dmail$/);
  await fillSignInForm(page, reviewer.email, reviewer.password);
  await expect(page).toHaveURL(/\/assigned-risks\?from=mail$/);
});

for (const foreign of ['https://evil.example/x', '//evil.example/x', '/\\evil.example/x']) {
  test(`a foreign next (${foreign}) is ignored: sign-in goes to the dashboard`, async ({ page, request }) => {
    await ensureAdminSession(request);
    const reviewer = await createActiveUser(request, { role: 'reviewer', prefix: 'open-redirect' });
    await page.goto(`/internal-login?next=${encodeURIComponent(foreign)}`);
    await fillSignInForm(page, reviewer.email, reviewer.password);
    await expect(page.getByRole('heading', { name: 'Risk Management Dashboard' })).toBeVisible();
    expect(page.url()).toBe(`${baseURL().replace(/\/$/, '')}/`);
  });
}

test("the queue's retain/remove control shows Pending, Retain and Remove distinctly", async ({ page, request }) => {
  await adminInFreshPeriod(page, request);
  await page.goto('/risks');
  const rows = queueRows(page);
  await expect(rows).toHaveCount(25);
  const name = (await rows.first().getByRole('switch').getAttribute('aria-label')) ?? '';
  const control = page.getByRole('switch', { name, exact: true });
  const row = rows.filter({ has: control });
  const indicator = row.locator('.fui-Switch__indicator');
  const look = async () =>
    indicator.evaluate((el) => {
      const s = getComputedStyle(el);
      return `${s.borderTopStyle} ${s.borderTopColor} ${s.color}`;
    });

  // Pending: its own word (read with the switch) and its own look.
  await expect(control).not.toBeChecked();
  await expect(control).toHaveAccessibleDescription('Pending');
  const pendingLook = await look();

  await control.click();
  await expect(toast(page, 'Decision Submitted')).toBeVisible();
  await expect(control).toBeChecked();
  await expect(control).toHaveAccessibleDescription('Retain');

  await control.click();
  await expect(control).not.toBeChecked();
  await expect(control).toHaveAccessibleDescription('Remove');
  // Remove is off like Pending, but does not look like it.
  expect(await look()).not.toBe(pendingLook);
});
