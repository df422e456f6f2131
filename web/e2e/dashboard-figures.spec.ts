import { expect, request as playwrightRequest, test } from '@playwright/test';
import { baseURL, createActiveUser, ensureAdminSession, restLogin, signInAsAdmin } from './helpers';
import { createAssignmentRest, openFreshPeriod, shot } from './review-helpers';

test('the dashboard draws the trend and categories from data, and they move live when a reviewer decides', async ({ page, request }) => {
  await ensureAdminSession(request);
  const reviewer = await createActiveUser(request, { role: 'reviewer', firstName: 'Dana', lastName: `Live${Date.now().toString(36)}` });
  await createAssignmentRest(request, { reviewerId: reviewer.user.id, criteriaType: 'system', criteriaValue: 'Workday' });
  await openFreshPeriod(request);

  await signInAsAdmin(page, request);
  const trend = page.getByRole('figure', { name: 'Risk trend, Last 30 days' });
  // The charts are drawn once they come near the screen, as the user scrolls to them.
  await trend.scrollIntoViewIfNeeded();
  await expect(trend.locator('svg').first()).toBeVisible();
  const summary = page.getByTestId('trend-summary');
  await expect(summary).toContainText('0 retained, 0 removed');
  const before = await summary.innerText();
  const pendingBefore = Number(/([\d,]+) pending/.exec(before)![1]!.replace(/,/g, ''));
  expect(pendingBefore).toBeGreaterThan(0);

  await expect(page.getByRole('list', { name: 'Risk categories' })).toContainText('Uncategorised');
  const categories = page.getByRole('group', { name: 'Risk categories chart' });
  await categories.scrollIntoViewIfNeeded();
  await expect(categories.locator('svg').first()).toBeVisible();
  const progress = page.getByRole('list', { name: 'Progress by reviewer' });
  await expect(progress).toContainText(`Dana ${reviewer.user.lastName}`);
  await expect(progress).toContainText('0 of ');

  // The reviewer removes their Workday rows elsewhere: the open dashboard follows without a reload.
  const api = await playwrightRequest.newContext({ baseURL: baseURL() });
  expect(await restLogin(api, reviewer.email, reviewer.password)).not.toBeNull();
  const rows = ((await (await api.get('/api/assigned-risks?limit=500')).json()) as { risks: { id: number }[] }).risks;
  expect(rows.length).toBeGreaterThan(0);
  const saved = await api.post('/api/reviews/decisions', { data: { decisions: rows.map((r) => ({ riskDefinitionId: r.id, decision: 'remove' })) } });
  expect(saved.ok()).toBeTruthy();
  await api.dispose();

  await expect(summary).toContainText(`0 retained, ${rows.length} removed, ${(pendingBefore - rows.length).toLocaleString('en-US')} pending`);
  await expect(progress).toContainText(`${rows.length} of ${rows.length} decided (100%)`);

  await page.getByRole('combobox', { name: 'Trend period' }).selectOption({ label: 'Last 6 months' });
  await expect(page.getByRole('figure', { name: 'Risk trend, Last 6 months' }).locator('svg').first()).toBeVisible();
  await expect(summary).toContainText(`${rows.length} removed`);
  await shot(page, 'dashboard-figures');
});
