import { expect, test, type Page } from '@playwright/test';
import { ADMIN_EMAIL, baseURL, createActiveUser, createUser, mailbox, restLogin, signInAsAdmin, TEMPORARY_PASSWORD, toast, waitForMailed } from './helpers';
import { request as playwrightRequest } from '@playwright/test';

function userRow(page: Page, email: string) {
  return page.getByRole('row').filter({ hasText: email });
}

async function openUsers(page: Page) {
  await page.goto('/users');
  await expect(page.getByRole('heading', { name: 'User Management', level: 1 })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Users' })).toBeVisible();
}

test('search and the role and status filters narrow the list', async ({ page, request }) => {
  await signInAsAdmin(page, request);
  const tag = `flt${Date.now().toString(36)}`;
  const reviewer = await createActiveUser(request, { role: 'reviewer', prefix: tag, firstName: 'Filter', lastName: `Reviewer${tag}` });
  const admin = await createActiveUser(request, { role: 'admin', prefix: tag, firstName: 'Filter', lastName: `Admin${tag}` });
  await openUsers(page);

  const search = page.getByRole('searchbox', { name: 'Search users' }).or(page.getByLabel('Search users'));
  await search.fill(tag);
  await expect(page.getByRole('table', { name: 'Users' }).getByRole('row')).toHaveCount(3); // header + 2
  await expect(userRow(page, reviewer.email)).toContainText('Reviewer');
  await expect(userRow(page, reviewer.email).getByRole('cell').nth(3)).toHaveText('—');
  await expect(userRow(page, admin.email)).toContainText('Administrator');
  await expect(userRow(page, admin.email).getByRole('cell').nth(3)).toHaveText('All Risks');

  const role = page.getByLabel('Filter by role');
  await expect(role.locator('option')).toHaveText(['All Roles', 'Administrator', 'Reviewer']);
  await role.selectOption({ label: 'Administrator' });
  await expect(userRow(page, admin.email)).toBeVisible();
  await expect(userRow(page, reviewer.email)).toHaveCount(0);
  await role.selectOption({ label: 'Reviewer' });
  await expect(userRow(page, reviewer.email)).toBeVisible();
  await expect(userRow(page, admin.email)).toHaveCount(0);
  await role.selectOption({ label: 'All Roles' });

  const status = page.getByLabel('Filter by status');
  await expect(status.locator('option')).toHaveText(['All Status', 'Active', 'Inactive']);
  await status.selectOption({ label: 'Inactive' });
  await expect(page.getByText('No users found')).toBeVisible();
  await status.selectOption({ label: 'Active' });
  await expect(page.getByRole('table', { name: 'Users' }).getByRole('row')).toHaveCount(3);

  // Searching by e-mail works too; nothing matching shows the empty state.
  await status.selectOption({ label: 'All Status' });
  await search.fill(reviewer.email);
  await expect(page.getByRole('table', { name: 'Users' }).getByRole('row')).toHaveCount(2);
  await search.fill(`${tag}-nobody`);
  await expect(page.getByText('No users found')).toBeVisible();
});

test('edit, reset password with Generate, deactivate and activate a user', async ({ page, request }) => {
  await signInAsAdmin(page, request);
  const user = await createActiveUser(request, { role: 'reviewer', prefix: 'manage', firstName: 'Manny', lastName: 'Managed' });
  await openUsers(page);
  await page.getByLabel('Search users').fill(user.email);
  const row = userRow(page, user.email);
  await expect(row).toContainText('Manny Managed');

  // Edit: first name, last name and role.
  await row.getByRole('button', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit User' });
  await expect(edit.getByLabel(/^First Name/)).toHaveValue('Manny');
  await edit.getByLabel(/^First Name/).fill('');
  await edit.getByRole('button', { name: 'Save Changes' }).click();
  await expect(edit.getByText('First name is required')).toBeVisible();
  await edit.getByLabel(/^First Name/).fill('Mandy');
  await edit.getByLabel(/^Last Name/).fill('Changed');
  await edit.getByLabel('Role').selectOption('ADMIN');
  await edit.getByRole('button', { name: 'Save Changes' }).click();
  await expect(toast(page, 'User Updated')).toBeVisible();
  await expect(edit).toBeHidden();
  await expect(row).toContainText('Mandy Changed');
  await expect(row).toContainText('Administrator');
  await expect(row.getByRole('cell').nth(3)).toHaveText('All Risks');

  // Reset password: validation, then Generate fills a 12-character password.
  const mailCount = (await mailbox()).length;
  await row.getByRole('button', { name: 'Reset Password' }).click();
  const reset = page.getByRole('dialog', { name: 'Reset Password' });
  await reset.getByLabel(/^New Password/).fill('abc');
  await reset.getByLabel(/^Confirm Password/).fill('abd');
  await reset.getByRole('button', { name: 'Reset Password' }).click();
  await expect(reset.getByText('Password must be at least 6 characters long')).toBeVisible();
  await reset.getByLabel(/^New Password/).fill('abcdef');
  await reset.getByRole('button', { name: 'Reset Password' }).click();
  await expect(reset.getByText('Passwords do not match')).toBeVisible();
  await reset.getByRole('button', { name: 'Generate' }).click();
  const generated = await reset.getByLabel(/^New Password/).inputValue();
  expect(generated).toMatch(/^[A-Za-z0-9!@#$%^&*]{12}$/);
  await expect(reset.getByLabel(/^Confirm Password/)).toHaveValue(generated);
  await reset.getByRole('button', { name: 'Reset Password' }).click();
  await expect(toast(page, 'Password Reset')).toBeVisible();
  await expect(reset).toBeHidden();
  expect(await waitForMailed(user.email, TEMPORARY_PASSWORD, { after: mailCount })).toBe(generated);
  const probe = await playwrightRequest.newContext({ baseURL: baseURL() });
  const signedIn = await restLogin(probe, user.email, generated);
  expect(signedIn?.passwordResetRequired).toBe(true);
  await probe.dispose();

  // Deactivate, then activate.
  await row.getByRole('button', { name: 'Deactivate' }).click();
  await expect(toast(page, 'User Deactivated')).toBeVisible();
  await expect(row).toContainText('Inactive');
  await expect(row.getByRole('button', { name: 'Deactivate' })).toHaveCount(0);
  await row.getByRole('button', { name: 'Activate', exact: true }).click();
  await expect(toast(page, 'User Activated')).toBeVisible();
  await expect(row).toContainText('Active');
  await expect(row.getByRole('button', { name: 'Activate', exact: true })).toHaveCount(0);

  // Nobody can deactivate themselves: the own row has no Deactivate button.
  await page.getByLabel('Search users').fill(ADMIN_EMAIL);
  const own = userRow(page, ADMIN_EMAIL);
  await expect(own.getByRole('button', { name: 'Edit' })).toBeVisible();
  await expect(own.getByRole('button', { name: 'Deactivate' })).toHaveCount(0);
});

test('the create-user dialog validates its fields and reports a duplicate e-mail', async ({ page, request }) => {
  await signInAsAdmin(page, request);
  const existing = await createUser(request, { role: 'reviewer', prefix: 'dupe' });
  await openUsers(page);

  await page.getByRole('button', { name: 'Add User' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add New User' });
  await dialog.getByRole('button', { name: 'Create User' }).click();
  await expect(dialog.getByText('First name is required')).toBeVisible();
  await expect(dialog.getByText('Email is required')).toBeVisible();
  await expect(dialog.getByText('Role is required')).toBeVisible();

  await dialog.getByLabel(/^First Name/).fill('Dupe');
  await dialog.getByLabel(/^Email/).fill('not-an-email');
  await dialog.getByLabel(/^Role/).selectOption('REVIEWER');
  await dialog.getByRole('button', { name: 'Create User' }).click();
  await expect(dialog.getByText('Please enter a valid email address')).toBeVisible();

  await dialog.getByLabel(/^Email/).fill(existing.email);
  await dialog.getByRole('button', { name: 'Create User' }).click();
  await expect(toast(page, 'Creation Failed')).toContainText(`A user with the email ${existing.email} already exists`);
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
});
