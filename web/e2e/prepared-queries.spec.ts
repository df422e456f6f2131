import { expect, test, type Page, type Request } from '@playwright/test';
import { createActiveUser, ensureAdminSession, signInAsAdmin, signInThroughForm, toast } from './helpers';

// ARCHITECTURE.md, Web: a route's query is prepared by its loader before the screen renders, and a
// loader prepares nothing the viewer may not see.

const operationOf = (request: Request): string | undefined =>
  request.method() === 'POST' && request.url().endsWith('/graphql') ? /"operationName":"([A-Za-z]+)"/.exec(request.postData() ?? '')?.[1] : undefined;

function recordOperations(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (request) => {
    const name = operationOf(request);
    if (name) seen.push(name);
  });
  return seen;
}

test("a screen's query is sent while the screen's code is still loading", async ({ page, request }) => {
  await ensureAdminSession(request);
  await signInAsAdmin(page, request);
  await expect(page.getByRole('heading', { name: 'Risk Management Dashboard' })).toBeVisible();

  // Hold the User Management screen's code until its query has been sent: a screen that
  // loaded its query after rendering would never send it, and the page would never show.
  const querySent = page.waitForRequest((r) => operationOf(r) === 'UsersRouteQuery');
  let chunkHeld = false;
  await page.route(/\/assets\/UsersRoute-[^/]+\.js$/, async (route) => {
    chunkHeld = true;
    await querySent;
    await route.continue();
  });

  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'User Management' }).click();
  await querySent;
  await expect(page.getByRole('heading', { name: 'User Management' })).toBeVisible();
  expect(chunkHeld).toBe(true);
});

test('a reviewer on administrator pages gets Access Denied and no administrator query is sent', async ({ page, request }) => {
  await ensureAdminSession(request);
  const reviewer = await createActiveUser(request, { role: 'reviewer', firstName: 'Pia', lastName: 'Prepared' });
  const operations = recordOperations(page);
  await signInThroughForm(page, reviewer.email, reviewer.password);
  await expect(page.getByRole('heading', { name: 'Risk Management Dashboard' })).toBeVisible();

  for (const path of ['/users', '/upload', '/assignments']) {
    await page.goto(path);
    await expect(toast(page, 'Access Denied')).toContainText('Only administrators can access this page');
    await expect(page).toHaveURL(/\/$/, { timeout: 5000 });
  }

  // A reviewer's Risk Review is My Assigned Risks: their query, not the administrators' queue.
  await page.goto('/risk-review');
  await expect(page.getByRole('heading', { name: 'My Assigned Risks', level: 1 })).toBeVisible();
  await expect.poll(() => operations.includes('AssignedRisksQuery')).toBe(true);

  for (const adminQuery of ['UsersRouteQuery', 'UploadRouteQuery', 'AssignmentManagerQuery', 'RiskQueueQuery', 'RiskQueueOptionsQuery']) {
    expect(operations, adminQuery).not.toContain(adminQuery);
  }
});
