import { expect, test } from '@playwright/test';
import {
  bellButton,
  changePasswordDialog,
  mailbox,
  passwordFields,
  signInAsAdmin,
  signInThroughForm,
  statValue,
  TEMPORARY_PASSWORD,
  toast,
  uniqueEmail,
  waitForMailed,
} from './helpers';

/**
 * An administrator creates a reviewer; the e-mailed
 * password signs them in (and must be changed); a notification sent from the
 * Notifications page reaches the reviewer's open browser live; read state,
 * deletion and the page's counts behave as SPEC §2/§4 say.
 */
test('a created reviewer signs in with the mailed password and receives notifications live', async ({ page, request, browser }) => {
  test.setTimeout(120_000);
  await signInAsAdmin(page, request);
  const mailCount = (await mailbox()).length;

  // 1. The administrator creates the reviewer on the Users page.
  await page.goto('/users');
  await expect(page.getByRole('heading', { name: 'User Management', level: 1 })).toBeVisible();
  const email = uniqueEmail('done-when');
  await page.getByRole('button', { name: 'Add User' }).click();
  const create = page.getByRole('dialog', { name: 'Add New User' });
  await create.getByLabel(/^First Name/).fill('Nora');
  await create.getByLabel(/^Last Name/).fill('Newman');
  await create.getByLabel(/^Email/).fill(email);
  await create.getByLabel(/^Role/).selectOption('REVIEWER');
  await create.getByRole('button', { name: 'Create User' }).click();
  await expect(toast(page, 'User Created')).toBeVisible();
  await expect(create).toBeHidden();
  const row = page.getByRole('row').filter({ hasText: email });
  await expect(row).toContainText('Nora Newman');
  await expect(row).toContainText('Reviewer');
  await expect(row).toContainText('Active');
  await expect(row.getByRole('cell').nth(4)).toHaveText('—'); // never signed in

  // 2. The generated password arrives by e-mail.
  const password = await waitForMailed(email, TEMPORARY_PASSWORD, { after: mailCount });
  expect(password).toHaveLength(12);

  // 3. The reviewer signs in with it in a second browser and must change it.
  const reviewerContext = await browser.newContext();
  const reviewer = await reviewerContext.newPage();
  await signInThroughForm(reviewer, email, password);
  await expect(changePasswordDialog(reviewer)).toBeVisible();
  const fields = passwordFields(reviewer);
  await fields.current.fill(password);
  await fields.next.fill('Nora#Pass22');
  await fields.confirm.fill('Nora#Pass22');
  await fields.submit.click();
  await expect(reviewer.getByRole('heading', { name: 'Risk Management Dashboard' })).toBeVisible();

  // Nothing has been sent to the new reviewer yet.
  const bell = bellButton(reviewer);
  await expect(bell).toHaveAccessibleName('Notifications');
  await bell.click();
  await expect(reviewer.getByText('No notifications', { exact: true })).toBeVisible();
  await reviewer.keyboard.press('Escape');

  // The Users page now shows the real last sign-in.
  await page.reload();
  await expect(page.getByRole('row').filter({ hasText: email }).getByRole('cell').nth(4)).toHaveText(/ago$/);

  // 4. The administrator sends notifications to that reviewer from the Notifications page.
  await page.goto('/notifications');
  await expect(page.getByRole('heading', { name: 'Notifications', level: 1 })).toBeVisible();
  const breadcrumb = page.getByRole('navigation', { name: 'Breadcrumb' });
  await expect(breadcrumb).toContainText('Dashboard');
  await expect(breadcrumb).toContainText('Notifications');
  const adminTotalBefore = Number(await statValue(page, 'Total Notifications'));

  const send = async (title: string, message: string, type: string) => {
    await page.getByRole('button', { name: 'Send Notification' }).click();
    const dialog = page.getByRole('dialog', { name: 'Send Notification' });
    await dialog.getByLabel(/^Title/).fill(title);
    await dialog.getByLabel(/^Message/).fill(message);
    await dialog.getByLabel('Type').selectOption(type.toUpperCase());
    await dialog.getByRole('radio', { name: 'Specific user' }).check();
    const picker = dialog.getByRole('combobox', { name: /^User/ });
    await picker.click();
    await picker.pressSequentially(email.slice(0, 12));
    await page.getByRole('option', { name: new RegExp(email.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) }).click();
    await dialog.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(toast(page, 'Notification sent')).toContainText('Your notification has been sent successfully.');
    await expect(dialog).toBeHidden();
  };

  // Validation first.
  await page.getByRole('button', { name: 'Send Notification' }).click();
  const dialog = page.getByRole('dialog', { name: 'Send Notification' });
  await dialog.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(dialog.getByText('Title is required')).toBeVisible();
  await expect(dialog.getByText('Message is required')).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();

  await send('Quarterly review opens', 'Please complete your access review by Friday.', 'urgent');
  // Live: within a second, without a reload.
  await expect(bell).toHaveAccessibleName('Notifications, 1 unread', { timeout: 1_000 });
  await expect(reviewer.locator('.fui-CounterBadge')).toHaveText('1');
  await bell.click();
  const list = reviewer.getByRole('list', { name: 'Notification list' });
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await expect(list).toContainText('Quarterly review opens');
  await expect(list).toContainText('Please complete your access review by Friday.');
  await expect(list).toContainText('From: ');
  await expect(list).toContainText(/less than a minute ago|1 minute ago/);

  // Mark read: optimistic, the badge goes.
  // (The open popover traps focus, so the page behind it, bell included, is
  // outside the accessibility tree until it closes.)
  await list.getByRole('button', { name: 'Mark as read' }).click();
  await expect(list.getByRole('button', { name: 'Mark as read' })).toHaveCount(0);
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await reviewer.locator('main').click({ position: { x: 5, y: 5 } }); // an outside click closes the popover
  await expect(bell).toHaveAccessibleName('Notifications');
  await expect(reviewer.locator('.fui-CounterBadge')).toHaveCount(0);

  await send('Policy update', 'The segregation-of-duties policy has changed.', 'warning');
  await send('Maintenance window', 'The platform is unavailable on Sunday from 02:00 to 04:00.', 'info');
  await expect(bell).toHaveAccessibleName('Notifications, 2 unread', { timeout: 1_000 });

  // The administrator's page lists what was sent, and its cards describe that list: the three sent
  // to the reviewer count in Total (unread are only the administrator's own). Read Rate follows SPEC §2.
  await expect(page.getByRole('article')).toContainText(['Maintenance window', 'Policy update', 'Quarterly review opens']);
  await expect.poll(() => statValue(page, 'Total Notifications')).toBe(String(adminTotalBefore + 3));
  const total = Number(await statValue(page, 'Total Notifications'));
  const unread = Number(await statValue(page, 'Unread Messages'));
  expect(await statValue(page, 'Read Rate')).toBe(`${total === 0 ? 0 : Math.round(((total - unread) / total) * 100)}%`);
  const urgentCard = page.getByRole('article', { name: 'Quarterly review opens' });
  await expect(urgentCard).toContainText('Urgent');
  await expect(urgentCard).toContainText('Specific user');
  await expect(urgentCard).toContainText('By: ');
  await expect(urgentCard).toContainText('🚨');

  // 5. The reviewer's own Notifications page: 3 in all, 2 unread, 33 %.
  await bell.click();
  await reviewer.getByRole('button', { name: 'View all notifications' }).click();
  await expect(reviewer).toHaveURL(/\/notifications$/);
  await expect(reviewer.getByRole('heading', { name: 'Notifications', level: 1 })).toBeVisible();
  await expect.poll(() => statValue(reviewer, 'Total Notifications')).toBe('3');
  expect(await statValue(reviewer, 'Unread Messages')).toBe('2');
  expect(await statValue(reviewer, 'Read Rate')).toBe('33%');
  await expect(reviewer.getByRole('button', { name: 'Send Notification' })).toHaveCount(0);
  await expect(reviewer.getByRole('button', { name: 'Delete notification' })).toHaveCount(0);

  // Tabs filter by type (General holds general and info).
  const tabs = reviewer.getByRole('tablist', { name: 'Filter by type' });
  await tabs.getByRole('tab', { name: 'Urgent' }).click();
  await expect(reviewer.getByRole('article')).toHaveCount(1);
  await expect(reviewer.getByRole('article')).toContainText('Quarterly review opens');
  await tabs.getByRole('tab', { name: 'Warning' }).click();
  await expect(reviewer.getByRole('article')).toHaveText([/Policy update/]);
  await tabs.getByRole('tab', { name: 'General' }).click();
  await expect(reviewer.getByRole('article')).toHaveText([/Maintenance window/]);
  await tabs.getByRole('tab', { name: 'All' }).click();
  await expect(reviewer.getByRole('article')).toHaveCount(3);

  // Mark all read from the bell: the page's counts follow without a reload.
  await bell.click();
  await reviewer.getByRole('button', { name: 'Mark all read' }).click();
  await expect(reviewer.getByRole('button', { name: 'Mark as read' })).toHaveCount(0);
  await reviewer.locator('main').click({ position: { x: 5, y: 5 } });
  await expect(bell).toHaveAccessibleName('Notifications');
  await expect.poll(() => statValue(reviewer, 'Unread Messages')).toBe('0');
  expect(await statValue(reviewer, 'Read Rate')).toBe('100%');

  // 6. The administrator deletes one, after confirming.
  await page.getByRole('article', { name: 'Policy update' }).getByRole('button', { name: 'Delete notification' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete Notification' });
  await expect(confirm).toContainText('Are you sure you want to delete this notification? This action cannot be undone.');
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(toast(page, 'Notification deleted')).toContainText('The notification has been deleted successfully.');
  await expect(page.getByRole('article', { name: 'Policy update' })).toHaveCount(0);
  await expect.poll(() => statValue(page, 'Total Notifications')).toBe(String(adminTotalBefore + 2));

  // The reviewer sees two after a refresh of their page.
  await reviewer.reload();
  await expect.poll(() => statValue(reviewer, 'Total Notifications')).toBe('2');
  expect(await statValue(reviewer, 'Read Rate')).toBe('100%');
  await expect(reviewer.getByRole('article', { name: 'Policy update' })).toHaveCount(0);

  await reviewerContext.close();
});
