import { expect, test, type Page } from '@playwright/test';
import { ensureAdminSession, signInAsAdmin, toast } from './helpers';
import { openFreshPeriod } from './review-helpers';

// Issue 18: deciding every risk matching the filters (after a confirmation),
// a mitigation with control, expiry and comment (an expiry in the past
// refused). fixtures/risk-rows.json: 6 rows of user Grace Liu.
const range = (page: Page) => page.getByRole('navigation', { name: 'Pagination' }).locator('[aria-live]');
const dataRows = (page: Page) => page.getByRole('table', { name: 'Risks' }).locator('tbody tr');

test('decide all matching risks, then mitigate one (an expiry in the past refused)', async ({ page, request }) => {
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

  // A mitigation of one selected row: control, expiry and a comment; an expiry in the past is refused.
  const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  const later = new Date(Date.now() + 90 * 86_400_000).toISOString().slice(0, 10);
  await dataRows(page).first().getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Mitigate Selected (1)' }).click();
  const dialog = page.getByRole('dialog', { name: 'Retain with mitigating control' });
  const submit = dialog.getByRole('button', { name: 'Retain (mitigated) (1)' });
  await dialog.getByLabel('Mitigating control').fill('MC-E2E-DUAL');
  await dialog.getByLabel('Control expires on').fill(yesterday);
  await expect(submit).toBeDisabled();
  await dialog.getByLabel('Justification comment').fill('Dual approval on payments');
  await submit.click();
  await expect(toast(page, 'Save Failed')).toContainText('The mitigation expiry date (mitigationExpiresAt) is in the past');
  await dialog.getByLabel('Control expires on').fill(later);
  await submit.click();
  await expect(toast(page, 'Decision Submitted')).toContainText('1 risk marked Retain (mitigated)');
  await expect(dataRows(page).first()).toContainText(`MC-E2E-DUAL · until ${later}`);

  // Not expired: the administrators' list of expired mitigations does not hold it (api/test/mitigation-bulk.test.ts lets one expire).
  await page.goto('/admin-settings');
  await expect(page.getByText('MC-E2E-DUAL')).toHaveCount(0);
});
