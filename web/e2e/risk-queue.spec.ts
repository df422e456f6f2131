import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { toast } from './helpers';
import { adminInFreshPeriod, queueRange, queueRows, shot } from './review-helpers';

// fixtures/risk-rows.json: 60 rows; 6 of user Grace Liu; 15 low; 13 on Workday, 7 of them low;
// 16 in group Finance; 7 with rule 0201; 7 under composite role CR_IT_IDENTITY.

test('the administrators’ queue: search, filters, advanced filters, paging, selection and batch decisions', async ({ page, request }) => {
  await adminInFreshPeriod(page, request);

  await page.goto('/risks');
  await expect(page.getByRole('heading', { name: 'Risk Review', level: 1 })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Risk Overview' })).toHaveAttribute('aria-selected', 'true');
  await expect(queueRange(page)).toHaveText('Showing 1-25 of 60');
  await expect(queueRows(page)).toHaveCount(25);
  await shot(page, 'queue-1280');

  // Pagination: Next, a page button, Previous.
  const pager = page.getByRole('navigation', { name: 'Pagination' });
  await pager.getByRole('button', { name: 'Next' }).click();
  await expect(queueRange(page)).toHaveText('Showing 26-50 of 60');
  await pager.getByRole('button', { name: 'Page 3' }).click();
  await expect(queueRange(page)).toHaveText('Showing 51-60 of 60');
  await expect(queueRows(page)).toHaveCount(10);
  await expect(pager.getByRole('button', { name: 'Next' })).toBeDisabled();
  await pager.getByRole('button', { name: 'Previous' }).click();
  await expect(queueRange(page)).toHaveText('Showing 26-50 of 60');

  // Search (back to page 1).
  const search = page.getByPlaceholder('Search users, roles, or risk IDs...');
  await search.fill('Grace');
  await expect(queueRange(page)).toHaveText('Showing 1-6 of 6');
  await expect(queueRows(page).first()).toContainText('Grace Liu');
  await expect(queueRows(page).first()).toContainText('Treasury');
  await search.fill('');
  await expect(queueRange(page)).toHaveText('Showing 1-25 of 60');

  // Risk level and system filters (systems come from the data).
  await page.getByLabel('Risk level').selectOption('low');
  await expect(queueRange(page)).toHaveText('Showing 1-15 of 15');
  // The System filter searches the server as you type.
  const system = page.getByRole('combobox', { name: 'System', exact: true });
  await system.click();
  const systems = page.getByRole('listbox').getByRole('option');
  await expect(systems).toHaveText(['Active Directory', 'SAP ERP', 'Workday']);
  await system.fill('work');
  await expect(systems).toHaveText(['Workday']);
  await systems.first().click();
  await expect(queueRange(page)).toHaveText('Showing 1-7 of 7');
  await page.getByLabel('Risk level').selectOption('');
  await expect(queueRange(page)).toHaveText('Showing 1-13 of 13');
  // Emptied and left with the keyboard, the filter is cleared.
  await system.fill('');
  await system.press('Tab');
  await expect(queueRange(page)).toHaveText('Showing 1-25 of 60');

  // A row without a group says so.
  await search.fill('Hugo');
  await expect(queueRows(page).first()).toContainText('No Group');
  await search.fill('');

  // Advanced filters really filter.
  await page.getByRole('button', { name: 'Advanced Filters' }).click();
  const advanced = page.getByRole('group', { name: 'Advanced filters' });
  await advanced.getByLabel('Rule ID').fill('0201');
  await expect(queueRange(page)).toHaveText('Showing 1-7 of 7');
  await advanced.getByLabel('Rule ID').fill('');
  await advanced.getByLabel('Composite Role').fill('CR_IT_IDENTITY');
  await expect(queueRange(page)).toHaveText('Showing 1-7 of 7');
  await advanced.getByLabel('Composite Role').fill('');
  // The Role/Profile filter searches as you type (on the server).
  const role = advanced.getByRole('combobox', { name: 'Role/Profile' });
  await role.click();
  await role.fill('treasury_po');
  const found = page.getByRole('listbox').getByRole('option');
  await expect(found).toHaveCount(2);
  await found.filter({ hasText: 'Z_TREASURY_POST_2' }).click();
  await expect(queueRange(page)).toHaveText('Showing 1-2 of 2');
  await advanced.getByRole('button', { name: 'Clear advanced filters' }).click();
  const group = advanced.getByRole('combobox', { name: 'User Group' });
  await group.click();
  await group.fill('fin');
  await page.getByRole('listbox').getByRole('option', { name: 'Finance', exact: true }).click();
  await expect(queueRange(page)).toHaveText('Showing 1-16 of 16');
  await shot(page, 'queue-advanced-1280');

  // Batch buttons need a selection.
  await page.getByRole('button', { name: 'Retain Selected (0)' }).click();
  await expect(toast(page, 'No Risks Selected')).toContainText('Please select risks to make decisions on');

  // Select all on the page, then retain them together.
  await page.getByRole('checkbox', { name: 'Select all risks on this page' }).check();
  await expect(page.getByRole('button', { name: 'Retain Selected (16)' })).toBeVisible();
  await queueRows(page).first().getByRole('checkbox').uncheck();
  await expect(page.getByRole('button', { name: 'Remove Selected (15)' })).toBeVisible();
  await page.getByRole('button', { name: 'Retain Selected (15)' }).click();
  await expect(toast(page, 'Decision Submitted')).toContainText('15 risks marked Retain');
  await expect(page.getByRole('button', { name: 'Retain Selected (0)' })).toBeVisible();

  // The decision filter: 15 retained, the other Finance row pending.
  await advanced.getByLabel('Decision').selectOption('retain');
  await expect(queueRange(page)).toHaveText('Showing 1-15 of 15');
  await advanced.getByLabel('Decision').selectOption('pending');
  await expect(queueRange(page)).toHaveText('Showing 1-1 of 1');

  // One row's switch saves that row's decision.
  const only = queueRows(page).first();
  await expect(only.getByRole('switch')).not.toBeChecked();
  await only.getByRole('switch').click();
  await expect(toast(page, 'Decision Submitted')).toBeVisible();
  await expect(only.getByRole('switch')).toBeChecked();
  await expect(only).toContainText('Retain');
  await advanced.getByLabel('Decision').selectOption('retain');
  await expect(queueRange(page)).toHaveText('Showing 1-16 of 16');
  await queueRows(page).first().getByRole('switch').click();
  await expect(toast(page, 'Decision Submitted')).toContainText('Remove');
  await advanced.getByLabel('Decision').selectOption('remove');
  await expect(queueRange(page)).toHaveText('Showing 1-1 of 1');

  // Export Results downloads the filtered rows as CSV.
  await advanced.getByLabel('Decision').selectOption('');
  await expect(queueRange(page)).toHaveText('Showing 1-16 of 16');
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export Results' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/\.csv$/);
  const csv = fs
    .readFileSync(await download.path(), 'utf8')
    .trim()
    .split(/\r?\n/);
  expect(csv[0]).toContain('User ID');
  expect(csv).toHaveLength(17);
  expect(csv.slice(1).every((line) => line.includes('Finance'))).toBe(true);

  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'queue-390');
});

test("the queue's retain/remove control shows Pending, Retain and Remove distinctly", async ({ page, request }) => {
  await adminInFreshPeriod(page, request);
  await page.goto('/risks');
  const rows = queueRows(page);
  await expect(rows).toHaveCount(25);
  const name = (await rows.first().getByRole('switch').getAttribute('aria-label')) ?? '';
  const control = page.getByRole('switch', { name, exact: true });
  const row = rows.filter({ has: control });
  const indicator = row.locator('.fui-Switch__indicator');
  const look = async () =>
    indicator.evaluate((el) => {
      const s = getComputedStyle(el);
      return `${s.borderTopStyle} ${s.borderTopColor} ${s.color}`;
    });

  // Pending: its own word (read with the switch) and its own look.
  await expect(control).not.toBeChecked();
  await expect(control).toHaveAccessibleDescription('Pending');
  const pendingLook = await look();

  await control.click();
  await expect(toast(page, 'Decision Submitted')).toBeVisible();
  await expect(control).toBeChecked();
  await expect(control).toHaveAccessibleDescription('Retain');

  await control.click();
  await expect(control).not.toBeChecked();
  await expect(control).toHaveAccessibleDescription('Remove');
  // Remove is off like Pending, but does not look like it.
  expect(await look()).not.toBe(pendingLook);
});
