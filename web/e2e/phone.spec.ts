import { expect, test, type Page } from '@playwright/test';
import { createActiveUser, ensureAdminSession, signInAsAdmin, signInThroughForm, toast } from './helpers';
import { createAssignmentRest, openFreshPeriod } from './review-helpers';

// At 390 px the wide lists are cards, and the reviewer's main
// path (decide, decide in bulk, submit) works with no sideways scrolling.
const PHONE = { width: 390, height: 844 };

/** Nothing on the page is wider than the screen. */
async function expectNoSidewaysScroll(page: Page, where: string): Promise<void> {
  const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  expect(widths.scroll, `${where}: page ${widths.scroll}px wide on a ${widths.client}px screen`).toBeLessThanOrEqual(widths.client);
}

/** Each row of the table is a card as wide as the screen allows, its cells labelled with their column. */
async function expectCards(page: Page, table: string, label: string): Promise<void> {
  const rows = page.getByRole('table', { name: table }).locator('tbody tr');
  await expect(rows.first()).toBeVisible();
  const first = rows.first();
  expect(await first.evaluate((tr) => getComputedStyle(tr).flexDirection)).toBe('column');
  await expect(first.locator(`td[data-label="${label}"]`)).toBeVisible();
  const box = (await first.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
}

test("a reviewer's main path at 390 px: cards, decisions, bulk decision and submit", async ({ browser, request }) => {
  await ensureAdminSession(request);
  await openFreshPeriod(request);
  const reviewer = await createActiveUser(request, { role: 'reviewer', firstName: 'Phone', lastName: 'Reviewer' });
  await createAssignmentRest(request, { reviewerId: reviewer.user.id, criteriaType: 'user_group', criteriaValue: 'Treasury' });

  const context = await browser.newContext({ viewport: PHONE, hasTouch: true });
  const page = await context.newPage();
  await signInThroughForm(page, reviewer.email, reviewer.password);
  await expect(page.getByRole('heading', { name: 'Risk Management Dashboard' })).toBeVisible();
  await expectNoSidewaysScroll(page, 'dashboard');

  await page.goto('/assigned-risks');
  await expect(page.getByRole('heading', { name: 'My Assigned Risks', level: 1 })).toBeVisible();
  await expectCards(page, 'Assigned risks', 'Risk Level');
  await expectNoSidewaysScroll(page, 'assigned risks');

  const rows = page.getByRole('table', { name: 'Assigned risks' }).locator('tbody tr');
  await rows
    .nth(0)
    .getByRole('button', { name: /^Retain / })
    .click();
  await expect(toast(page, 'Decision Submitted')).toBeVisible();
  await page.getByRole('checkbox', { name: 'Select all risks on this page' }).check();
  const count = await rows.count();
  await page.getByRole('button', { name: `Retain Selected (${count})` }).click();
  await expect(toast(page, 'Decision Submitted')).toContainText(`${count} risks marked Retain`);
  await expectNoSidewaysScroll(page, 'assigned risks, decided');

  const submit = page.getByRole('button', { name: 'Submit All Decisions' });
  await submit.scrollIntoViewIfNeeded();
  const box = (await submit.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
  await submit.click();
  await expect(toast(page, 'Decisions Submitted')).toBeVisible();
  await expect(rows.first()).toContainText('Locked');
  await context.close();
});

test('at 390 px the risk queue, Reviewer Status and Users are cards with no sideways scrolling', async ({ browser, request }) => {
  const context = await browser.newContext({ viewport: PHONE, hasTouch: true });
  const page = await context.newPage();
  await signInAsAdmin(page, request);

  await page.goto('/risks');
  await expect(page.getByRole('heading', { name: 'Risk Review', level: 1 })).toBeVisible();
  await expectCards(page, 'Risks', 'Risk Level');
  await expectNoSidewaysScroll(page, 'risk queue');

  // 'Go to page' jumps to a page the buttons may not show.
  const pagination = page.getByRole('navigation', { name: 'Pagination' });
  const last = (await pagination
    .getByRole('button', { name: /^Page \d+$/ })
    .last()
    .getAttribute('aria-label'))!.replace('Page ', '');
  await pagination.getByLabel('Go to page').fill(last);
  await pagination.getByRole('button', { name: 'Go', exact: true }).click();
  await expect(pagination.getByRole('button', { name: `Page ${last}` })).toHaveAttribute('aria-current', 'page');
  await expectNoSidewaysScroll(page, 'risk queue, last page');

  // The tab strip scrolls: the active tab of an address is in view.
  await page.goto('/risks?tab=status');
  const active = page.getByRole('tab', { name: 'Reviewer Status' });
  await expect(active).toHaveAttribute('aria-selected', 'true');
  await expect
    .poll(async () => {
      const b = (await active.boundingBox())!;
      return b.x >= 0 && b.x + b.width <= PHONE.width;
    })
    .toBe(true);
  await expectCards(page, 'Reviewer status', 'Status');
  await expectNoSidewaysScroll(page, 'reviewer status');

  await page.goto('/users');
  await expect(page.getByRole('heading', { name: 'User Management', level: 1 })).toBeVisible();
  await expectCards(page, 'Users', 'Role');
  await expectNoSidewaysScroll(page, 'users');
  await context.close();
});
