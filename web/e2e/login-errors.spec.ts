import { expect, test } from '@playwright/test';
import { createActiveUser, createUser, deactivateUser, ensureAdminSession, signInThroughForm, toast } from './helpers';

test('a wrong password explains what went wrong', async ({ page, request }) => {
  await ensureAdminSession(request);
  // A user of this spec's own, so failed attempts never throttle the administrator.
  const user = await createActiveUser(request, { role: 'reviewer', prefix: 'wrong-password' });
  await signInThroughForm(page, user.email, 'Not#ThePassword1');
  await expect(toast(page, 'Login Failed')).toContainText(
    "The email or password you entered is incorrect. If you recently reset your password, make sure you're using the latest one.",
  );
  await expect(page).toHaveURL(/\/internal-login$/);
  await expect(page.getByRole('heading', { name: 'Internal User Login' })).toBeVisible();
});

test('an unknown address gets the same message as a wrong password', async ({ page }) => {
  await signInThroughForm(page, `nobody-${Date.now()}@example.com`, 'Whatever#1');
  await expect(toast(page, 'Login Failed')).toContainText('The email or password you entered is incorrect.');
});

test('a deactivated user is told to contact the administrator', async ({ page, request }) => {
  await ensureAdminSession(request);
  const user = await createUser(request, { role: 'reviewer', prefix: 'deactivated' });
  await deactivateUser(request, user.user.id);
  await signInThroughForm(page, user.email, user.password);
  await expect(toast(page, 'Login Failed')).toContainText('Your account has been deactivated. Please contact your administrator for assistance.');
  await expect(page.getByRole('heading', { name: 'Internal User Login' })).toBeVisible();
});
