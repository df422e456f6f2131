import { expect, test } from '@playwright/test';
import { createActiveUser, ensureAdminSession, signInAsAdmin, toast } from './helpers';
import { searchAssignmentValue, shot, tileValue } from './review-helpers';

test('an administrator creates an assignment with the default name, from the value list, and deletes it', async ({ page, request }) => {
  // Some twenty server round trips (the value searches among them) on a loaded CI runner.
  test.setTimeout(120_000);
  await ensureAdminSession(request);
  const stamp = Date.now().toString(36);
  const reviewer = await createActiveUser(request, { role: 'reviewer', firstName: 'Ada', lastName: `Assign${stamp}` });
  const reviewerLabel = `Ada Assign${stamp} (${reviewer.email})`;

  await signInAsAdmin(page, request);
  await page.goto('/assignments');
  await expect(page.getByRole('heading', { name: 'Risk Assignment Management', level: 1 })).toBeVisible();
  for (const label of ['Active Assignments', 'Available Reviewers', 'System-based', 'Group-based', 'Risk-specific']) {
    await expect(page.getByRole('group', { name: label, exact: true })).toBeVisible();
  }
  const before = Number(await tileValue(page, 'Active Assignments'));
  const systemBefore = Number(await tileValue(page, 'System-based'));
  if (before === 0) await expect(page.getByRole('button', { name: 'Create Your First Assignment' })).toBeVisible();

  // Required fields.
  await page.getByRole('button', { name: 'Create Assignment', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Create Assignment' });
  await expect(dialog).toBeVisible();
  const value = dialog.getByRole('combobox', { name: /^Value/ });
  await expect(value).toBeDisabled();
  await dialog.getByRole('button', { name: 'Create Assignment' }).click();
  await expect(toast(page, 'Missing Information')).toContainText('Please fill in all required fields');

  // The value list follows the type; the name placeholder shows the default name.
  await dialog.getByLabel(/^Reviewer/).selectOption({ label: reviewerLabel });
  await dialog.getByLabel(/^Assignment Type/).selectOption({ label: 'System' });
  // The values are searched on the server as you type.
  const options = await searchAssignmentValue(page, dialog, {});
  await expect(options).toContainText(['Active Directory', 'SAP ERP', 'Workday']);
  await value.fill('work');
  await expect(options).toHaveText(['Workday']);
  await options.first().click();
  await expect(value).toHaveValue('Workday');
  await expect(dialog.getByLabel(/^Assignment Name/)).toHaveAttribute('placeholder', 'SYSTEM: Workday');
  await dialog.getByLabel(/^Assignment Type/).selectOption({ label: 'User Group' });
  await expect(value).toHaveValue('');
  await expect(dialog.getByLabel(/^Assignment Name/)).toHaveAttribute('placeholder', 'USER GROUP: value');
  await dialog.getByLabel(/^Assignment Type/).selectOption({ label: 'System' });
  await searchAssignmentValue(page, dialog, { choose: 'Workday' });
  await shot(page, 'assignments-dialog-1280');
  await dialog.getByRole('button', { name: 'Create Assignment' }).click();
  await expect(toast(page, 'Assignment Created')).toBeVisible();
  await expect(dialog).toBeHidden();

  const row = page
    .getByRole('row')
    .filter({ hasText: 'SYSTEM: Workday' })
    .filter({ hasText: `Ada Assign${stamp}` });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('System');
  await expect(row).toContainText('Workday');
  // The assignment shows how many loaded rows it matches (Workday has 13 of the fixture's 60).
  await expect(page.getByRole('columnheader').nth(4)).toHaveText('Matching Rows');
  await expect(row.getByRole('cell').nth(4)).toHaveText('13');
  await expect.poll(() => tileValue(page, 'Active Assignments')).toBe(String(before + 1));
  await expect.poll(() => tileValue(page, 'System-based')).toBe(String(systemBefore + 1));
  await shot(page, 'assignments-1280');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'assignments-390');
  await page.setViewportSize({ width: 1280, height: 800 });

  // A value the reviewer already has is not offered again.
  await page.getByRole('button', { name: 'Create Assignment', exact: true }).click();
  await dialog.getByLabel(/^Reviewer/).selectOption({ label: reviewerLabel });
  await dialog.getByLabel(/^Assignment Type/).selectOption({ label: 'System' });
  const left = await searchAssignmentValue(page, dialog, {});
  await expect(left.filter({ hasText: 'SAP ERP' })).toHaveCount(1);
  await expect(left.filter({ hasText: 'Workday' })).toHaveCount(0);
  // A name given is kept.
  await searchAssignmentValue(page, dialog, { choose: 'SAP ERP' });
  await dialog.getByLabel(/^Assignment Name/).fill(`ERP review ${stamp}`);
  await dialog.getByRole('button', { name: 'Create Assignment' }).click();
  await expect(toast(page, 'Assignment Created')).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: `ERP review ${stamp}` })).toHaveCount(1);

  // Delete asks first; Cancel keeps the row.
  await row.getByRole('button', { name: /^Delete assignment/ }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete Assignment' });
  await expect(confirm).toContainText('Are you sure you want to delete this assignment? This action cannot be undone.');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(row).toHaveCount(1);
  await row.getByRole('button', { name: /^Delete assignment/ }).click();
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(toast(page, 'Assignment Deleted')).toBeVisible();
  await expect(row).toHaveCount(0);
  await expect.poll(() => tileValue(page, 'Active Assignments')).toBe(String(before + 1));

  // The same manager is embedded in Risk Review's 'Manage Assignments' tab.
  await page.goto('/risk-review');
  await page.getByRole('tab', { name: 'Manage Assignments' }).click();
  await expect(page.getByRole('heading', { name: 'Risk Assignment Management', level: 2 })).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: `ERP review ${stamp}` })).toHaveCount(1);
});
