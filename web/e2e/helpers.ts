import { expect, request as playwrightRequest, type APIRequestContext, type Page } from '@playwright/test';

/** The first administrator, as scripts/e2e.mjs starts the server. */
export const ADMIN_EMAIL = process.env.E2E_ADMIN_EMAIL ?? 'admin@example.com';
export const ADMIN_INITIAL_PASSWORD = process.env.E2E_ADMIN_PASSWORD ?? 'Initial#Pass1';
/** The administrator's password once a spec has changed the initial one. */
export const ADMIN_CHANGED_PASSWORD = 'Admin#Pass2';

export type ApiUser = {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  role: 'admin' | 'reviewer';
  isActive: boolean;
  passwordResetRequired: boolean;
};

export type Credentials = { email: string; password: string; user: ApiUser };

export function baseURL(): string {
  return process.env.E2E_BASE_URL ?? 'http://127.0.0.1:3100';
}

/** A unique address per call, so that specs do not depend on each other's data or order. */
export function uniqueEmail(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}

/** POST /api/internal-login; the context keeps the session cookie. Null on failure. */
export async function restLogin(api: APIRequestContext, email: string, password: string): Promise<ApiUser | null> {
  const response = await api.post('/api/internal-login', { data: { email, password } });
  if (!response.ok()) return null;
  const body = (await response.json()) as { user?: ApiUser };
  return body.user ?? null;
}

/** PUT /api/internal/change-password for the user signed in on `api`. */
export async function restChangePassword(api: APIRequestContext, userId: string, currentPassword: string, newPassword: string): Promise<ApiUser> {
  const response = await api.put('/api/internal/change-password', {
    data: { userId, currentPassword, newPassword },
  });
  expect(response.ok(), `change-password: ${response.status()} ${await response.text()}`).toBeTruthy();
  return ((await response.json()) as { user: ApiUser }).user;
}

/**
 * Signs `api` in as the first administrator. The admin's initial password is
 * changed by whichever spec signs in first, so this tries the known changed
 * password first (no failed attempt once it has been changed, which keeps the
 * per-address sign-in throttle untouched), then the initial one, changing it
 * when the server requires it.
 */
export async function ensureAdminSession(api: APIRequestContext): Promise<ApiUser> {
  const existing = await restLogin(api, ADMIN_EMAIL, ADMIN_CHANGED_PASSWORD);
  if (existing) return existing;
  const initial = await restLogin(api, ADMIN_EMAIL, ADMIN_INITIAL_PASSWORD);
  if (!initial) throw new Error(`Cannot sign in as ${ADMIN_EMAIL} with the initial or the changed password`);
  if (!initial.passwordResetRequired) return initial;
  return restChangePassword(api, initial.id, ADMIN_INITIAL_PASSWORD, ADMIN_CHANGED_PASSWORD);
}

/**
 * Whether the administrator still has the initial password (probed on a
 * separate context, so the caller's cookies are untouched).
 */
export async function adminStillHasInitialPassword(): Promise<boolean> {
  const probe = await playwrightRequest.newContext({ baseURL: baseURL() });
  try {
    const changed = await restLogin(probe, ADMIN_EMAIL, ADMIN_CHANGED_PASSWORD);
    if (changed) return false;
    const initial = await restLogin(probe, ADMIN_EMAIL, ADMIN_INITIAL_PASSWORD);
    return initial?.passwordResetRequired === true;
  } finally {
    await probe.dispose();
  }
}

/**
 * POST /api/users with an admin session on `api`. The given password is the
 * initial one: the user must change it at first sign-in.
 */
export async function createUser(
  api: APIRequestContext,
  options: { role: 'admin' | 'reviewer'; prefix?: string; firstName?: string; lastName?: string; password?: string },
): Promise<Credentials> {
  const email = uniqueEmail(options.prefix ?? options.role);
  const password = options.password ?? 'Start#Pass1';
  const response = await api.post('/api/users', {
    data: {
      email,
      firstName: options.firstName ?? 'Test',
      lastName: options.lastName ?? (options.role === 'admin' ? 'Admin' : 'Reviewer'),
      role: options.role,
      password,
    },
  });
  expect(response.ok(), `create user: ${response.status()} ${await response.text()}`).toBeTruthy();
  const { user } = (await response.json()) as { user: ApiUser };
  return { email, password, user };
}

/** Creates a user and completes their first-sign-in password change through REST. */
export async function createActiveUser(
  api: APIRequestContext,
  options: { role: 'admin' | 'reviewer'; prefix?: string; firstName?: string; lastName?: string },
): Promise<Credentials> {
  const created = await createUser(api, options);
  const own = await playwrightRequest.newContext({ baseURL: baseURL() });
  try {
    const user = await restLogin(own, created.email, created.password);
    if (!user) throw new Error(`Cannot sign in as the new user ${created.email}`);
    const finalPassword = 'Final#Pass1';
    const changed = await restChangePassword(own, user.id, created.password, finalPassword);
    return { email: created.email, password: finalPassword, user: changed };
  } finally {
    await own.dispose();
  }
}

/** PUT /api/users/{id}/deactivate with an admin session on `api`. */
export async function deactivateUser(api: APIRequestContext, userId: string): Promise<void> {
  const response = await api.put(`/api/users/${encodeURIComponent(userId)}/deactivate`);
  expect(response.ok(), `deactivate: ${response.status()} ${await response.text()}`).toBeTruthy();
}

/** Fills and submits the internal login form. */
export async function signInThroughForm(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/internal-login');
  await fillSignInForm(page, email, password);
}

/** Fills and submits the internal login form the page shows already (say after a redirect to it). */
export async function fillSignInForm(page: Page, email: string, password: string): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Internal User Login' })).toBeVisible();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
}

/** Signs the page in as the administrator (whose initial password has been changed). */
export async function signInAsAdmin(page: Page, api: APIRequestContext): Promise<ApiUser> {
  const admin = await ensureAdminSession(api);
  await signInThroughForm(page, ADMIN_EMAIL, ADMIN_CHANGED_PASSWORD);
  await expect(page.getByRole('heading', { name: 'Risk Management Dashboard' })).toBeVisible();
  return admin;
}

/** The forced 'Change Password' dialog (an alert dialog: it cannot be dismissed). */
export function changePasswordDialog(page: Page) {
  return page.getByRole('alertdialog', { name: 'Change Password' });
}

/** The dialog's fields; the labels carry a required marker, hence the anchored patterns. */
export function passwordFields(page: Page) {
  const dialog = changePasswordDialog(page);
  return {
    current: dialog.getByLabel(/^Current Password/),
    next: dialog.getByLabel(/^New Password/),
    confirm: dialog.getByLabel(/^Confirm New Password/),
    submit: dialog.getByRole('button', { name: 'Change Password' }),
    cancel: dialog.getByRole('button', { name: 'Cancel' }),
  };
}

/** The stored internal user (SPEC §3), or null. */
export async function storedUser(page: Page): Promise<Record<string, unknown> | null> {
  const raw = await page.evaluate(() => window.localStorage.getItem('internal_user'));
  return raw == null ? null : (JSON.parse(raw) as Record<string, unknown>);
}

/** The latest toast with the given title (a replaced one may still be leaving the screen). */
export function toast(page: Page, title: string) {
  return page.locator('.fui-Toast').filter({ hasText: title }).last();
}

export type Mail = { to: string[]; subject: string; body: string };

/** The mail the e2e SMTP server has received (scripts/e2e.mjs). */
export async function mailbox(): Promise<Mail[]> {
  const url = process.env.E2E_MAILBOX_URL;
  if (!url) throw new Error('E2E_MAILBOX_URL is not set; run the specs with `npm run test:e2e`');
  const response = await fetch(url);
  return (await response.json()) as Mail[];
}

/**
 * Waits for a message to `to` whose body matches `pattern` and returns the
 * first capture group (e.g. the temporary password).
 */
export async function waitForMailed(to: string, pattern: RegExp, options: { after?: number } = {}): Promise<string> {
  let found: string | undefined;
  await expect
    .poll(
      async () => {
        const messages = (await mailbox()).slice(options.after ?? 0);
        for (const m of messages) {
          if (!m.to.some((address) => address.toLowerCase() === to.toLowerCase())) continue;
          const match = pattern.exec(m.body);
          if (match?.[1]) {
            found = match[1];
            return true;
          }
        }
        return false;
      },
      { timeout: 20_000, message: `mail to ${to} matching ${pattern}` },
    )
    .toBe(true);
  return found!;
}

/** 'Temporary password: <pw>' in account and reset mails. */
export const TEMPORARY_PASSWORD = /Temporary password: (\S+)/;

/** POST /api/notifications with an admin session on `api`. */
export async function sendNotificationRest(
  api: APIRequestContext,
  input: { title: string; message: string; type?: string; targetType: 'all' | 'specific'; targetUserId?: string },
): Promise<string> {
  const response = await api.post('/api/notifications', { data: { type: 'general', ...input } });
  expect(response.ok(), `send notification: ${response.status()} ${await response.text()}`).toBeTruthy();
  return ((await response.json()) as { id: string }).id;
}

/**
 * Sends a notification to all users for the length of `use`, then deletes it:
 * every user, including those later specs create, would otherwise see it unread.
 */
export async function withNotificationToAll<T>(
  api: APIRequestContext,
  input: { title: string; message: string; type?: string },
  use: () => Promise<T>,
): Promise<T> {
  const id = await sendNotificationRest(api, { ...input, targetType: 'all' });
  try {
    return await use();
  } finally {
    expect((await api.delete(`/api/notifications/${id}`)).ok()).toBeTruthy();
  }
}

/** The bell button in the app header; its name carries the unread count. */
export function bellButton(page: Page) {
  return page.getByRole('banner').getByRole('button', { name: /^Notifications(, \d+ unread)?$/ });
}

/** The value shown on one of the Notifications page's stat cards. */
export async function statValue(page: Page, label: string): Promise<string> {
  const text = await page.getByRole('group', { name: label }).innerText();
  return text.replace(label, '').trim();
}

/**
 * Loads CSV rows through POST /api/upload in append mode (so a spec's own rows
 * join the data without replacing it) and waits until the upload is completed.
 * `lines` are the data lines under `header`; duplicates are skipped only when asked.
 */
export async function appendCsvRest(
  api: APIRequestContext,
  file: { name: string; header: string; lines: string[] },
  opts: { skipDuplicates?: boolean } = {},
): Promise<void> {
  const csv = [file.header, ...file.lines].join('\r\n') + '\r\n';
  const r = await api.post('/api/upload', {
    multipart: {
      file: { name: file.name, mimeType: 'text/csv', buffer: Buffer.from(csv) },
      uploadMode: 'append',
      skipDuplicates: String(opts.skipDuplicates ?? false),
      batchSize: '5000',
      emailNotification: 'false',
    },
  });
  expect(r.ok(), `upload: ${r.status()} ${await r.text()}`).toBeTruthy();
  const { uploadId } = (await r.json()) as { uploadId: string };
  await expect
    .poll(async () => ((await (await api.get(`/api/upload-status/${uploadId}`)).json()) as { status: string }).status, { timeout: 60_000 })
    .toBe('completed');
}
