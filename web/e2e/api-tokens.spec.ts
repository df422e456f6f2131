import { expect, request as playwrightRequest, test } from '@playwright/test';
import {
  ADMIN_EMAIL,
  baseURL,
  changePasswordDialog,
  createActiveUser,
  ensureAdminSession,
  passwordFields,
  restLogin,
  signInAsAdmin,
  signInThroughForm,
  toast,
} from './helpers';
import { dialogViolations } from './axe';

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

/** What a downstream tool does with the token: plain fetch from outside the browser. */
async function useToken(token: string) {
  const rest = await fetch(`${baseURL()}/api/risks`, { headers: { authorization: `Bearer ${token}` } });
  const gql = await fetch(`${baseURL()}/graphql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ viewer { email } }' }),
  });
  return { rest: rest.status, gql: (await gql.json()) as { data?: { viewer: { email: string } | null } } };
}

test('an administrator creates a token, sees the secret once, a tool uses it, and after revoking it on the page it is refused', async ({
  page,
  request,
}) => {
  await signInAsAdmin(page, request);
  await page.getByRole('link', { name: 'API Tokens' }).click();
  await expect(page).toHaveURL(/\/api-tokens$/);
  await expect(page.getByRole('heading', { name: 'API Tokens', level: 1 })).toBeVisible();

  const name = `e2e tool ${Date.now().toString(36)}`;
  await page.getByRole('button', { name: 'Create Token' }).click();
  const form = page.getByRole('dialog', { name: 'Create API Token' });
  await form.getByLabel(/^Name/).fill(name);
  await expect(form.getByLabel(/^Expires in/)).toHaveValue('90');
  await expect(form.getByLabel(/^Scope/)).toHaveValue('READ');
  await form.getByRole('button', { name: 'Create Token' }).click();

  const created = page.getByRole('alertdialog', { name: 'Token Created' });
  await expect(created).toBeVisible();
  await expect(created).toContainText('You will not see it again');
  const secret = await created.getByLabel('API token').inputValue();
  expect(secret).toMatch(/^grc_/);
  await created.getByRole('button', { name: 'Copy' }).click();
  await expect(toast(page, 'Copied')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  await created.getByRole('button', { name: 'Done' }).click();
  await expect(created).toBeHidden();

  // Listed, never shown again.
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText('Active');
  await expect(row).toContainText('Read only');
  await expect(row).toContainText(secret.slice(0, 10));
  await expect(page.getByText(secret)).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('row').filter({ hasText: name })).toBeVisible();
  await expect(page.locator(`input[value="${secret}"]`)).toHaveCount(0);

  // A tool uses it.
  const used = await useToken(secret);
  expect(used.rest).toBe(200);
  expect(used.gql.data?.viewer?.email).toBe(ADMIN_EMAIL);

  // Revoke it on the page (with a confirmation).
  await page.getByRole('row').filter({ hasText: name }).getByRole('button', { name: `Revoke token ${name}` }).click();
  const confirm = page.getByRole('dialog', { name: 'Revoke Token' });
  await expect(confirm).toContainText(name);
  // Issue 15, point 4: axe on the Revoke Token dialog.
  const axeFound = await dialogViolations(page, 'Revoke Token');
  expect(axeFound, axeFound.join('\n')).toEqual([]);
  await confirm.getByRole('button', { name: 'Revoke' }).click();
  await expect(toast(page, 'Token Revoked')).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: name })).toContainText('Revoked');

  const refused = await useToken(secret);
  expect(refused.rest).toBe(401);
  expect(refused.gql.data?.viewer ?? null).toBeNull();
});

test("the administrators' switch, and the page at 390 px by keyboard", async ({ page, request }) => {
  await signInAsAdmin(page, request);
  await page.goto('/api-tokens');
  const toggle = page.getByRole('switch', { name: 'Users may create their own tokens' });
  await expect(toggle).not.toBeChecked();
  await toggle.click();
  await expect(toast(page, 'Setting Updated')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('switch', { name: 'Users may create their own tokens' })).toBeChecked();
  await page.getByRole('switch', { name: 'Users may create their own tokens' }).click();
  await expect(toast(page, 'Setting Updated')).toContainText('Only administrators');

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole('heading', { name: 'API Tokens', level: 1 })).toBeVisible();
  const create = page.getByRole('button', { name: 'Create Token' });
  await create.focus();
  await page.keyboard.press('Enter');
  const form = page.getByRole('dialog', { name: 'Create API Token' });
  await expect(form.getByLabel(/^Name/)).toBeFocused();
  const name = `narrow ${Date.now().toString(36)}`;
  await page.keyboard.type(name);
  await page.keyboard.press('Enter');
  const created = page.getByRole('alertdialog', { name: 'Token Created' });
  await expect(created).toBeVisible();
  const box = await created.boundingBox();
  expect(box!.width).toBeLessThanOrEqual(390);
  await created.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByRole('list', { name: 'API tokens' }).getByRole('listitem').filter({ hasText: name })).toBeVisible();
});

test("a forced password change offers 'Also revoke my API tokens' to a user who has tokens, and revokes them", async ({ page, request }) => {
  await ensureAdminSession(request);
  const owner = await createActiveUser(request, { role: 'admin', prefix: 'tokenowner' });
  const own = await playwrightRequest.newContext({ baseURL: baseURL() });
  let secret: string;
  try {
    expect(await restLogin(own, owner.email, owner.password)).not.toBeNull();
    const created = await own.post('/api/tokens', { data: { name: 'before reset' } });
    expect(created.status()).toBe(201);
    secret = ((await created.json()) as { token: string }).token;
  } finally {
    await own.dispose();
  }
  expect((await useToken(secret)).rest).toBe(200);
  const temporary = 'Temp#Pass12';
  const reset = await request.put(`/api/users/${owner.user.id}/reset-password`, { data: { newPassword: temporary } });
  expect(reset.ok()).toBeTruthy();

  await signInThroughForm(page, owner.email, temporary);
  const dialog = changePasswordDialog(page);
  await expect(dialog).toBeVisible();
  const fields = passwordFields(page);
  await fields.current.fill(temporary);
  await fields.next.fill('After#Reset1');
  await fields.confirm.fill('After#Reset1');
  await dialog.getByRole('checkbox', { name: 'Also revoke my API tokens' }).check();
  await fields.submit.click();
  await expect(toast(page, 'Password Updated')).toBeVisible();
  expect((await useToken(secret)).rest).toBe(401);
});
