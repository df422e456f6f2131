import { expect, test } from '@playwright/test';
import { ensureAdminSession, signInAsAdmin, toast } from './helpers';
import { activePeriod, closeActivePeriod, uniqueName } from './review-helpers';

// Issue 18, points 5 and 7: the create dialog sets the end date, the reminder points and the default at close.
test('an administrator creates a period with an end date, reminders and a default decision at close', async ({ page, request }) => {
  await ensureAdminSession(request);
  await closeActivePeriod(request);
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
  await closeActivePeriod(request);
});
