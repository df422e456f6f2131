import { expect, test } from '@playwright/test';
import { createActiveUser, ensureAdminSession, signInAsAdmin, toast } from './helpers';

// Coverage: an administrator chooses a fallback reviewer in Admin Settings on
// a 390 px screen by keyboard; the dashboard shows 'Unassigned conflicts'
// before (every row no assignment covers) and after (none: the fallback
// reviewer has them), with the list a click away.
test('an administrator chooses a fallback reviewer by keyboard at 390 px; the dashboard counts unassigned conflicts', async ({ browser, request }) => {
  test.slow();
  await ensureAdminSession(request);
  const stamp = Date.now().toString(36);
  const fallback = await createActiveUser(request, { role: 'reviewer', firstName: 'Fay', lastName: `Fallback${stamp}` });
  expect((await request.put('/api/review-settings', { data: { fallbackReviewerIds: [] } })).status()).toBe(200);
  const before = (await (await request.get('/api/dashboard/stats')).json()) as { unassignedConflicts: number };

  const phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await phone.newPage();
  try {
    await signInAsAdmin(page, request);
    await expect(page.getByText(`Unassigned conflicts: ${before.unassignedConflicts.toLocaleString('en-US')}`)).toBeVisible({ timeout: 30_000 });
    if (before.unassignedConflicts > 0) {
      await page.getByRole('button', { name: 'View the list' }).click();
      const list = page.getByRole('dialog', { name: 'Unassigned Conflicts' });
      await expect(list.getByRole('table', { name: 'Unassigned conflicts' })).toBeVisible();
      await list.getByRole('button', { name: 'Close' }).click();
    }

    await page.goto('/admin-settings');
    const group = page.getByRole('group', { name: 'Fallback reviewers' });
    const box = group.getByRole('checkbox', { name: new RegExp(fallback.email.replace(/[.+]/g, '\\$&')) });
    await box.focus();
    await page.keyboard.press('Space');
    await expect(box).toBeChecked();
    await page.getByRole('button', { name: 'Save Fallback Reviewers' }).focus();
    await page.keyboard.press('Enter');
    await expect(toast(page, 'Fallback reviewers updated')).toBeVisible();
    expect(((await (await request.get('/api/review-settings')).json()) as { fallbackReviewerIds: string[] }).fallbackReviewerIds).toEqual([fallback.user.id]);

    await page.goto('/');
    await expect(page.getByText('Unassigned conflicts: 0')).toBeVisible({ timeout: 30_000 });
  } finally {
    await phone.close();
    await request.put('/api/review-settings', { data: { fallbackReviewerIds: [] } });
  }
});
