import { expect, test, type Page } from '@playwright/test';
import {
  ADMIN_CHANGED_PASSWORD,
  ADMIN_EMAIL,
  createActiveUser,
  ensureAdminSession,
  fillSignInForm,
  sendNotificationRest,
  signInAsAdmin,
  signInThroughForm,
  statValue,
  toast,
  withNotificationToAll,
} from './helpers';
import { closeActivePeriod, createAssignmentRest, openFreshPeriod, queueRange, uniqueName } from './review-helpers';

// What users tripped over in the main flow: each test shows one defect gone.

const assignedRows = (page: Page) => page.getByRole('table', { name: 'Assigned risks' }).locator('tbody tr');

test('Reopen on a dashboard loaded with no active period opens the period without a crash', async ({ page, request }) => {
  await ensureAdminSession(request);
  const period = await openFreshPeriod(request, uniqueName('Reopen me'));
  await closeActivePeriod(request);
  await signInAsAdmin(page, request);
  await expect(page.getByText('No Active Review Period', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: `Reopen ${period.name}` }).click();
  await expect(toast(page, 'Success')).toContainText('Review period opened');
  const active = page.getByRole('group', { name: 'Active review period' });
  await expect(active).toContainText(period.name);
  await expect(page.getByText('Something went wrong')).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Risk Management Dashboard' })).toBeVisible();
});

test('the Notifications page cards describe the notifications it lists (SPEC: read rate of total and unread)', async ({ page, request }) => {
  await ensureAdminSession(request);
  const reviewer = await createActiveUser(request, { role: 'reviewer', firstName: 'Cards', lastName: `Reader${Date.now().toString(36)}` });
  const stamp = Date.now().toString(36);
  await withNotificationToAll(request, { title: `Cards for all ${stamp}`, message: 'Everyone' }, async () => {
    await sendNotificationRest(request, {
      title: `Cards for one ${stamp}`,
      message: 'Only the reviewer',
      targetType: 'specific',
      targetUserId: reviewer.user.id,
    });
    await signInAsAdmin(page, request);
    await page.goto('/notifications');
    await expect(page.getByRole('article', { name: `Cards for one ${stamp}` })).toBeVisible();
    const listed = (await (await request.get('/api/notifications?admin=true')).json()) as { total: number; unreadCount: number };
    expect(Number(await statValue(page, 'Total Notifications'))).toBe(listed.total);
    expect(Number(await statValue(page, 'Unread Messages'))).toBe(listed.unreadCount);
    expect(await statValue(page, 'Read Rate')).toBe(`${Math.round(((listed.total - listed.unreadCount) / listed.total) * 100)}%`);
  });
});

test('when the session ends elsewhere, sign-in returns to the page and its filters', async ({ page, request }) => {
  await ensureAdminSession(request);
  await signInAsAdmin(page, request);
  await page.goto('/all-reviews');
  await expect(page.getByRole('heading', { name: 'All Review Decisions' })).toBeVisible();
  await page.context().clearCookies();
  await page.getByLabel('Shared Roles').selectOption('UNIQUE');
  await expect(toast(page, 'Unauthorized')).toContainText('You are logged out. Logging in again...');
  await expect(page).toHaveURL(/\/internal-login\?next=%2Fall-reviews/);
  await fillSignInForm(page, ADMIN_EMAIL, ADMIN_CHANGED_PASSWORD);
  await expect(page.getByRole('heading', { name: 'All Review Decisions' })).toBeVisible();
  expect(new URL(page.url()).pathname).toBe('/all-reviews');
});

test('the reviewer list shows compact rows: the recommendation once, in a column wide enough for it', async ({ browser, request }) => {
  await ensureAdminSession(request);
  await openFreshPeriod(request);
  const reviewer = await createActiveUser(request, { role: 'reviewer', firstName: 'Compact', lastName: `Rows${Date.now().toString(36)}` });
  await createAssignmentRest(request, { reviewerId: reviewer.user.id, criteriaType: 'user_group', criteriaValue: 'Finance' });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const rev = await context.newPage();
  await signInThroughForm(rev, reviewer.email, reviewer.password);
  await expect(rev.getByRole('heading', { name: 'Risk Management Dashboard' })).toBeVisible();
  await rev.goto('/risk-review');
  await expect(assignedRows(rev)).toHaveCount(16);
  const heights = await assignedRows(rev).evaluateAll((rows) => rows.map((r) => r.getBoundingClientRect().height));
  // A row of the list is at most about two lines of text plus its buttons.
  expect(Math.max(...heights), `row heights ${heights.join(', ')}`).toBeLessThanOrEqual(96);
  // Nothing of the list is off screen at 1280 px (its Actions column included).
  const overflow = await rev.getByRole('table', { name: 'Assigned risks' }).evaluate((t) => t.parentElement!.scrollWidth - t.parentElement!.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  // Each row names its recommendation once.
  const first = assignedRows(rev).first().getByTestId('recommendation');
  expect(((await first.innerText()).match(/Suggests:/g) ?? []).length).toBe(1);

  // The list's search and page are in the address: kept on reload.
  await rev.getByRole('textbox', { name: 'Search assigned risks' }).fill('Finance');
  await expect(rev).toHaveURL(/search=Finance/);
  await rev.reload();
  await expect(rev.getByRole('textbox', { name: 'Search assigned risks' })).toHaveValue('Finance');
  await context.close();
});

test('the queue and All Reviews keep page, search and filters in the address; Risk Review tabs are history entries', async ({ page, request }) => {
  await ensureAdminSession(request);
  await openFreshPeriod(request);
  await signInAsAdmin(page, request);
  await page.goto('/risk-review');
  await expect(queueRange(page)).toContainText('Showing 1-25 of 60');
  await page.getByRole('navigation', { name: 'Pagination' }).getByRole('button', { name: 'Page 2' }).click();
  await expect(queueRange(page)).toContainText('Showing 26-50 of 60');
  await expect(page).toHaveURL(/[?&]page=2/);
  await page.reload();
  await expect(queueRange(page)).toContainText('Showing 26-50 of 60');
  await page.getByLabel('Risk level').selectOption('low');
  await expect(page).toHaveURL(/riskLevel=low/);
  await expect(queueRange(page)).not.toContainText('of 60');
  await page.goBack();
  await expect(page).toHaveURL(/[?&]page=2/);
  await expect(queueRange(page)).toContainText('Showing 26-50 of 60');
  await expect(page.getByLabel('Risk level')).toHaveValue('');

  // Tabs: each choice is a history entry, so Back returns to the tab before.
  await page.getByRole('tab', { name: 'Reviewer Status' }).click();
  await expect(page).toHaveURL(/tab=status/);
  await page.goBack();
  await expect(page.getByRole('tab', { name: 'Risk Overview' })).toHaveAttribute('aria-selected', 'true');
  await expect(page).toHaveURL(/\/risk-review/);

  // All Reviews: the filters survive a reload.
  await page.goto('/all-reviews');
  await page.getByLabel('Decision', { exact: true }).selectOption('REMOVE');
  await expect(page).toHaveURL(/decision=REMOVE/);
  await page.reload();
  await expect(page.getByLabel('Decision', { exact: true })).toHaveValue('REMOVE');
});

test('texts: the legend names retain and remove, the risk report says what it holds, dates follow one rule in any locale', async ({ browser, request }) => {
  await ensureAdminSession(request);
  const context = await browser.newContext({ locale: 'de-DE', timezoneId: 'Europe/Berlin' });
  const page = await context.newPage();
  await signInAsAdmin(page, request);
  await expect(page.getByText(/31 original columns/)).toHaveCount(0);
  await expect(page.getByText(/The risk report holds/)).toContainText('review columns');

  await page.goto('/all-reviews');
  const legend = page.getByRole('region', { name: 'Legend' });
  await expect(legend).toContainText('Retain');
  await expect(legend).toContainText('Remove');
  await expect(legend).not.toContainText('Pending');

  await page.goto('/users');
  const me = page.getByRole('row').filter({ hasText: ADMIN_EMAIL });
  await expect(me).toContainText(/[A-Z][a-z]{2} \d{1,2}, \d{4}/);
  await expect(me).not.toContainText(/\d{2}\.\d{2}\.\d{4}/);
  await context.close();
});
