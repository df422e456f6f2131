import { expect, test, type Page } from '@playwright/test';
import { createActiveUser, ensureAdminSession, signInAsAdmin, signInThroughForm, toast } from './helpers';
import { createAssignmentRest, openFreshPeriod } from './review-helpers';

// A reviewer reviews and submits with the keyboard only, and
// focus is never lost: after each decision, batch action, switch or Submit it
// stays on the row or the next sensible control inside <main>, never on <body>.

type Focus = { where: 'body' | 'main' | 'outside'; control: boolean; name: string; row: number };

/** Where the keyboard focus is now. */
function focusNow(page: Page): Promise<Focus> {
  return page.evaluate(() => {
    const a = document.activeElement as HTMLElement | null;
    const main = document.querySelector('main');
    const where = !a || a === document.body ? 'body' : main && main !== a && main.contains(a) ? 'main' : 'outside';
    const control =
      !!a && (/^(BUTTON|INPUT|SELECT|TEXTAREA|A)$/.test(a.tagName) || /^(button|checkbox|switch|tab|link|menuitem)$/.test(a.getAttribute('role') ?? ''));
    const name = (a?.getAttribute('aria-label') || a?.textContent || '').trim().replace(/\s+/g, ' ').slice(0, 120);
    return { where, control, name, row: (a?.closest('tbody tr') as HTMLTableRowElement | null)?.sectionRowIndex ?? -1 } as const;
  });
}

/** Focus settles on a control inside <main> (optionally one whose name matches, in a given row). */
async function expectFocusKept(page: Page, what: string, name?: RegExp, row?: number): Promise<Focus> {
  await expect
    .poll(
      async () => {
        const f = await focusNow(page);
        return f.where === 'main' && f.control && (!name || name.test(f.name)) && (row === undefined || f.row === row) ? 'kept' : JSON.stringify(f);
      },
      { message: `focus after ${what}`, timeout: 15_000 },
    )
    .toBe('kept');
  return focusNow(page);
}

/** Presses Tab (or Shift+Tab) until a control whose name matches has focus. */
async function tabTo(page: Page, name: RegExp, backward = false): Promise<Focus> {
  for (let i = 0; i < 120; i++) {
    await page.keyboard.press(backward ? 'Shift+Tab' : 'Tab');
    const f = await focusNow(page);
    if (name.test(f.name)) return f;
  }
  throw new Error(`no control named ${name} within 120 presses of Tab`);
}

test.describe.configure({ timeout: 180_000 });

test('a reviewer decides, changes, decides in bulk and submits with the keyboard only, focus never lost', async ({ page, request }) => {
  await ensureAdminSession(request);
  await openFreshPeriod(request);
  const reviewer = await createActiveUser(request, { role: 'reviewer', firstName: 'Keyboard', lastName: 'Reviewer' });
  await createAssignmentRest(request, { reviewerId: reviewer.user.id, criteriaType: 'user_group', criteriaValue: 'Treasury' });
  await signInThroughForm(page, reviewer.email, reviewer.password);
  await expect(page.getByRole('heading', { name: 'Risk Management Dashboard' })).toBeVisible();
  await page.goto('/assigned-risks');
  const rows = page.getByRole('table', { name: 'Assigned risks' }).locator('tbody tr');
  await expect(rows.first()).toBeVisible();
  const count = await rows.count();
  expect(count).toBeGreaterThan(2);

  // 'Skip to content' first, then into the screen.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('main')).toBeFocused();

  // What the page's live regions say, recorded as it changes (a screen reader reads them out).
  await page.evaluate(() => {
    const said: string[] = [];
    (window as unknown as { liveSaid: string[] }).liveSaid = said;
    new MutationObserver(() => {
      for (const region of document.querySelectorAll('[aria-live]')) if (region.textContent) said.push(region.textContent);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });

  // Retain the first row: focus stays in the row, on its 'Change' button once saved.
  const first = await tabTo(page, /^Retain (?!Selected)/);
  await page.keyboard.press('Enter');
  await expect(toast(page, 'Decision Submitted')).toBeVisible();
  await expectFocusKept(page, 'Retain on a row', /^Change decision for /, first.row);
  // The toast is announced through a live region, not only shown.
  expect(await page.evaluate(() => (window as unknown as { liveSaid: string[] }).liveSaid.join(' | '))).toContain('Decision Submitted');

  // Remove the next row.
  const second = await tabTo(page, /^Remove (?!Selected)/);
  expect(second.row).toBeGreaterThan(first.row);
  await page.keyboard.press('Enter');
  await expect(rows.nth(second.row)).toContainText('Remove');
  await expectFocusKept(page, 'Remove on a row', /^Change decision for /, second.row);

  // Change it back to Retain through the row's menu: focus comes back to the row.
  await page.keyboard.press('Enter');
  await expect(page.getByRole('menuitem', { name: 'Retain' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(rows.nth(second.row).getByText('Retain', { exact: true })).toBeVisible();
  await expectFocusKept(page, 'a changed decision', /^Change decision for /, second.row);

  // Select every row with the header's checkbox and retain them in one go.
  await tabTo(page, /^Select all risks on this page$/, true);
  await page.keyboard.press('Space');
  await tabTo(page, new RegExp(`^Retain Selected \\(${count}\\)$`), true);
  await page.keyboard.press('Enter');
  await expect(toast(page, 'Decision Submitted')).toContainText(`${count} risks marked Retain`);
  await expectFocusKept(page, 'a batch decision');

  // Submit everything: focus lands on the panel's next action, 'Recall for Editing'.
  await tabTo(page, /^Submit All Decisions$/, true);
  await page.keyboard.press('Enter');
  await expect(toast(page, 'Decisions Submitted')).toBeVisible();
  await expectFocusKept(page, 'Submit', /Recall for Editing/);
  await expect(rows.first()).toContainText('Locked');
});

test("an administrator's queue switch and batch action keep focus on the row and the toolbar", async ({ page, request }) => {
  await signInAsAdmin(page, request);
  await openFreshPeriod(request);
  await page.goto('/risks');
  const rows = page.getByRole('table').first().locator('tbody tr');
  await expect(rows.first()).toBeVisible();
  await page.getByRole('heading', { level: 1 }).click();

  // The retain/remove switch: Space decides, focus stays on the same switch.
  const sw = await tabTo(page, /^Retain access: /);
  await page.keyboard.press('Space');
  await expect(toast(page, 'Decision Submitted')).toBeVisible();
  await expectFocusKept(page, 'the queue switch', new RegExp(`^${sw.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`), sw.row);

  // Two rows selected with Space, removed with the toolbar's batch button.
  await tabTo(page, /^Select /, true);
  await page.keyboard.press('Space');
  await tabTo(page, /^Retain access: /);
  await tabTo(page, /^Select /);
  await page.keyboard.press('Space');
  await tabTo(page, /^Remove Selected \(2\)$/, true);
  await page.keyboard.press('Enter');
  await expect(toast(page, 'Decision Submitted')).toContainText('2 risks marked Remove');
  await expectFocusKept(page, 'a batch decision in the queue');
});
