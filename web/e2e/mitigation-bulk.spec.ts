import { expect, test } from '@playwright/test';
import { ensureAdminSession, toast } from './helpers';
import { adminInFreshPeriod, queueRange, queueRows } from './review-helpers';

// Deciding every risk matching the filters (after a confirmation),
// a mitigation with control, expiry and comment (an expiry in the past
// refused); the review rules of Admin Settings (a comment required for
// removals, deciding all matching switched off) held by the server.
// fixtures/risk-rows.json: 6 rows of user Grace Liu.

test('decide all matching risks, then mitigate one (an expiry in the past refused)', async ({ page, request }) => {
  await adminInFreshPeriod(page, request);

  await page.goto('/risks');
  await page.getByPlaceholder('Search users, roles, or risk IDs...').fill('Grace');
  await expect(queueRange(page)).toHaveText('Showing 1-6 of 6');

  // Every matching risk, not only the page: asks first, with the count.
  await page.getByRole('button', { name: 'Decide all 6 matching' }).click();
  const confirm = page.getByRole('dialog', { name: 'Decide all matching risks' });
  await expect(confirm).toContainText('Every one of the 6 risks matching the current search and filters');
  await confirm.getByLabel('Justification comment').fill('Confirmed with the line manager');
  await confirm.getByRole('button', { name: 'Decide all 6 matching' }).click();
  await expect(toast(page, 'Decision Submitted')).toContainText('6 risks marked Retain');
  await expect(confirm).toBeHidden();
  await expect(queueRows(page).filter({ hasText: 'Pending' })).toHaveCount(0);

  // A mitigation of one selected row: control, expiry and a comment; an expiry in the past is refused.
  const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  const later = new Date(Date.now() + 90 * 86_400_000).toISOString().slice(0, 10);
  await queueRows(page).first().getByRole('checkbox').check();
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
  await expect(queueRows(page).first()).toContainText(`MC-E2E-DUAL · until ${later}`);

  // Not expired: the administrators' list of expired mitigations does not hold it (api/test/review/mitigation-bulk.test.ts lets one expire).
  await page.goto('/admin-settings');
  await expect(page.getByText('MC-E2E-DUAL')).toHaveCount(0);
});

// The review rules are global: whatever happens above, the later specs get the defaults back.
test.afterAll(async ({ request }) => {
  await ensureAdminSession(request);
  for (const [settingKey, settingValue] of [
    ['review.requireRemovalComment', 'false'],
    ['review.allowBulkApproval', 'true'],
  ]) {
    expect((await request.post('/api/admin/settings', { data: { settingKey, settingValue } })).ok()).toBeTruthy();
  }
});

test('a comment required for removals and deciding all matching switched off, in Admin Settings; the server holds both', async ({ page, request }) => {
  await adminInFreshPeriod(page, request);
  await page.goto('/admin-settings');
  const requireComment = page.getByRole('switch', { name: 'Require a comment for removals' });
  const allowBulk = page.getByRole('switch', { name: 'Allow deciding all matching risks at once' });
  await expect(requireComment).not.toBeChecked();
  await requireComment.click();
  await expect(requireComment).toBeChecked();
  await expect(allowBulk).toBeEnabled();
  await allowBulk.click();
  await expect(allowBulk).not.toBeChecked();
  await page.reload();
  await expect(requireComment).toBeChecked();
  await expect(allowBulk).not.toBeChecked();

  await page.goto('/risks');
  await page.getByPlaceholder('Search users, roles, or risk IDs...').fill('Grace');
  await expect(queueRange(page)).toHaveText('Showing 1-6 of 6');
  // The new period starts with the still valid mitigation carried over; the rest is pending.
  await expect(queueRows(page).first()).toContainText('MC-E2E-DUAL');
  await expect(queueRows(page).filter({ hasText: 'Pending' })).toHaveCount(5);
  // Deciding all matching is refused by the server with its reason; nothing is decided.
  await page.getByRole('button', { name: 'Decide all 6 matching' }).click();
  const confirm = page.getByRole('dialog', { name: 'Decide all matching risks' });
  await confirm.getByLabel('Justification comment').fill('Confirmed with the line manager');
  await confirm.getByRole('button', { name: 'Decide all 6 matching' }).click();
  await expect(confirm).toContainText('Deciding every matching item at once is switched off by an administrator. Select the items on the page instead.');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(queueRows(page).filter({ hasText: 'Pending' })).toHaveCount(5);
  // A removal without a comment is refused, and the dialog asks for one.
  await queueRows(page).filter({ hasText: 'Pending' }).first().getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Remove Selected (1)' }).click();
  const ask = page.getByRole('dialog', { name: 'Remove with a comment' });
  await expect(ask).toContainText('A removal needs a justification comment: administrators require one');
  await expect(ask.getByRole('button', { name: 'Remove (1)' })).toBeDisabled();
  await ask.getByLabel(/^Justification comment/).fill('Left the treasury team');
  await ask.getByRole('button', { name: 'Remove (1)' }).click();
  await expect(toast(page, 'Decision Submitted')).toContainText('1 risk marked Remove');
  await expect(queueRows(page).filter({ hasText: 'Pending' })).toHaveCount(4);
});
