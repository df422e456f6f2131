import { expect, test, type Page } from '@playwright/test';
import { createActiveUser, ensureAdminSession, signInAsAdmin } from './helpers';
import { closeActivePeriod, createAssignmentRest, uniqueName } from './review-helpers';

// Before 'Create & Activate', the create dialog previews the period: the rows
// in scope, each stage-1 reviewer's conflicts (fixtures/risk-rows.json: Daniel
// Okafor, U1004, has 7 rows) and what goes to the fallback reviewer and why,
// at 390 px and by keyboard. The spec creates no period and leaves no
// assignment behind.
const PHONE = { width: 390, height: 844 };

async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  expect(widths.scroll, `page ${widths.scroll}px wide on a ${widths.client}px screen`).toBeLessThanOrEqual(widths.client);
}

test("the create dialog previews each reviewer's conflicts and the fallback reviewer's, at 390 px and by keyboard", async ({ browser, request }) => {
  await ensureAdminSession(request);
  await closeActivePeriod(request);
  const stamp = Date.now().toString(36);
  const reviewer = await createActiveUser(request, { role: 'reviewer', firstName: 'Pria', lastName: `Preview${stamp}` });
  const assignment = await createAssignmentRest(request, { reviewerId: reviewer.user.id, criteriaType: 'user_id', criteriaValue: 'U1004' });
  const expected = await request.post('/api/review-periods/preview', { data: { name: 'Preview' } });
  expect(expected.ok(), await expected.text()).toBeTruthy();
  const figures = (await expected.json()) as { scope: { rows: number }; fallback: { rows: number; selfReview: number; unassigned: number } };

  const context = await browser.newContext({ viewport: PHONE });
  const page = await context.newPage();
  try {
    await signInAsAdmin(page, request);
    await page.getByRole('button', { name: 'Create New Review Period' }).click();
    const create = page.getByRole('dialog', { name: 'Create New Review Period' });
    const preview = create.getByRole('region', { name: 'Preview' });
    await expect(preview).toContainText('Enter a name to see who would review how many conflicts.');

    // Typed, the name brings the preview; nothing is created until 'Create & Activate'.
    await page.keyboard.type(uniqueName('Preview review'));
    await expect(preview).toContainText(`Scope: ${figures.scope.rows.toLocaleString('en-US')} conflicts`);
    const list = preview.getByRole('list', { name: 'Conflicts per reviewer in stage 1' });
    await expect(list.getByRole('listitem').filter({ hasText: `Pria Preview${stamp}` })).toContainText('7');
    await expect(preview.getByRole('group', { name: 'Conflicts per reviewer in stage 1 chart' })).toBeVisible();
    const f = figures.fallback;
    await expect(preview).toContainText(
      f.rows
        ? `Fallback reviewer: ${f.rows} conflicts (${f.selfReview} routed: self-review, ${f.unassigned} matching no assignment criterion).`
        : 'Fallback reviewer: no conflicts',
    );
    await expectNoSidewaysScroll(page);
    const box = (await create.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);

    // By keyboard: Tab reaches 'Create & Activate' past the preview; Escape leaves without creating.
    const submit = create.getByRole('button', { name: 'Create & Activate' });
    for (let i = 0; i < 30 && !(await submit.evaluate((b) => b === document.activeElement)); i++) await page.keyboard.press('Tab');
    await expect(submit).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(create).toBeHidden();
    expect(await (await request.get('/api/review-periods/active')).text()).toMatch(/^(null)?$/);
  } finally {
    await context.close();
    expect((await request.delete(`/api/assignment-criteria/${assignment.id}`)).ok()).toBeTruthy();
  }
});
