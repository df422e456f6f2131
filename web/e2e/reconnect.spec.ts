import { expect, test } from '@playwright/test';
import { bellButton, createActiveUser, ensureAdminSession, sendNotificationRest, signInThroughForm } from './helpers';

// An instance that stops closes its WebSockets with 1012 (Service Restart): the page says
// 'Reconnecting…' while it is cut off, reconnects by itself and its subscriptions work again.
test('a subscription socket closed with 1012 shows Reconnecting… and then recovers', async ({ page, request }) => {
  await ensureAdminSession(request);
  const reviewer = await createActiveUser(request, { role: 'reviewer', prefix: 'reconnect' });
  let sockets = 0;
  let closeFirst: (() => Promise<void>) | undefined;
  await page.routeWebSocket(/\/graphql$/, async (ws) => {
    sockets += 1;
    if (sockets === 2) {
      // The first reconnect meets an instance that is still going away.
      await ws.close({ code: 1012, reason: 'Service restart' });
      return;
    }
    const server = ws.connectToServer();
    if (sockets === 1) {
      closeFirst = async () => {
        await ws.close({ code: 1012, reason: 'Service restart' });
        await server.close();
      };
    }
  });
  await signInThroughForm(page, reviewer.email, reviewer.password);
  await expect(page.getByRole('heading', { name: 'Risk Management Dashboard' })).toBeVisible();
  await expect.poll(() => sockets).toBeGreaterThan(0);
  await expect(page.getByText('Reconnecting…')).toHaveCount(0);
  await page.waitForTimeout(1000);

  await closeFirst!();
  await expect(page.getByText('Reconnecting…')).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Live updates are paused' })).toBeVisible();
  await expect(page.getByText('Reconnecting…')).toHaveCount(0, { timeout: 20_000 });
  expect(sockets).toBeGreaterThanOrEqual(3);

  // Resubscribed: a notification sent now arrives.
  await sendNotificationRest(request, { title: 'After restart', message: 'Still here.', targetType: 'specific', targetUserId: reviewer.user.id });
  await expect(bellButton(page)).toHaveAccessibleName('Notifications, 1 unread');
});
