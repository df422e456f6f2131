import { expect, test, type Page } from '@playwright/test';
import { createActiveUser, ensureAdminSession, signInAsAdmin, signInThroughForm, toast } from './helpers';
import { closeActivePeriod, searchAssignmentValue, shot, tileValue, uniqueName } from './review-helpers';
import { dialogViolations, seriousViolations } from './axe';

// fixtures/risk-rows.json: group Treasury has 6 rows (Grace Liu, none with risk H002); risk H002 has 7 rows.
const ASSIGNED = 13;

const rowsOf = (page: Page) => page.getByRole('table', { name: 'Assigned risks' }).locator('tbody tr');

test('a whole review cycle: open a period, assign, decide, submit, recall, return (with a comment on an item), approve, close', async ({
  browser,
  page,
  request,
}) => {
  // Two people through a whole cycle: over a minute alone, up to three under a busy CI machine.
  test.setTimeout(300_000);
  await ensureAdminSession(request);
  const stamp = Date.now().toString(36);
  const reviewer = await createActiveUser(request, { role: 'reviewer', firstName: 'Cyrus', lastName: `Cycle${stamp}` });
  const reviewerName = `Cyrus Cycle${stamp}`;
  await closeActivePeriod(request);

  // The administrator opens a period from the dashboard.
  const admin = page;
  await signInAsAdmin(admin, request);
  await expect(admin.getByRole('heading', { name: 'Review Period Status' })).toBeVisible();
  await expect(admin.getByText('No Active Review Period', { exact: true })).toBeVisible();
  await shot(admin, 'dashboard-no-period-1280');
  await admin.getByRole('button', { name: 'Create New Review Period' }).click();
  const create = admin.getByRole('dialog', { name: 'Create New Review Period' });
  await expect(create.getByRole('button', { name: 'Create & Activate' })).toBeDisabled();
  await create.getByLabel(/^Name/).fill('   ');
  await expect(create.getByRole('button', { name: 'Create & Activate' })).toBeDisabled();
  const periodName = uniqueName('Cycle review');
  await create.getByLabel(/^Name/).fill(periodName);
  await create.getByLabel(/^Description/).fill('Quarterly access review');
  await create.getByRole('button', { name: 'Create & Activate' }).click();
  await expect(toast(admin, 'Success')).toContainText('Review period created and activated');
  const activeBox = admin.getByRole('group', { name: 'Active review period' });
  await expect(activeBox).toContainText(periodName);
  await expect(activeBox).toContainText('Active');
  await expect(activeBox).toContainText('Ongoing');
  await shot(admin, 'dashboard-1280');
  await admin.setViewportSize({ width: 390, height: 844 });
  await shot(admin, 'dashboard-390');
  await admin.setViewportSize({ width: 1280, height: 800 });

  // ... and assigns risks to the reviewer from the Manage Assignments tab.
  await admin.goto('/risk-review?tab=assignments');
  for (const [type, value] of [
    ['User Group', 'Treasury'],
    ['Risk ID', 'H002'],
  ] as const) {
    await admin.getByRole('button', { name: 'Create Assignment', exact: true }).click();
    const dialog = admin.getByRole('dialog', { name: 'Create Assignment' });
    await dialog.getByLabel(/^Reviewer/).selectOption({ label: `${reviewerName} (${reviewer.email})` });
    await dialog.getByLabel(/^Assignment Type/).selectOption({ label: type });
    await searchAssignmentValue(admin, dialog, { choose: value });
    await dialog.getByRole('button', { name: 'Create Assignment' }).click();
    await expect(toast(admin, 'Assignment Created')).toBeVisible();
    await expect(dialog).toBeHidden();
  }

  // The reviewer, in a second browser context.
  const reviewerContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const rev = await reviewerContext.newPage();
  await signInThroughForm(rev, reviewer.email, reviewer.password);
  await expect(rev.getByRole('heading', { name: 'Risk Management Dashboard' })).toBeVisible();
  await rev.goto('/risk-review');
  await expect(rev.getByRole('heading', { name: 'My Assigned Risks', level: 1 })).toBeVisible();
  await expect.poll(() => tileValue(rev, 'Total Assigned')).toBe(String(ASSIGNED));
  await expect.poll(() => tileValue(rev, 'Pending Review')).toBe(String(ASSIGNED));
  await expect(rev.getByText('No decisions yet', { exact: true })).toBeVisible();
  await expect(rev.getByRole('button', { name: 'Submit All Decisions' })).toHaveCount(0);
  await expect(rowsOf(rev)).toHaveCount(ASSIGNED);
  await expect(rev.getByRole('navigation', { name: 'Pagination' })).toContainText(`Showing 1-${ASSIGNED} of ${ASSIGNED}`);

  // Single decisions.
  await rowsOf(rev)
    .nth(0)
    .getByRole('button', { name: /^Retain / })
    .click();
  await expect(toast(rev, 'Decision Submitted')).toBeVisible();
  await expect(rowsOf(rev).nth(0)).toContainText('Retain');
  await expect.poll(() => tileValue(rev, 'Reviewed')).toBe('1');
  await rowsOf(rev)
    .nth(1)
    .getByRole('button', { name: /^Remove / })
    .click();
  await expect(toast(rev, 'Decision Submitted')).toBeVisible();
  await expect.poll(() => tileValue(rev, 'Reviewed')).toBe('2');
  await expect(rev.getByRole('button', { name: 'Submit All Decisions' })).toBeVisible();

  // The search narrows the list.
  await rev.getByPlaceholder('Search users, roles, or descriptions...').fill('Grace');
  await expect(rowsOf(rev)).toHaveCount(6);
  await rev.getByPlaceholder('Search users, roles, or descriptions...').fill('');
  await expect(rowsOf(rev)).toHaveCount(ASSIGNED);

  // A batch: every row on the page.
  await rev.getByRole('checkbox', { name: 'Select all risks on this page' }).check();
  await rev.getByRole('button', { name: `Retain Selected (${ASSIGNED})` }).click();
  await expect(toast(rev, 'Decision Submitted')).toContainText(`${ASSIGNED} risks marked Retain`);
  await expect.poll(() => tileValue(rev, 'Reviewed')).toBe(String(ASSIGNED));
  await expect.poll(() => tileValue(rev, 'Pending Review')).toBe('0');
  await shot(rev, 'assigned-1280');
  await rev.setViewportSize({ width: 390, height: 844 });
  await shot(rev, 'assigned-390');
  await rev.setViewportSize({ width: 1280, height: 800 });

  // By composite role: Grace Liu's CR_FIN_TREASURY (two rows under risk F002) is removed as one.
  await rev.getByRole('tab', { name: 'By Composite Role' }).click();
  await rev.getByRole('button', { name: /^Grace Liu \(U1007\):/ }).click();
  await rev.getByRole('button', { name: /^Risk F002:/ }).click();
  const treasury = rev.getByRole('group', { name: 'Composite role CR_FIN_TREASURY' });
  await treasury.getByRole('button', { name: 'Remove' }).click();
  await expect(toast(rev, 'Decision Submitted')).toContainText('1 composite role decision saved (2 risks)');
  await expect(treasury.getByRole('button', { name: 'Remove' })).toHaveAttribute('aria-pressed', 'true');
  await rev.getByRole('tab', { name: 'Risk List' }).click();
  await rev.getByPlaceholder('Search users, roles, or descriptions...').fill('TREASURY_POST');
  await expect(rowsOf(rev)).toHaveCount(2);
  await expect(rowsOf(rev).nth(0)).toContainText('Remove');
  await expect(rowsOf(rev).nth(1)).toContainText('Remove');
  await rev.getByPlaceholder('Search users, roles, or descriptions...').fill('');
  await expect(rowsOf(rev)).toHaveCount(ASSIGNED);
  await expect.poll(() => tileValue(rev, 'Reviewed')).toBe(String(ASSIGNED));

  // Submit: the set is locked.
  await rev.getByRole('button', { name: 'Submit All Decisions' }).click();
  await expect(toast(rev, 'Decisions Submitted')).toContainText(`${ASSIGNED} review decisions submitted for approval`);
  await expect(rev.getByText('Submitted for Approval', { exact: true })).toBeVisible();
  await expect(rowsOf(rev).first()).toContainText('Locked');
  await expect(rev.getByRole('button', { name: /^Retain Selected/ })).toBeDisabled();
  // The composite view is locked too.
  await rev.getByRole('tab', { name: 'By Composite Role' }).click();
  await rev.getByRole('button', { name: /^Grace Liu \(U1007\):/ }).click();
  await rev.getByRole('button', { name: /^Risk F002:/ }).click();
  await expect(rev.getByRole('group', { name: 'Composite role CR_FIN_TREASURY' }).getByRole('button', { name: 'Retain' })).toBeDisabled();
  await rev.getByRole('tab', { name: 'Risk List' }).click();

  // Recall for editing, then submit again.
  await rev.getByRole('button', { name: 'Recall for Editing' }).click();
  await expect(toast(rev, 'Decisions Recalled')).toBeVisible();
  await expect(rev.getByText('Submitted for Approval', { exact: true })).toHaveCount(0);
  await expect(
    rowsOf(rev)
      .first()
      .getByRole('button', { name: /^Change decision/ }),
  ).toBeEnabled();
  await rev.getByRole('button', { name: 'Submit All Decisions' }).click();
  await expect(toast(rev, 'Decisions Submitted')).toBeVisible();
  await expect(rev.getByText('Submitted for Approval', { exact: true })).toBeVisible();

  // The administrator returns the set with a comment from Reviewer Status.
  await admin.goto('/risk-review?tab=status');
  const statusRow = admin.getByRole('row').filter({ hasText: reviewerName });
  await expect(statusRow).toContainText('Submitted');
  await expect(statusRow.getByRole('progressbar')).toBeVisible();
  await expect(statusRow).toContainText(`${ASSIGNED} / ${ASSIGNED}`);
  await shot(admin, 'reviewer-status-1280');
  // axe on the Reviewer Status tab and on the Return and Approve dialogs.
  const axeFound = await seriousViolations(admin, 'Reviewer Status tab', 'main');
  await statusRow.getByRole('button', { name: 'Return' }).click();
  const returnDialog = admin.getByRole('dialog', { name: 'Return Decisions' });
  axeFound.push(...(await dialogViolations(admin, 'Return Decisions')));
  await expect(returnDialog.getByRole('button', { name: 'Return' })).toBeDisabled();
  // A comment on one item is enough to return: the removed treasury row, listed first.
  const items = returnDialog.getByRole('list', { name: 'Submitted items' }).getByRole('listitem');
  await expect(items.first()).toContainText('Removal');
  const treasuryItem = items.filter({ hasText: 'F002' }).first();
  const itemComment = `Keep one treasury posting role ${stamp}`;
  await treasuryItem.getByRole('textbox').fill(itemComment);
  await expect(returnDialog.getByRole('button', { name: 'Return' })).toBeEnabled();
  const comment = `Please reconsider the HR rows ${stamp}`;
  // The set's comment (each item has a 'Comment on …' field of its own too).
  await returnDialog.getByRole('textbox', { name: /^Comment(?! on)/ }).fill(comment);
  await returnDialog.getByRole('button', { name: 'Return' }).click();
  await expect(toast(admin, 'Decisions Returned')).toBeVisible();
  await expect(statusRow).toContainText('Returned');

  // The reviewer sees 'Returned' with the comment, edits and submits again.
  await rev.reload();
  await expect(rev.getByText('Returned', { exact: true })).toBeVisible();
  await expect(rev.getByText(comment)).toBeVisible();
  const itemNotes = rev.getByRole('list', { name: 'Comments on your items' });
  await expect(itemNotes).toContainText('U1007 · F002');
  await expect(itemNotes).toContainText(itemComment);
  const first = rowsOf(rev).first();
  await first.getByRole('button', { name: /^Change decision/ }).click();
  await rev.getByRole('menuitem', { name: 'Remove' }).click();
  await expect(toast(rev, 'Decision Submitted')).toContainText('Remove');
  await expect(first).toContainText('Remove');
  await rev.getByRole('button', { name: 'Submit All Decisions' }).click();
  await expect(toast(rev, 'Decisions Submitted')).toBeVisible();

  // The administrator approves: final.
  await admin.reload();
  await expect(statusRow).toContainText('Submitted');
  await statusRow.getByRole('button', { name: 'Approve' }).click();
  const approveDialog = admin.getByRole('dialog', { name: 'Approve Decisions' });
  await expect(approveDialog).toContainText('Approval is final');
  axeFound.push(...(await dialogViolations(admin, 'Approve Decisions')));
  expect(axeFound, axeFound.join('\n')).toEqual([]);
  await approveDialog.getByRole('button', { name: 'Approve' }).click();
  await expect(toast(admin, 'Decisions Approved')).toBeVisible();
  await expect(statusRow).toContainText('Approved');
  await expect(statusRow.getByRole('button', { name: 'Approve' })).toHaveCount(0);

  await rev.reload();
  await expect(rev.getByText('Approved', { exact: true })).toBeVisible();
  await expect(rev.getByRole('button', { name: 'Recall for Editing' })).toHaveCount(0);
  await expect(rowsOf(rev).first()).toContainText('Locked');

  // The administrator closes the period; the reviewer's screen says so and is locked.
  await admin.goto('/');
  await admin.getByRole('button', { name: 'Close Period' }).click();
  const closeDialog = admin.getByRole('dialog', { name: 'Close Review Period' });
  await expect(closeDialog).toContainText('locks all review operations');
  await closeDialog.getByRole('button', { name: 'Close Period' }).click();
  await expect(toast(admin, 'Success')).toContainText('Review period closed');
  await expect(admin.getByText('No Active Review Period', { exact: true })).toBeVisible();
  await expect(admin.getByRole('region', { name: 'Recent closed periods' }).getByText(periodName)).toBeVisible();

  await rev.reload();
  await expect(rev.getByText('Review Period Closed', { exact: true })).toBeVisible();
  // The decisions stay on screen, read-only.
  await expect(rowsOf(rev).first()).toContainText('Remove');
  await expect(rowsOf(rev).first()).toContainText('Locked');
  await expect(rev.getByRole('button', { name: 'Submit All Decisions' })).toHaveCount(0);
  await shot(rev, 'assigned-closed-1280');

  // Reopen brings the period back; close it again to leave no period open.
  await admin.getByRole('button', { name: `Reopen ${periodName}` }).click();
  await expect(toast(admin, 'Success')).toContainText('Review period opened');
  await expect(admin.getByRole('group', { name: 'Active review period' })).toContainText(periodName);
  await admin.getByRole('button', { name: 'Close Period' }).click();
  await closeDialog.getByRole('button', { name: 'Close Period' }).click();
  await expect(toast(admin, 'Success')).toContainText('Review period closed');

  await reviewerContext.close();
});
