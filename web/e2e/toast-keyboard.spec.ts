import { expect, test, type Page } from '@playwright/test';
import { signInThroughForm, toast } from './helpers';

// A toast must not hold a keyboard user. Tab reaches its Dismiss
// button and goes on past it, round to the page again; the toast is read out from a
// live region that was in the page before it (SPEC §9: one toast at a time).

/** Where focus is: the accessible name (or label) of the focused element and whether it is in the toast. */
async function focusNow(page: Page): Promise<{ name: string; inToast: boolean }> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    const name = el?.getAttribute('aria-label') ?? (el && 'labels' in el ? (el as HTMLInputElement).labels?.[0]?.textContent : null) ?? el?.textContent ?? '';
    return { name: name.trim(), inToast: Boolean(el?.closest('.fui-ToastContainer')) };
  });
}

test('Tab goes through a toast and on, never stuck in it; the toast is announced and dismissed from the keyboard', async ({ page }) => {
  await page.goto('/internal-login');
  await expect(page.getByRole('heading', { name: 'Internal User Login' })).toBeVisible();
  // The live regions are in the page before any toast (a region added with its text is not read out);
  // what they say is recorded as it changes (a screen reader reads it out).
  await expect(page.locator('[aria-live="polite"]').first()).toBeAttached();
  await expect(page.locator('[aria-live="assertive"]').first()).toBeAttached();
  await page.addInitScript(() => {
    const said: string[] = [];
    (window as unknown as { liveSaid: string[] }).liveSaid = said;
    new MutationObserver(() => {
      for (const region of document.querySelectorAll('[aria-live]')) if (region.textContent) said.push(region.textContent);
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });

  // An address nobody has: 'Login Failed' (no user is throttled, nothing is stored).
  await signInThroughForm(page, `nobody-${Date.now()}@example.com`, 'Whatever#1');
  await expect(toast(page, 'Login Failed')).toBeVisible();
  await expect.poll(() => page.evaluate(() => (window as unknown as { liveSaid: string[] }).liveSaid.join(' | '))).toContain('Login Failed');

  // From the Sign In button, Tab on: focus reaches the toast's Dismiss button, the toast's one stop
  // (not its container first, which then threw Tab inside).
  await page.getByRole('button', { name: 'Sign In', exact: true }).focus();
  const path: { name: string; inToast: boolean }[] = [];
  for (let i = 0; i < 8 && !path.some((p) => p.inToast); i++) {
    await page.keyboard.press('Tab');
    path.push(await focusNow(page));
  }
  const where = path.map((p) => `${p.name}${p.inToast ? ' (toast)' : ''}`).join(' → ');
  expect(
    path.filter((p) => p.inToast).map((p) => p.name),
    where,
  ).toEqual(['Dismiss notification']);
  // And back out: Shift+Tab leaves the toast for the page's control before it (inside Fluent's
  // toast, a focus group, Shift+Tab went round the toast instead).
  await page.keyboard.press('Shift+Tab');
  expect(await focusNow(page), where).toEqual(path.at(-2));
  await page.keyboard.press('Tab');
  expect((await focusNow(page)).name).toBe('Dismiss notification');
  // The toast stayed while the keyboard was on it (focused, its time waits).
  await expect(toast(page, 'Login Failed')).toBeVisible();

  // A second failure replaces the toast (one at a time); its Dismiss button, pressed from the
  // keyboard, dismisses it and focus goes back into the page, not to its body.
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page.locator('.fui-Toast')).toHaveCount(1);
  await page.getByRole('button', { name: 'Sign In', exact: true }).focus();
  for (let i = 0; i < 10 && !(await focusNow(page)).inToast; i++) await page.keyboard.press('Tab');
  expect((await focusNow(page)).name).toBe('Dismiss notification');
  await page.keyboard.press('Enter');
  await expect(page.locator('.fui-Toast')).toHaveCount(0);
  expect(await page.evaluate(() => document.activeElement !== document.body && document.activeElement != null)).toBe(true);
});
