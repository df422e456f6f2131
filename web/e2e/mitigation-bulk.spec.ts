import { expect, test, type Page } from '@playwright/test';
import { ensureAdminSession, signInAsAdmin, toast } from './helpers';
import { openFreshPeriod } from './review-helpers';

// Issue 18: deciding every risk matching the filters (after a confirmation),
// a mitigation with control, expiry and comment, and its expiry listed for
// administrators. fixtures/risk-rows.json: 6 rows of user Grace Liu.
const range = (page: Page) => page.getByRole('navigation', { name: 'Pagination' }).locator('[aria-live]');
const dataRows = (page: Page) => page.getByRole('table', { name: 'Risks' }).locator('tbody tr');

test('decide all matching risks, then mitigate one; the expired mitigation is listed for administrators', async ({ page, request }) => {
  await ensureAdminSession(request);
  await openFreshPeriod(request);
  await signInAsAdmin(page, request);

  await page.goto('/risks');
  await page.getByPlaceholder('Search users, roles, or risk IDs...').fill('Grace');
  await expect(range(page)).toHaveText('Showing 1-6 of 6');

  // Every matching risk, not only the page: asks first, with the count.
  await page.getByRole('button', { name: 'Decide all 6 matching' }).click();
  const confirm = page.getByRole('dialog', { name: 'Decide all matching risks' });
  await expect(confirm).toContainText('Every one of the 6 risks matching the current search and filters');
  await confirm.getByLabel('Justification comment').fill('Confirmed with the line manager');
  await confirm.getByRole('button', { name: 'Decide all 6 matching' }).click();
  await expect(toast(page, 'Decision Submitted')).toContainText('6 risks marked Retain');
  await expect(confirm).toBeHidden();
  await expect(dataRows(page).filter({ hasText: 'Pending' })).toHaveCount(0);

  // A mitigation of one selected row: control, expiry (yesterday: already expired) and a comment.
  const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  await dataRows(page).first().getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Mitigate Selected (1)' }).click();
  const dialog = page.getByRole('dialog', { name: 'Retain with mitigating control' });
  const submit = dialog.getByRole('button', { name: 'Retain (mitigated) (1)' });
  await dialog.getByLabel('Mitigating control').fill('MC-E2E-DUAL');
  await dialog.getByLabel('Control expires on').fill(yesterday);
  await expect(submit).toBeDisabled();
  await dialog.getByLabel('Justification comment').fill('Dual approval on payments');
  await submit.click();
  await expect(toast(page, 'Decision Submitted')).toContainText('1 risk marked Retain (mitigated)');
  await expect(dataRows(page).first()).toContainText(`MC-E2E-DUAL · until ${yesterday}`);

  await page.goto('/admin-settings');
  const card = page.getByRole('table', { name: 'Expired mitigations' });
  await expect(card.getByRole('row').filter({ hasText: 'MC-E2E-DUAL' })).toContainText('Grace Liu');
});
