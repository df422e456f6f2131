import { expect, request as playwrightRequest, test, type APIRequestContext, type Page } from '@playwright/test';
import { baseURL, createActiveUser, ensureAdminSession, restLogin, signInThroughForm, toast } from './helpers';
import { createAssignmentRest, openFreshPeriod } from './review-helpers';

// A reviewer with two tabs open: what one tab (or an administrator) does to
// the submitted set shows in the other at once, without a reload, so no tab
// offers a Submit or Recall the server would refuse.

// fixtures/risk-rows.json: group Treasury has 6 rows.
const ASSIGNED = 6;

const submitButton = (page: Page) => page.getByRole('button', { name: 'Submit All Decisions' });
const recallButton = (page: Page) => page.getByRole('button', { name: 'Recall for Editing' });

/** The submission area shows the set submitted and locked: Recall offered, no Submit. */
async function showsSubmitted(page: Page) {
  await expect(page.getByText('Submitted for Approval', { exact: true })).toBeVisible();
  await expect(submitButton(page)).toHaveCount(0);
  await expect(recallButton(page)).toBeEnabled();
}

/** The submission area offers the set for submission again. */
async function showsReady(page: Page) {
  await expect(page.getByText(`${ASSIGNED} decisions ready`, { exact: true })).toBeVisible();
  await expect(submitButton(page)).toBeEnabled();
  await expect(recallButton(page)).toHaveCount(0);
}

/** The reviewer's submission awaiting approval (admin session on `api`). */
async function awaiting(api: APIRequestContext, reviewerId: string): Promise<string> {
  const list = (await (await api.get('/api/submissions?status=submitted')).json()) as { id: string; reviewer: { id: string } }[];
  return list.find((s) => s.reviewer.id === reviewerId)!.id;
}

test('two tabs of one reviewer: submit, recall, return and approval show in the other tab without a reload', async ({ browser, request }) => {
  test.setTimeout(120_000);
  await ensureAdminSession(request);
  await openFreshPeriod(request);
  const reviewer = await createActiveUser(request, { role: 'reviewer', firstName: 'Tabs', lastName: 'Reviewer' });
  await createAssignmentRest(request, { reviewerId: reviewer.user.id, criteriaType: 'user_group', criteriaValue: 'Treasury' });
  // The reviewer's decisions, made beforehand.
  const own = await playwrightRequest.newContext({ baseURL: baseURL() });
  expect(await restLogin(own, reviewer.email, reviewer.password)).not.toBeNull();
  const rows = ((await (await own.get('/api/assigned-risks?limit=500')).json()) as { risks: { id: number }[] }).risks;
  expect(rows).toHaveLength(ASSIGNED);
  expect(
    (await own.post('/api/reviews/decisions', { data: { decisions: rows.map((r) => ({ riskDefinitionId: r.id, decision: 'retain' })) } })).ok(),
  ).toBeTruthy();
  await own.dispose();

  // Two tabs of one browser (one session), both on My Assigned Risks.
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const first = await context.newPage();
  await signInThroughForm(first, reviewer.email, reviewer.password);
  await expect(first.getByRole('heading', { name: 'Risk Management Dashboard' })).toBeVisible();
  await first.goto('/assigned-risks');
  const second = await context.newPage();
  await second.goto('/assigned-risks');
  await showsReady(first);
  await showsReady(second);

  // Submitted in the first tab: the second shows it submitted, with no Submit to press.
  await submitButton(first).click();
  await expect(toast(first, 'Decisions Submitted')).toBeVisible();
  await showsSubmitted(first);
  await showsSubmitted(second);

  // Recalled in the second tab: the first offers Submit again.
  await recallButton(second).click();
  await expect(toast(second, 'Decisions Recalled')).toBeVisible();
  await showsReady(second);
  await showsReady(first);

  // Submitted again, then returned by the administrator: both tabs show the return and its comment.
  await submitButton(first).click();
  await showsSubmitted(second);
  expect(
    (await request.put(`/api/submissions/${await awaiting(request, reviewer.user.id)}/return`, { data: { comment: 'Check the treasury roles' } })).ok(),
  ).toBeTruthy();
  for (const tab of [first, second]) {
    await expect(tab.getByText('Returned', { exact: true })).toBeVisible();
    await expect(tab.getByText(/returned your decisions: “Check the treasury roles”/)).toBeVisible();
    await expect(submitButton(tab)).toBeEnabled();
  }

  // Submitted from the second tab and approved: both tabs show the set approved and final.
  await submitButton(second).click();
  await showsSubmitted(first);
  expect((await request.put(`/api/submissions/${await awaiting(request, reviewer.user.id)}/approve`)).ok()).toBeTruthy();
  for (const tab of [first, second]) {
    await expect(tab.getByText('Approved', { exact: true })).toBeVisible();
    await expect(submitButton(tab)).toHaveCount(0);
    await expect(recallButton(tab)).toHaveCount(0);
  }
  await context.close();
});
