import { expect, request as playwrightRequest, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { baseURL, ensureAdminSession, restLogin, signInAsAdmin, type Credentials } from './helpers';

/**
 * Helpers for the review-workflow specs. They assume the risk rows of
 * fixtures/risk-rows.json are in the database (scripts/e2e.mjs loads them
 * into the fresh database before the server starts).
 */

export type ApiPeriod = { id: string; name: string; status: 'active' | 'closed' };

/** A name no other spec (or run) uses. */
export function uniqueName(prefix: string): string {
  return `${prefix} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
}

/** GET /api/review-periods/active (any signed-in session on `api`). */
export async function activePeriod(api: APIRequestContext): Promise<ApiPeriod | null> {
  const response = await api.get('/api/review-periods/active');
  expect(response.ok(), `active period: ${response.status()}`).toBeTruthy();
  const text = await response.text();
  return text && text !== 'null' ? (JSON.parse(text) as ApiPeriod) : null;
}

/** Closes the active review period, if any (admin session on `api`). */
export async function closeActivePeriod(api: APIRequestContext): Promise<void> {
  const active = await activePeriod(api);
  if (!active) return;
  // A reason, in case an earlier spec saved review settings and rows nobody can see remain.
  const response = await api.put(`/api/review-periods/${active.id}/close`, { data: { reason: 'Closed by the browser tests before their next period' } });
  expect(response.ok(), `close period: ${response.status()} ${await response.text()}`).toBeTruthy();
}

/** Closes any active period and opens a new one, so the admin's decisions start empty. */
export async function openFreshPeriod(api: APIRequestContext, name = uniqueName('E2E period')): Promise<ApiPeriod> {
  await closeActivePeriod(api);
  const response = await api.post('/api/review-periods', { data: { name } });
  expect(response.ok(), `create period: ${response.status()} ${await response.text()}`).toBeTruthy();
  return (await response.json()) as ApiPeriod;
}

/** Signs the page in as the administrator, in a newly opened period (no decisions yet). */
export async function adminInFreshPeriod(page: Page, api: APIRequestContext): Promise<void> {
  await ensureAdminSession(api);
  await openFreshPeriod(api);
  await signInAsAdmin(page, api);
}

/** The data rows of the administrators' queue (/risks). */
export const queueRows = (page: Page) => page.getByRole('table', { name: 'Risks' }).locator('tbody tr');

/** The queue's 'Showing a-b of n'. */
export const queueRange = (page: Page) => page.getByRole('navigation', { name: 'Pagination' }).locator('[aria-live]');

/** POST /api/assignment-criteria (admin session on `api`). */
export async function createAssignmentRest(
  api: APIRequestContext,
  input: { reviewerId: string; criteriaType: string; criteriaValue: string; name?: string },
): Promise<{ id: string; name: string }> {
  const response = await api.post('/api/assignment-criteria', { data: input });
  expect(response.ok(), `create assignment: ${response.status()} ${await response.text()}`).toBeTruthy();
  return (await response.json()) as { id: string; name: string };
}

/** The value shown on a stat tile (a group named by its label). */
export async function tileValue(page: Page, label: string): Promise<string> {
  const text = await page.getByRole('group', { name: label, exact: true }).innerText();
  return (
    text
      .split('\n')
      .map((s) => s.trim())
      .filter(Boolean)[1] ?? ''
  );
}

/** Saves a screenshot when E2E_SHOTS_DIR is set (for reviewing the layout by eye). */
export async function shot(page: Page, name: string): Promise<void> {
  const dir = process.env.E2E_SHOTS_DIR;
  if (!dir) return;
  await page.screenshot({ path: `${dir}/${name}.png`, fullPage: true });
}

/** A server-searched combobox (Risk Simulation's User, Risk, roles): types `text`, picks the option starting with `option`. */
export async function pickOption(page: Page, label: string, text: string, option: string): Promise<void> {
  const box = page.getByRole('combobox', { name: label });
  await box.click();
  await box.fill(text);
  await page.getByRole('option', { name: new RegExp(`^${option}`) }).click();
}

/**
 * The 'Create Assignment' dialog's Value: a type-ahead searched on the server.
 * Types `search` (the value when left out), waits for the
 * options and returns them; with `choose`, picks that value.
 */
export async function searchAssignmentValue(page: Page, dialog: Locator, { search, choose }: { search?: string; choose?: string }): Promise<Locator> {
  const box = dialog.getByRole('combobox', { name: /^Value/ });
  await expect(box).toBeEnabled();
  if ((await box.getAttribute('aria-expanded')) !== 'true') await box.click();
  await box.fill(search ?? choose ?? '');
  const options = page.getByRole('listbox').getByRole('option');
  if (choose) {
    await options
      .filter({ hasText: new RegExp(`^${choose.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`) })
      .first()
      .click();
    await expect(box).toHaveValue(choose);
  }
  return options;
}

/**
 * The reviewer (in a session of their own) removes every risk assigned to them
 * and submits; the administrator (admin session on `admin`) approves the
 * submission. Returns how many risks were removed.
 */
export async function removeAllAndApproveRest(admin: APIRequestContext, reviewer: Credentials): Promise<number> {
  const api = await playwrightRequest.newContext({ baseURL: baseURL() });
  expect(await restLogin(api, reviewer.email, reviewer.password)).not.toBeNull();
  const rows = ((await (await api.get('/api/assigned-risks?limit=500')).json()) as { risks: { id: number }[] }).risks;
  expect(rows.length).toBeGreaterThan(0);
  expect(
    (await api.post('/api/reviews/decisions', { data: { decisions: rows.map((r) => ({ riskDefinitionId: r.id, decision: 'remove' })) } })).ok(),
  ).toBeTruthy();
  expect((await api.post('/api/reviews/submit')).ok()).toBeTruthy();
  await api.dispose();
  const submissions = (await (await admin.get('/api/submissions?status=submitted')).json()) as { id: string; reviewer: { id: string } }[];
  const mine = submissions.find((s) => s.reviewer.id === reviewer.user.id)!;
  expect((await admin.put(`/api/submissions/${mine.id}/approve`)).ok()).toBeTruthy();
  return rows.length;
}
