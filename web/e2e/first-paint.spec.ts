import { expect, test } from '@playwright/test';
import { signInAsAdmin } from './helpers';

// Issue 15 point 3 ('Fast first load'): a returning, signed-in visitor's page arrives with
// the signed-in frame (top bar, the dashboard's heading) already in the HTML, and the app
// takes it over with no flash of the landing page and no empty screen; a visitor without a
// session gets the page as built.

/** Records, from the first parse on, what #root shows each time it changes. */
function recordRoot() {
  const w = window as unknown as { rootStates: string[] };
  w.rootStates = [];
  const note = () => {
    const root = document.getElementById('root');
    if (root == null) return;
    const state = root.querySelector('.bf')
      ? 'frame'
      : root.querySelector('main#main-content h1')
        ? 'dashboard'
        : root.querySelector('main#main-content')
          ? 'shell'
          : root.textContent?.trim()
            ? `other: ${root.textContent.trim().slice(0, 40)}`
            : 'empty';
    if (w.rootStates[w.rootStates.length - 1] !== state) w.rootStates.push(state);
  };
  new MutationObserver(note).observe(document, { subtree: true, childList: true });
}

test("a signed-in visitor's reload paints the page's frame from the HTML, then the dashboard, never the landing page", async ({ page, request }) => {
  await signInAsAdmin(page, request);
  await page.addInitScript(recordRoot);
  const response = await page.goto('/');
  const html = (await response?.text()) ?? '';
  expect(html).toContain('<div id="root"><div class="bf"');
  expect(html).toContain('Risk Management Dashboard');
  await expect(page.locator('main#main-content').getByRole('heading', { level: 1, name: 'Risk Management Dashboard' })).toBeVisible();
  const states = await page.evaluate(() => (window as unknown as { rootStates: string[] }).rootStates);
  // The frame first; from then on the shell with the heading (the frame has the same boxes).
  expect(states[0]).toBe('frame');
  expect(states.at(-1)).toBe('dashboard');
  expect(states.filter((s) => s !== 'frame' && s !== 'dashboard'), states.join(' → ')).toEqual([]);
  // Not two headings for a screen reader: the frame, while shown, is aria-hidden, and it is gone now.
  await expect(page.locator('.bf')).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
});

test('a visitor without a session gets the page as built: no frame, the landing page', async ({ page }) => {
  const response = await page.goto('/');
  expect((await response?.text()) ?? '').toContain('<div id="root"></div>');
  await expect(page.getByRole('button', { name: 'Sign In to Continue' })).toBeVisible();
  await expect(page.locator('.bf')).toHaveCount(0);
});
