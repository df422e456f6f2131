import { expect, request as playwrightRequest, test, type APIRequestContext } from '@playwright/test';
import { baseURL, createActiveUser, ensureAdminSession, restLogin, signInAsAdmin, type Credentials } from './helpers';
import { createAssignmentRest, openFreshPeriod, shot } from './review-helpers';

/** Every row a reviewer may see, decided through REST as that reviewer. */
async function decideAll(reviewer: Credentials, decide: (row: { id: number; userId: string; roleProfile: string }) => string | null) {
  const api = await playwrightRequest.newContext({ baseURL: baseURL() });
  try {
    expect(await restLogin(api, reviewer.email, reviewer.password)).not.toBeNull();
    const assigned = await api.get('/api/assigned-risks?limit=500');
    const rows = ((await assigned.json()) as { risks: { id: number; userId: string; roleProfile: string }[] }).risks;
    const decisions = rows.flatMap((r) => {
      const d = decide(r);
      return d ? [{ riskDefinitionId: r.id, decision: d }] : [];
    });
    const saved = await api.post('/api/reviews/decisions', { data: { decisions } });
    expect(saved.ok(), await saved.text()).toBeTruthy();
    return decisions.length;
  } finally {
    await api.dispose();
  }
}

async function reviewers(api: APIRequestContext) {
  const tag = Math.random().toString(36).slice(2, 7);
  const first = await createActiveUser(api, { role: 'reviewer', firstName: 'Ann', lastName: `Primary${tag}` });
  const second = await createActiveUser(api, { role: 'reviewer', firstName: 'Ben', lastName: `Second${tag}` });
  return { first, second, tag };
}

test('Reports lists recent reviews; All Reviews searches, filters, pages and highlights shared roles', async ({ page, request }) => {
  await ensureAdminSession(request);
  const { first, second, tag } = await reviewers(request);
  // The first reviewer covers every system (all 60 rows), the second only Grace Liu (U1007): her roles are shared.
  for (const system of ['SAP ERP', 'Workday', 'Active Directory']) {
    await createAssignmentRest(request, { reviewerId: first.user.id, criteriaType: 'system', criteriaValue: system });
  }
  await createAssignmentRest(request, { reviewerId: second.user.id, criteriaType: 'user_id', criteriaValue: 'U1007' });
  await openFreshPeriod(request);
  const total = await decideAll(first, (r) => (r.userId === 'U1007' ? 'retain' : 'remove'));
  expect(total).toBe(60);
  await decideAll(second, (r) => (r.roleProfile === 'Z_AP_CLERK' ? 'remove' : null));

  await signInAsAdmin(page, request);
  await page.getByRole('link', { name: 'Reports' }).click();
  await expect(page.getByRole('heading', { name: 'Reports', level: 1 })).toBeVisible();
  const recent = page.getByRole('table', { name: 'Recent Risk Reviews' });
  // The newest decision is the second reviewer's removal of Grace Liu's Z_AP_CLERK.
  await expect(recent.getByRole('row').nth(1)).toContainText(`Ben Second${tag}`);
  await expect(recent.getByRole('row').nth(1)).toContainText('Grace Liu');
  await expect(recent.getByRole('row').nth(1)).toContainText('Remove');
  await shot(page, 'reports');

  await page.getByRole('link', { name: 'View All' }).click();
  await expect(page).toHaveURL(/\/all-reviews$/);
  await expect(page.getByRole('heading', { name: 'All Review Decisions', level: 1 })).toBeVisible();
  await expect(page.getByText('Complete review history with shared role analysis')).toBeVisible();

  const table = page.getByRole('table', { name: 'All review decisions' });
  const search = page.getByLabel('Search reviews');
  await search.fill(`Primary${tag}`);
  await page.getByLabel('Page Size').selectOption('50');
  await expect(page.getByText('Page 1 of 2')).toBeVisible();
  await expect(page.getByLabel('60 reviews in total')).toBeVisible();
  await expect(table.locator('tbody tr')).toHaveCount(50);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText('Page 2 of 2')).toBeVisible();
  await expect(table.locator('tbody tr')).toHaveCount(10);

  // Shared Only: Grace Liu's six roles are among them (other specs' reviewers may share more), highlighted,
  // with the second reviewer's decision or Pending.
  await page.getByLabel('Shared Roles').selectOption('SHARED');
  await expect(page.getByText('Page 2 of 2')).toHaveCount(0);
  await expect(table.locator('tbody tr[data-shared="true"]').filter({ hasText: 'Grace Liu' })).toHaveCount(6);
  await expect(table.locator('tbody tr:not([data-shared])')).toHaveCount(0);
  const clerk = table.locator('tbody tr').filter({ hasText: 'Z_AP_CLERK' }).filter({ hasText: 'Grace Liu' });
  await expect(clerk.getByText('Shared', { exact: true })).toBeVisible();
  await expect(clerk).toContainText(`Ben Second${tag}:`);
  await expect(clerk).toContainText('Remove');
  await expect(table.locator('tbody tr').filter({ hasText: 'Z_MM_BUYER' }).filter({ hasText: 'Grace Liu' })).toContainText('Pending');
  await shot(page, 'all-reviews-shared');

  // The first reviewer retained only Grace Liu's roles, which are all shared.
  await page.getByLabel('Shared Roles').selectOption('UNIQUE');
  await page.getByLabel('Decision', { exact: true }).selectOption('RETAIN');
  await expect(table).toContainText('No reviews found matching your criteria');
  await page.getByLabel('Shared Roles').selectOption('');
  await expect(page.getByLabel('6 reviews in total')).toBeVisible();

  await page.getByRole('button', { name: 'Clear Filters' }).click();
  await expect(search).toHaveValue('');
  await expect(page.getByLabel('Decision', { exact: true })).toHaveValue('');
  await expect(page.getByLabel('Shared Roles')).toHaveValue('');
  await expect(page.getByLabel('Page Size')).toHaveValue('100');
  await expect(page.getByRole('region', { name: 'Legend' })).toContainText('Highlighted row');

  await page.getByRole('link', { name: 'Back to Dashboard' }).click();
  await expect(page.getByRole('heading', { name: 'Risk Management Dashboard' })).toBeVisible();
});
