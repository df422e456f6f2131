// SPEC §3/§4: the internal user kept in local storage. Its id is the one the
// REST calls take; a corrupt stored user is treated as signed out, on the
// server too.
import { expect, test } from '@playwright/test';
import { ADMIN_CHANGED_PASSWORD, ADMIN_EMAIL, ensureAdminSession, fillSignInForm, signInAsAdmin, storedUser } from './helpers';

test("the stored internal user's id is the id the REST calls take", async ({ page, request }) => {
  await signInAsAdmin(page, request);
  const stored = await storedUser(page);
  const users = (await (await page.request.get('/api/users')).json()) as { id: string; email: string }[];
  expect(stored?.id).toBe(users.find((u) => u.email === stored?.email)?.id);
  // PUT /api/internal/change-password takes it as the caller's own id (a wrong
  // current password is refused for what it is, not as someone else's id).
  const change = await page.request.put('/api/internal/change-password', {
    data: { userId: stored?.id, currentPassword: 'not-the-password', newPassword: 'Another#Pass1' },
  });
  expect(change.status()).toBe(400);
  expect(((await change.json()) as { message: string }).message).toBe('Current password is incorrect');
});

test('a corrupt stored user is treated as signed out, and stays signed out after a reload', async ({ page, request }) => {
  await signInAsAdmin(page, request);
  await page.evaluate(() => window.localStorage.setItem('internal_user', '{"id": 1, broken'));
  await page.reload();
  await expect(page.getByRole('button', { name: 'Sign In to Continue' })).toBeVisible();
  expect(await storedUser(page)).toBeNull();
  // The server's session ended with it: nothing signs the user back in.
  await expect.poll(async () => (await page.request.get('/api/users')).status()).toBe(401);
  await page.reload();
  await expect(page.getByRole('button', { name: 'Sign In to Continue' })).toBeVisible();
});

test('GraphiQL opened signed out says how to sign in, and signing in comes back to it', async ({ page, request }) => {
  await ensureAdminSession(request);
  await page.goto('/graphql');
  await expect(page.getByText('Sign in to explore the graph')).toBeVisible();
  await page.getByRole('link', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/internal-login\?next=%2Fgraphql$/);
  await fillSignInForm(page, ADMIN_EMAIL, ADMIN_CHANGED_PASSWORD);
  await expect(page).toHaveURL(/\/graphql$/);
  await expect(page).toHaveTitle(/GraphQL · GRC Risk Management/);
});
