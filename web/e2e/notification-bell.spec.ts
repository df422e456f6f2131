import { expect, test } from '@playwright/test';
import { bellButton, createActiveUser, ensureAdminSession, sendNotificationRest, signInThroughForm } from './helpers';

test('the bell clamps long messages with See more / See less and is empty for a new user', async ({ page, request }) => {
  await ensureAdminSession(request);
  const reviewer = await createActiveUser(request, { role: 'reviewer', prefix: 'bell', firstName: 'Bella', lastName: 'Bell' });
  await signInThroughForm(page, reviewer.email, reviewer.password);
  await expect(page.getByRole('heading', { name: 'Risk Management Dashboard' })).toBeVisible();

  const bell = bellButton(page);
  await expect(bell).toHaveAccessibleName('Notifications');
  await bell.click();
  const popover = page.getByRole('dialog', { name: 'Notifications' });
  await expect(popover.getByText('No notifications', { exact: true })).toBeVisible();
  await expect(popover.getByRole('button', { name: 'Mark all read' })).toBeDisabled();
  await page.keyboard.press('Escape');

  const long = `${'The quarterly access review covers every system in scope. '.repeat(3)}Thank you.`;
  expect(long.length).toBeGreaterThan(100);
  await sendNotificationRest(request, { title: 'Long read', message: long, type: 'info', targetType: 'specific', targetUserId: reviewer.user.id });
  await expect(bell).toHaveAccessibleName('Notifications, 1 unread');

  await bell.click();
  const item = popover.getByRole('listitem').filter({ hasText: 'Long read' });
  const clamped = `${long.slice(0, 100).trimEnd()}…`;
  await expect(item).toContainText(clamped);
  await expect(item).not.toContainText('Thank you.');
  await item.getByRole('button', { name: 'See more' }).click();
  await expect(item).toContainText(long);
  await item.getByRole('button', { name: 'See less' }).click();
  await expect(item).toContainText(clamped);
  await expect(item).not.toContainText('Thank you.');

  // A short message has no toggle.
  await page.keyboard.press('Escape');
  await sendNotificationRest(request, { title: 'Short', message: 'Brief.', type: 'warning', targetType: 'specific', targetUserId: reviewer.user.id });
  await expect(bell).toHaveAccessibleName('Notifications, 2 unread');
  await bell.click();
  await expect(popover.getByRole('listitem').filter({ hasText: 'Brief.' }).getByRole('button', { name: 'See more' })).toHaveCount(0);
});

test('the unread badge shows 99+ above 99', async ({ page, request }) => {
  test.setTimeout(120_000);
  await ensureAdminSession(request);
  const reviewer = await createActiveUser(request, { role: 'reviewer', prefix: 'badge' });
  for (let i = 1; i <= 100; i += 1) {
    await sendNotificationRest(request, { title: `Batch ${i}`, message: `Message ${i}`, targetType: 'specific', targetUserId: reviewer.user.id });
  }
  await signInThroughForm(page, reviewer.email, reviewer.password);
  await expect(bellButton(page)).toHaveAccessibleName('Notifications, 100 unread');
  await expect(page.locator('.fui-CounterBadge')).toHaveText('99+');
});

test('a poll answered after a mark as read does not show the notification unread again', async ({ page, request }) => {
  await ensureAdminSession(request);
  const reviewer = await createActiveUser(request, { role: 'reviewer', prefix: 'poll' });
  await sendNotificationRest(request, { title: 'Stale poll', message: 'Read me.', type: 'info', targetType: 'specific', targetUserId: reviewer.user.id });
  await page.clock.install();
  await signInThroughForm(page, reviewer.email, reviewer.password);
  const bell = bellButton(page);
  await expect(bell).toHaveAccessibleName('Notifications, 1 unread');

  // The 30 s poll: the server answers it now (unread), and the answer reaches the page only
  // after the mark as read has been saved.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  let asked = () => {};
  const pollAnswered = new Promise<void>((resolve) => (asked = resolve));
  let delivered = () => {};
  const staleDelivered = new Promise<void>((resolve) => (delivered = resolve));
  let holding = true;
  await page.route('**/graphql', async (route) => {
    const body = route.request().postDataJSON() as { operationName?: string } | null;
    if (holding && body?.operationName === 'NotificationBellQuery') {
      holding = false;
      const answer = await route.fetch();
      asked();
      await held;
      await route.fulfill({ response: answer });
      delivered();
    } else {
      await route.fallback();
    }
  });
  await page.clock.runFor(30_000);
  await pollAnswered;

  await bell.click();
  const list = page.getByRole('list', { name: 'Notification list' });
  const saved = page.waitForResponse(
    (r) => (r.request().postDataJSON() as { operationName?: string } | null)?.operationName === 'NotificationBellItemMarkReadMutation',
  );
  await list.getByRole('button', { name: 'Mark as read' }).click();
  await saved;
  release();
  await staleDelivered;
  // Give the page the time to show the stale answer, then: read it stays (the page asked again).
  await page.waitForTimeout(500);
  await expect(list.getByRole('button', { name: 'Mark as read' })).toHaveCount(0);
  await expect(list.getByRole('listitem', { name: 'Unread: Stale poll' })).toHaveCount(0);
});
