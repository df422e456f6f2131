// Sign-in's redirects: already signed in, a signed-out deep link, a foreign next.
import { expect, test } from '@playwright/test';
import { baseURL, createActiveUser, ensureAdminSession, fillSignInForm, signInAsAdmin } from './helpers';

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
