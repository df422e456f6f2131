import { expect, test, type APIRequestContext } from '@playwright/test';
import { appendCsvRest, createActiveUser, ensureAdminSession, signInAsAdmin, toast } from './helpers';
import { createAssignmentRest, openFreshPeriod, removeAllAndApproveRest, uniqueName } from './review-helpers';

// The remediation list in the browser: an approved removal is on the remediation list (Reports > Remediation
// List), an administrator marks it done there, and a later upload verifies it or, when the access is still in
// the data, reopens it (here both are reopened: rows are appended, so the earlier ones stay). The rules behind it (who may set what, the CSV, the notification) are in
// api/test/reports/remediation.test.ts. Rows are this run's own (a unique user), uploaded in append mode.
const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`.toUpperCase();
const USER = `RM${tag}`;
const NAME = `Remy Remediate ${tag}`;
const GONE = `Z_RM_GONE_${tag}`;
const KEPT = `Z_RM_KEPT_${tag}`;
const HEADER = 'User ID,User Name,User Group,Access Risk ID,Risk Description,Risk Level,Rule ID,System,Role/Profile,Composite/Business Role';
const row = (role: string, risk: string) => [USER, NAME, 'FIN', risk, 'Create and pay vendor', 'High', '0301', 'SAP ERP', role, `CR_${role}`].join(',');

const upload = (api: APIRequestContext, lines: string[]) => appendCsvRest(api, { name: `remediation-${tag}.csv`, header: HEADER, lines });

test('an approved removal is marked done on the remediation list, and the next upload reopens what is still in the data', async ({ page, request }) => {
  await ensureAdminSession(request);
  await upload(request, [row(GONE, 'S700'), row(KEPT, 'S701')]);
  const reviewer = await createActiveUser(request, { role: 'reviewer', firstName: 'Rita', lastName: 'Remover' });
  await createAssignmentRest(request, { reviewerId: reviewer.user.id, criteriaType: 'user_id', criteriaValue: USER });
  const period = await openFreshPeriod(request, uniqueName('Remediation period'));
  // The reviewer removes both accesses and submits; the administrator approves.
  expect(await removeAllAndApproveRest(request, reviewer)).toBe(2);

  await signInAsAdmin(page, request);
  await page.getByRole('link', { name: 'Reports' }).click();
  await page.getByRole('link', { name: 'Remediation List' }).click();
  await expect(page.getByRole('heading', { name: 'Remediation', level: 1 })).toBeVisible();
  await page.getByLabel('Review period').selectOption({ label: `${period.name} (Active)` });
  const table = page.getByRole('table', { name: 'Remediation items' });
  const item = (role: string) => table.getByRole('row').filter({ hasText: role });
  await expect(table.getByRole('row').filter({ hasText: USER })).toHaveCount(2);
  await expect(item(GONE)).toContainText('Open');
  await expect(item(GONE)).toContainText(reviewer.email);

  // Keyboard: focus the item's button and press Enter; the row shows who set the status.
  await item(GONE)
    .getByRole('button', { name: /^Mark done/ })
    .focus();
  await page.keyboard.press('Enter');
  await expect(toast(page, 'Status Updated')).toBeVisible();
  await expect(item(GONE)).toContainText('Done');
  await expect(item(GONE)).toContainText('by ');
  await item(KEPT)
    .getByRole('button', { name: /^Mark done/ })
    .click();
  await expect(item(KEPT)).toContainText('Done');
  // Filtered by status, an item set to another status leaves the list at once.
  await page.getByLabel('Status', { exact: true }).selectOption({ label: 'Done' });
  await expect(table.getByRole('row').filter({ hasText: USER })).toHaveCount(2);
  await item(KEPT)
    .getByRole('button', { name: /^Reopen/ })
    .click();
  await expect(item(KEPT)).toHaveCount(0);
  await page.getByLabel('Status', { exact: true }).selectOption({ label: 'All' });
  await item(KEPT)
    .getByRole('button', { name: /^Mark done/ })
    .click();
  await expect(item(KEPT)).toContainText('Done');

  // The next export (appended: this spec shares its database) holds KEPT again. The check looks at the
  // access present after the upload, which an append leaves in place: both items are still there, so
  // both are reopened (a 'replace' without GONE verifies it: api/test/reports/remediation.test.ts).
  await upload(request, [row(KEPT, 'S701')]);
  await page.reload();
  await page.getByLabel('Review period').selectOption({ label: `${period.name} (Active)` });
  await expect(item(KEPT)).toContainText('Open');
  await expect(item(KEPT)).toContainText('Reopened 1× by an upload');
  await expect(item(GONE)).toContainText('Reopened 1× by an upload');

  // On a phone (390 px) each item is a card, its cells under their column's names, no wider than the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(item(GONE).getByRole('cell').first()).toHaveAttribute('data-label', 'User');
  const markDone = item(KEPT).getByRole('button', { name: /^Mark done/ });
  await markDone.scrollIntoViewIfNeeded();
  await expect(markDone).toBeInViewport({ ratio: 1 });
  await page.screenshot({ path: '/tmp/remed/phone.png', fullPage: false });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});
