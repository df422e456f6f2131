import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, request as playwrightRequest, test } from '@playwright/test';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
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
  sendNotificationRest,
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

test('an administrator creates a token, sees the secret once, a tool uses it, and after revoking it on the page it is refused', async ({ page, request }) => {
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
  await page
    .getByRole('row')
    .filter({ hasText: name })
    .getByRole('button', { name: `Revoke token ${name}` })
    .click();
  const confirm = page.getByRole('dialog', { name: 'Revoke Token' });
  await expect(confirm).toContainText(name);
  // axe on the Revoke Token dialog.
  const axeFound = await dialogViolations(page, 'Revoke Token');
  expect(axeFound, axeFound.join('\n')).toEqual([]);
  await confirm.getByRole('button', { name: 'Revoke' }).click();
  await expect(toast(page, 'Token Revoked')).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: name })).toContainText('Revoked');

  const refused = await useToken(secret);
  expect(refused.rest).toBe(401);
  expect(refused.gql.data?.viewer ?? null).toBeNull();
});

/** curl as an analyst runs it (docs/graph.md): the GraphQL answer and the HTTP status. */
async function curlGraphql(token: string, query: string): Promise<{ status: number; body: any }> {
  const { stdout } = await promisify(execFile)('curl', [
    '-s',
    '-w',
    '\n%{http_code}',
    `${baseURL()}/graphql`,
    '-H',
    `Authorization: Bearer ${token}`,
    '-H',
    'Content-Type: application/json',
    '-d',
    JSON.stringify({ query }),
  ]);
  const at = stdout.lastIndexOf('\n');
  return { status: Number(stdout.slice(at + 1)), body: JSON.parse(stdout.slice(0, at)) };
}

test("a reviewer's token made on the page lists their assigned risks with curl, gets notifications over graphql-ws, and is refused the moment it is revoked", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  await ensureAdminSession(request);
  const reviewer = await createActiveUser(request, { role: 'reviewer', prefix: 'token-e2e' });
  // U1008's rows of the fixture, assigned to this reviewer only for this test.
  const criterion = await request.post('/api/assignment-criteria', { data: { reviewerId: reviewer.user.id, criteriaType: 'user_id', criteriaValue: 'U1008' } });
  expect(criterion.status()).toBe(201);
  const criterionId = ((await criterion.json()) as { id: string }).id;
  expect((await request.put('/api/tokens/settings', { data: { usersMayCreateTokens: true } })).status()).toBe(200);
  try {
    await signInThroughForm(page, reviewer.email, reviewer.password);
    await expect(page.getByRole('heading', { name: 'Risk Management Dashboard' })).toBeVisible();
    await page.getByRole('link', { name: 'API Tokens' }).click();
    await expect(page.getByRole('heading', { name: 'API Tokens', level: 1 })).toBeVisible();
    const name = `analyst script ${Date.now().toString(36)}`;
    await page.getByRole('button', { name: 'Create Token' }).click();
    const form = page.getByRole('dialog', { name: 'Create API Token' });
    await form.getByLabel(/^Name/).fill(name);
    await form.getByRole('button', { name: 'Create Token' }).click();
    const created = page.getByRole('alertdialog', { name: 'Token Created' });
    const secret = await created.getByLabel('API token').inputValue();
    expect(secret).toMatch(/^grc_/);
    await created.getByRole('button', { name: 'Done' }).click();

    // curl, as the guide writes it: the reviewer's assigned rows and nothing else.
    const query = '{ assignedRisks(first: 50) { totalCount edges { node { userId accessRiskId } } } }';
    const listed = await curlGraphql(secret, query);
    expect(listed.status).toBe(200);
    const all = await request.get('/api/risks?userId=U1008&limit=1');
    expect(all.status()).toBe(200);
    const expected = ((await all.json()) as { total: number }).total;
    expect(expected).toBeGreaterThan(0);
    expect(listed.body.data.assignedRisks.totalCount).toBe(expected);
    expect(new Set(listed.body.data.assignedRisks.edges.map((e: { node: { userId: string } }) => e.node.userId))).toEqual(new Set(['U1008']));

    // graphql-ws with the token in connectionParams: a notification sent to the reviewer arrives.
    let closeCode: number | null = null;
    const connect = () =>
      createClient({
        url: baseURL().replace(/^http/, 'ws') + '/graphql',
        webSocketImpl: WebSocket,
        lazy: false,
        retryAttempts: 0,
        connectionParams: { authorization: `Bearer ${secret}` },
        onNonLazyError: () => {},
        on: { closed: (e) => (closeCode = (e as { code: number }).code) },
      });
    const ws = connect();
    const received: string[] = [];
    ws.subscribe<{ notificationAdded: { title: string } }>(
      { query: 'subscription { notificationAdded { title message type } }' },
      { next: (v) => received.push(v.data!.notificationAdded.title), error: () => {}, complete: () => {} },
    );
    const send = (title: string) =>
      sendNotificationRest(request, { title, message: 'Sent to the token holder', targetType: 'specific', targetUserId: reviewer.user.id });
    const title = `Token check ${Date.now().toString(36)}`;
    await expect
      .poll(
        async () => {
          if (!received.includes(title)) await send(title);
          return received.includes(title);
        },
        { timeout: 20_000, intervals: [500, 1000] },
      )
      .toBe(true);

    // Revoked on the page: the next curl is refused, the open connection is closed with 4403 and gets nothing more, a new one is refused with 4403.
    await page
      .getByRole('row')
      .filter({ hasText: name })
      .getByRole('button', { name: `Revoke token ${name}` })
      .click();
    await page.getByRole('dialog', { name: 'Revoke Token' }).getByRole('button', { name: 'Revoke' }).click();
    await expect(toast(page, 'Token Revoked')).toBeVisible();
    const refused = await curlGraphql(secret, query);
    expect(refused.status).toBe(401);
    expect(refused.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    const after = `After revocation ${Date.now().toString(36)}`;
    await expect.poll(() => closeCode, { timeout: 5000 }).toBe(4403);
    await send(after);
    await page.waitForTimeout(1500);
    expect(received).not.toContain(after);
    await ws.dispose();
    const again = connect();
    const closed = await new Promise<{ code?: number }>((resolve) => {
      again.subscribe({ query: '{ viewer { id } }' }, { next: () => {}, error: (e) => resolve(e as { code?: number }), complete: () => resolve({}) });
    });
    expect(closed.code).toBe(4403);
    await again.dispose();
  } finally {
    await request.delete(`/api/assignment-criteria/${criterionId}`);
    await request.put('/api/tokens/settings', { data: { usersMayCreateTokens: false } });
  }
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
