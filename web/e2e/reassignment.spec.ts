import { expect, test } from '@playwright/test';
import { createActiveUser, deactivateUser, ensureAdminSession, signInAsAdmin, signInThroughForm, toast } from './helpers';
import { createAssignmentRest, openFreshPeriod } from './review-helpers';

// A reviewer hands a selected item to a colleague with a
// note (on a phone, by keyboard); an administrator moves a whole assignment;
// the Assignments screen lists both moves. fixtures/risk-rows.json: 6 rows of
// user U1007 (Grace Liu).
test('a reviewer reassigns a selected item, an administrator a whole assignment; both are listed', async ({ browser, page, request }) => {
  test.slow();
  await ensureAdminSession(request);
  await openFreshPeriod(request);
  const stamp = Date.now().toString(36);
  const giver = await createActiveUser(request, { role: 'reviewer', firstName: 'Rhea', lastName: `Giver${stamp}` });
  const taker = await createActiveUser(request, { role: 'reviewer', firstName: 'Theo', lastName: `Taker${stamp}` });
  await createAssignmentRest(request, { reviewerId: giver.user.id, criteriaType: 'user_id', criteriaValue: 'U1007', name: `Grace ${stamp}` });

  // The reviewer, on a 390 px screen.
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const rev = await phone.newPage();
  await signInThroughForm(rev, giver.email, giver.password);
  await expect(rev.getByRole('heading', { name: 'Risk Management Dashboard' })).toBeVisible({ timeout: 30_000 });
  await rev.goto('/assigned-risks');
  const rows = rev.getByRole('checkbox', { name: /Select Grace Liu/ });
  await expect(rows).toHaveCount(6, { timeout: 30_000 });
  await rows.first().check();
  const open = rev.getByRole('button', { name: 'Reassign Selected' });
  await open.focus();
  await rev.keyboard.press('Enter');
  const dialog = rev.getByRole('dialog', { name: 'Reassign Work' });
  await expect(dialog).toContainText('Move 1 selected item to another reviewer. Decisions already made stay with their author.');
  await dialog.getByLabel(/^New Reviewer/).selectOption({ label: `Theo Taker${stamp} <${taker.email}>` });
  await rev.keyboard.press('Tab');
  await rev.keyboard.type('Grace moved to your team');
  await dialog.getByRole('button', { name: 'Reassign', exact: true }).focus();
  await rev.keyboard.press('Enter');
  await expect(toast(rev, 'Work Reassigned')).toContainText(taker.email);
  await expect(dialog).toBeHidden();
  await expect(rows).toHaveCount(5);
  await phone.close();

  // The administrator moves the rest of the work: the whole assignment.
  await signInAsAdmin(page, request);
  await page.goto('/assignments');
  await page.getByRole('button', { name: `Reassign assignment Grace ${stamp}` }).click();
  const admin = page.getByRole('dialog', { name: 'Reassign Work' });
  await admin.getByLabel(/^New Reviewer/).selectOption({ label: `Theo Taker${stamp} <${taker.email}>` });
  await admin.getByLabel('Note').fill('Rhea is on leave');
  await admin.getByRole('button', { name: 'Reassign', exact: true }).click();
  await expect(toast(page, 'Work Reassigned')).toContainText(`'Grace ${stamp}' now with`);
  const row = page
    .getByRole('table', { name: 'Assignments', exact: true })
    .getByRole('row')
    .filter({ hasText: `Grace ${stamp}` });
  await expect(row).toContainText(taker.email);
  const moves = page.getByRole('table', { name: 'Reassignments', exact: true }).getByRole('row');
  await expect(moves.filter({ hasText: 'Rhea is on leave' })).toContainText(`Grace ${stamp}`);
  await expect(moves.filter({ hasText: 'Grace moved to your team' })).toContainText('1 single item');

  // Every move ended with the taker: all six rows are theirs.
  const list = await request.get(`/api/reassignments`);
  expect((await list.json()).filter((m: { toReviewerId: string }) => m.toReviewerId === taker.user.id)).toHaveLength(2);
});

// A deactivated reviewer's open work is listed for reassignment on the
// Assignments screen, and moving it from there empties the list.
test("a deactivated reviewer's open work is listed on Assignments and reassigned from there", async ({ page, request }) => {
  test.slow();
  await ensureAdminSession(request);
  await openFreshPeriod(request);
  const stamp = Date.now().toString(36);
  const leaver = await createActiveUser(request, { role: 'reviewer', firstName: 'Lena', lastName: `Leaver${stamp}` });
  const taker = await createActiveUser(request, { role: 'reviewer', firstName: 'Tom', lastName: `Taker${stamp}` });
  await createAssignmentRest(request, { reviewerId: leaver.user.id, criteriaType: 'user_id', criteriaValue: 'U1007', name: `Leaver ${stamp}` });
  await deactivateUser(request, leaver.user.id);

  await signInAsAdmin(page, request);
  await page.goto('/assignments');
  const work = page.getByRole('region', { name: `Open work of Lena Leaver${stamp}` });
  await expect(work).toContainText(leaver.email, { timeout: 30_000 });
  await expect(work).toContainText('pending');
  await work.getByRole('button', { name: `Reassign Leaver ${stamp}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Reassign Work' });
  await dialog.getByLabel(/^New Reviewer/).selectOption({ label: `Tom Taker${stamp} <${taker.email}>` });
  await dialog.getByLabel('Note').fill('Lena has left the company');
  await dialog.getByRole('button', { name: 'Reassign', exact: true }).click();
  await expect(toast(page, 'Work Reassigned')).toContainText(`'Leaver ${stamp}' now with`);
  await expect(work).toBeHidden();
  const moves = page.getByRole('table', { name: 'Reassignments', exact: true }).getByRole('row');
  await expect(moves.filter({ hasText: 'Lena has left the company' })).toContainText(`Leaver ${stamp}`);
});
