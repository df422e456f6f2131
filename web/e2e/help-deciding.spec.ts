import { expect, test, type Page } from '@playwright/test';
import { createActiveUser, ensureAdminSession, signInAsAdmin, signInThroughForm, toast } from './helpers';
import { createAssignmentRest, openFreshPeriod, uniqueName } from './review-helpers';

// Beside each assigned risk, the recommendation with
// its reason and facts (here: last period's decision, the high-risk rule),
// filtered and sorted by it; the approver sees removals first and comments on
// one item, which the reviewer then reads. fixtures/risk-rows.json: group
// Treasury has 6 rows of Grace Liu (rules 0302, 0201 and 0303 are high-risk).
const rowsOf = (page: Page) => page.getByRole('table', { name: 'Assigned risks' }).locator('tbody tr');

test('help deciding beside each risk, and an approval that shows removals first with a comment per item', async ({ browser, page, request }) => {
  test.setTimeout(300_000);
  await ensureAdminSession(request);
  const stamp = Date.now().toString(36);
  const reviewer = await createActiveUser(request, { role: 'reviewer', firstName: 'Hana', lastName: `Help${stamp}` });
  await signInAsAdmin(page, request);
  const last = await openFreshPeriod(request, uniqueName('Help last'));
  await createAssignmentRest(request, { reviewerId: reviewer.user.id, criteriaType: 'user_group', criteriaValue: 'Treasury' });

  // Last period, the reviewer retained P001.
  const revContext = await browser.newContext();
  const rev = await revContext.newPage();
  await signInThroughForm(rev, reviewer.email, reviewer.password);
  await expect(rev.getByRole('heading', { name: 'Risk Management Dashboard' })).toBeVisible({ timeout: 30_000 });
  await rev.goto('/risk-review');
  await expect(rowsOf(rev)).toHaveCount(6);
  await rowsOf(rev)
    .filter({ hasText: 'P001' })
    .getByRole('button', { name: /^Retain / })
    .click();
  await expect(toast(rev, 'Decision Submitted')).toBeVisible();
  await openFreshPeriod(request, uniqueName('Help now'));

  // This period: the facts and the recommendation beside each row; nothing decided by it.
  await rev.reload();
  const p001 = rowsOf(rev).filter({ hasText: 'P001' });
  await expect(p001.getByTestId('recommendation')).toContainText('Suggests: Retain');
  await expect(p001.getByTestId('recommendation')).toContainText(`Retained in the last period (${last.name}); no usage in the export`);
  await expect(p001).toContainText('Last period: Retain');
  await expect(p001).toContainText('Pending');
  const f001 = rowsOf(rev).filter({ hasText: 'F001' });
  await expect(f001.getByTestId('recommendation')).toContainText('Suggests: Review');
  await expect(f001.getByTestId('recommendation')).toContainText('High-risk rule with no usage in the export');

  // Filter and sort by recommendation.
  await rev.getByLabel('Recommendation').selectOption('RETAIN');
  await expect(rowsOf(rev)).toHaveCount(1);
  await expect(rowsOf(rev).first()).toContainText('P001');
  await rev.getByLabel('Recommendation').selectOption('');
  await rev.getByLabel('Sort by').selectOption('RECOMMENDATION');
  await expect(rowsOf(rev)).toHaveCount(6);
  await expect(rowsOf(rev).last()).toContainText('P001');
  // On a phone the reason is still there.
  await rev.setViewportSize({ width: 390, height: 844 });
  await expect(rowsOf(rev).last().getByTestId('recommendation')).toBeVisible();
  await rev.setViewportSize({ width: 1280, height: 800 });

  // The reviewer keeps P001, removes F001 and submits.
  await rowsOf(rev)
    .filter({ hasText: 'P001' })
    .getByRole('button', { name: /^Retain / })
    .click();
  await expect(toast(rev, 'Decision Submitted')).toBeVisible();
  await rowsOf(rev)
    .filter({ hasText: 'F001' })
    .getByRole('button', { name: /^Remove / })
    .click();
  await expect(toast(rev, 'Decision Submitted')).toBeVisible();
  await rev.getByRole('button', { name: 'Submit All Decisions' }).click();
  await expect(toast(rev, 'Decisions Submitted')).toBeVisible();

  // The approver sees the removal first and comments on it.
  await page.goto('/risk-review?tab=status');
  const statusRow = page.getByRole('row').filter({ hasText: `Hana Help${stamp}` });
  await statusRow.getByRole('button', { name: 'Approve' }).click();
  const dialog = page.getByRole('dialog', { name: 'Approve Decisions' });
  const items = dialog.getByRole('list', { name: 'Submitted items' }).getByRole('listitem');
  await expect(items).toHaveCount(2);
  await expect(items.first()).toContainText('Removal');
  await expect(items.first()).toContainText('F001');
  await items.first().getByRole('textbox').fill('Revoke in SAP by Friday');
  await dialog.getByRole('button', { name: 'Approve' }).click();
  await expect(toast(page, 'Decisions Approved')).toBeVisible();

  // The reviewer reads the comment on the item.
  await rev.reload();
  await expect(rev.getByRole('list', { name: 'Comments on your items' })).toContainText('F001');
  await expect(rev.getByRole('list', { name: 'Comments on your items' })).toContainText('Revoke in SAP by Friday');
  await revContext.close();
});
