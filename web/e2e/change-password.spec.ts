import { expect, test, type Page } from '@playwright/test';
import { changePasswordDialog, createUser, ensureAdminSession, passwordFields, signInThroughForm, storedUser, toast } from './helpers';

async function openForcedDialog(page: Page, email: string, password: string) {
  await signInThroughForm(page, email, password);
  await expect(changePasswordDialog(page)).toBeVisible();
  return passwordFields(page);
}

test('the forced password change validates every field and clears an error when its field is edited', async ({ page, request }) => {
  await ensureAdminSession(request);
  const user = await createUser(request, { role: 'reviewer', prefix: 'validate' });
  const fields = await openForcedDialog(page, user.email, user.password);
  const dialog = changePasswordDialog(page);

  // Hints (SPEC §5).
  await expect(dialog.getByText('At least 6 characters long')).toBeVisible();
  await expect(dialog.getByText('Different from your current password')).toBeVisible();

  await fields.submit.click();
  await expect(dialog.getByText('Current password is required')).toBeVisible();
  await expect(dialog.getByText('New password is required')).toBeVisible();
  await expect(dialog.getByText('Please confirm your new password')).toBeVisible();

  // Editing a field clears only its own error.
  await fields.current.fill(user.password);
  await expect(dialog.getByText('Current password is required')).toBeHidden();
  await expect(dialog.getByText('New password is required')).toBeVisible();

  await fields.next.fill('abc');
  await fields.confirm.fill('abd');
  await fields.submit.click();
  await expect(dialog.getByText('Password must be at least 6 characters long')).toBeVisible();
  await expect(dialog.getByText('Passwords do not match')).toBeVisible();

  await fields.next.fill(user.password);
  await expect(dialog.getByText('Password must be at least 6 characters long')).toBeHidden();
  await fields.confirm.fill(user.password);
  await expect(dialog.getByText('Passwords do not match')).toBeHidden();
  await fields.submit.click();
  await expect(dialog.getByText('New password must be different from current password')).toBeVisible();

  // The server rejects a wrong current password; its message is shown.
  await fields.current.fill('Wrong#Pass1');
  await fields.next.fill('Brand#New1');
  await fields.confirm.fill('Brand#New1');
  await fields.submit.click();
  await expect(toast(page, 'Password Change Failed')).toContainText('Current password is incorrect');
  await expect(dialog).toBeVisible();

  // The dialog cannot be dismissed by clicking outside it.
  await page.mouse.click(5, 5);
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: /close/i })).toHaveCount(0);

  // Finally a valid change completes the flow.
  await fields.current.fill(user.password);
  await fields.submit.click();
  await expect(toast(page, 'Password Updated')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Risk Management Dashboard' })).toBeVisible();
});

test('Cancel on the forced password change signs the user out', async ({ page, request }) => {
  await ensureAdminSession(request);
  const user = await createUser(request, { role: 'reviewer', prefix: 'cancel' });
  const fields = await openForcedDialog(page, user.email, user.password);

  await fields.cancel.click();
  await expect(changePasswordDialog(page)).toBeHidden();
  await expect(page.getByRole('button', { name: 'Sign In to Continue' })).toBeVisible();
  expect(await storedUser(page)).toBeNull();

  // The server session is gone too: after a reload the user is still signed out.
  await page.reload();
  await expect(page.getByRole('button', { name: 'Sign In to Continue' })).toBeVisible();
  await expect(changePasswordDialog(page)).toBeHidden();
  // Signed out, a page's link goes to sign-in and back to it afterwards.
  await page.goto('/users');
  await expect(page).toHaveURL(/\/internal-login\?next=%2Fusers$/);
  await expect(page.getByRole('heading', { name: 'Internal User Login' })).toBeVisible();
});

test('the forced password change cannot be closed by Escape; only the labelled Cancel signs out', async ({ page, request }) => {
  await ensureAdminSession(request);
  const user = await createUser(request, { role: 'reviewer', prefix: 'escape' });
  const fields = await openForcedDialog(page, user.email, user.password);

  // SPEC §2: it cannot be closed while required.
  await fields.current.focus();
  await page.keyboard.press('Escape');
  await page.waitForTimeout(300);
  await expect(changePasswordDialog(page)).toBeVisible();
  await expect(fields.current).toBeFocused();
  await page.reload();
  await expect(changePasswordDialog(page)).toBeVisible();
  // Signing out is an explicit, labelled action.
  await expect(changePasswordDialog(page).getByRole('button', { name: 'Cancel and Sign Out' })).toBeVisible();
  await changePasswordDialog(page).getByRole('button', { name: 'Cancel and Sign Out' }).click();
  await expect(changePasswordDialog(page)).toBeHidden();
  await expect(page.getByRole('button', { name: 'Sign In to Continue' })).toBeVisible();
});
