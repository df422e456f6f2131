import { expect, test } from '@playwright/test';
import { createActiveUser, ensureAdminSession, signInAsAdmin, toast } from './helpers';
import { activePeriod, closeActivePeriod, createAssignmentRest, uniqueName } from './review-helpers';

// The create dialog sets the end date, the reminder points and the default at close;
// closing the period from the dashboard applies the default to the items nobody decided (fixtures/risk-rows.json:
// Daniel Okafor, U1004, has 7 rows no other spec uses).
test('an administrator creates a period with an end date, reminders and a default decision at close, which closing applies', async ({ page, request }) => {
  await ensureAdminSession(request);
  await closeActivePeriod(request);
  const stamp = Date.now().toString(36);
  const reviewer = await createActiveUser(request, { role: 'reviewer', firstName: 'Dana', lastName: `Default${stamp}` });
  const assignment = await createAssignmentRest(request, { reviewerId: reviewer.user.id, criteriaType: 'user_id', criteriaValue: 'U1004' });
  await signInAsAdmin(page, request);

  await page.getByRole('button', { name: 'Create New Review Period' }).click();
  const create = page.getByRole('dialog', { name: 'Create New Review Period' });
  const name = uniqueName('Deadline review');
  await create.getByLabel(/^Name/).fill(name);
  // The reminder points appear with an end date.
  await expect(create.getByLabel(/^Reminders/)).toHaveCount(0);
  const end = new Date(Date.now() + 14 * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
  await create.getByLabel(/^End Date/).fill(end);
  const reminders = create.getByLabel(/^Reminders/);
  await expect(reminders).toHaveValue('7, 1');
  await reminders.fill('7, 0');
  await create.getByRole('button', { name: 'Create & Activate' }).click();
  await expect(create.getByText('Enter whole numbers of days from 1 to 365, separated by commas')).toBeVisible();
  await reminders.fill('10, 3');
  await create.getByLabel(/^Items without a decision at close/).selectOption({ label: 'Retain' });
  await create.getByRole('button', { name: 'Create & Activate' }).click();
  await expect(toast(page, 'Success')).toContainText('Review period created and activated');
  const activeBox = page.getByRole('group', { name: 'Active review period' });
  await expect(activeBox).toContainText(name);
  await expect(activeBox).not.toContainText('Ongoing');
  await expect(activeBox).toContainText('Reminders 10 and 3 days before the end; items without a decision are retained at close.');

  const period = (await activePeriod(request)) as unknown as Record<string, unknown>;
  expect(period).toMatchObject({ name, reminderDaysBefore: [10, 3], defaultDecisionAtClose: 'retain' });

  // Closing from the dashboard retains the reviewer's 7 undecided items; All Reviews lists them as theirs.
  await page.getByRole('button', { name: 'Close Period' }).click();
  await page.getByRole('dialog', { name: 'Close Review Period' }).getByRole('button', { name: 'Close Period' }).click();
  await expect(toast(page, 'Success')).toContainText('Review period closed');
  await page.goto('/all-reviews');
  await page.getByLabel('Search reviews').fill(`Default${stamp}`);
  const decided = page.getByRole('table', { name: 'All review decisions' }).locator('tbody tr');
  await expect(decided).toHaveCount(7);
  await expect(decided.filter({ hasText: 'Daniel Okafor' }).filter({ hasText: 'Retain' })).toHaveCount(7);
  expect((await request.delete(`/api/assignment-criteria/${assignment.id}`)).ok()).toBeTruthy();
});
