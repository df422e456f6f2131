import { expect, test, type Browser, type Page } from '@playwright/test';
import {
  bellButton,
  createActiveUser,
  deactivateUser,
  ensureAdminSession,
  sendNotificationRest,
  signInAsAdmin,
  signInThroughForm,
  statValue,
  toast,
  type Credentials,
} from './helpers';
import { adminInFreshPeriod, closeActivePeriod, createAssignmentRest, openFreshPeriod, queueRows, tileValue, uniqueName } from './review-helpers';

// What an open page shows as the period, the session and the notifications
// change, and how toasts and badges read (the forced password dialog's Escape
// is in change-password.spec.ts).

const rowsOf = (page: Page) => page.getByRole('table', { name: 'Assigned risks' }).locator('tbody tr');

/** Every toast shown, in order, with the time it appeared and how many were on screen with it. */
async function recordToasts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __toasts: { text: string; at: number; together: number }[] };
    w.__toasts = [];
    // A toast is new when an element appears or its text changes (a replaced toast may keep its element).
    const seen = new WeakMap<Element, string>();
    const scan = () => {
      const all = [...document.querySelectorAll('.fui-Toast')];
      for (const t of all) {
        const text = (t.textContent ?? '').trim();
        if (seen.get(t) === text) continue;
        seen.set(t, text);
        w.__toasts.push({ text, at: performance.now(), together: all.length });
      }
    };
    new MutationObserver(scan).observe(document, { childList: true, subtree: true, characterData: true });
  });
}

async function shownToasts(page: Page): Promise<{ text: string; at: number; together: number }[]> {
  return page.evaluate(() => (window as unknown as { __toasts: { text: string; at: number; together: number }[] }).__toasts);
}

/**
 * In a newly opened period, a reviewer assigned the 6 rows of group Treasury (fixtures/risk-rows.json),
 * signed in on their own browser, on Risk Review with the 6 rows shown.
 */
async function reviewerOnRiskReview(browser: Browser, request: Parameters<typeof createActiveUser>[0]) {
  await ensureAdminSession(request);
  await openFreshPeriod(request);
  const reviewer = await createActiveUser(request, { role: 'reviewer', firstName: 'Bugs', lastName: `Reviewer${Date.now().toString(36)}` });
  await createAssignmentRest(request, { reviewerId: reviewer.user.id, criteriaType: 'user_group', criteriaValue: 'Treasury' });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await recordToasts(page);
  await signInThroughForm(page, reviewer.email, reviewer.password);
  await expect(page.getByRole('heading', { name: 'Risk Management Dashboard' })).toBeVisible();
  await page.goto('/risk-review');
  await expect(rowsOf(page)).toHaveCount(6);
  return { reviewer, context, page };
}

/** WCAG contrast of an element's text against the first opaque background behind it. */
async function textContrast(selector: ReturnType<Page['locator']>): Promise<number> {
  return selector.evaluate((el) => {
    const rgb = (s: string) => (s.match(/[\d.]+/g) ?? []).map(Number);
    const lum = ([r, g, b]: number[]) => {
      const c = [r!, g!, b!].map((v) => {
        const x = v / 255;
        return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * c[0]! + 0.7152 * c[1]! + 0.0722 * c[2]!;
    };
    const fg = rgb(getComputedStyle(el).color);
    let bg = [255, 255, 255];
    for (let n: Element | null = el; n; n = n.parentElement) {
      const c = rgb(getComputedStyle(n).backgroundColor);
      if (c.length >= 3 && (c.length < 4 || c[3]! > 0.5)) {
        bg = c.slice(0, 3);
        break;
      }
    }
    const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
    return (a! + 0.05) / (b! + 0.05);
  });
}

test('Reviewer Status: the “Not started” badge is readable', async ({ page, request }) => {
  await ensureAdminSession(request);
  await openFreshPeriod(request);
  const stamp = Date.now().toString(36);
  await createActiveUser(request, { role: 'reviewer', firstName: 'Idle', lastName: `Reviewer${stamp}` });
  await signInAsAdmin(page, request);
  await page.goto('/risk-review?tab=status');
  const badge = page
    .getByRole('row')
    .filter({ hasText: `Idle Reviewer${stamp}` })
    .getByText('Not started', { exact: true });
  await expect(badge).toBeVisible();
  expect(await textContrast(badge)).toBeGreaterThanOrEqual(4.5);
});

test('a closed period shows the date it closed, not “Ongoing”', async ({ page, request }) => {
  await ensureAdminSession(request);
  const period = await openFreshPeriod(request, uniqueName('Closed dates'));
  await closeActivePeriod(request);
  await signInAsAdmin(page, request);
  const closed = page.getByRole('region', { name: 'Recent closed periods' }).getByRole('listitem').filter({ hasText: period.name });
  await expect(closed).toBeVisible();
  await expect(closed).not.toContainText('Ongoing');
  const today = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' }).format(new Date());
  await expect(closed).toContainText(` – ${today}`);
});

test('while the period is closed, a reviewer still sees their decisions, read-only', async ({ browser, request }) => {
  const { context, page: rev } = await reviewerOnRiskReview(browser, request);
  await rowsOf(rev)
    .nth(0)
    .getByRole('button', { name: /^Remove / })
    .click();
  await expect(toast(rev, 'Decision Submitted')).toBeVisible();
  await expect.poll(() => tileValue(rev, 'Reviewed')).toBe('1');

  await closeActivePeriod(request);
  await rev.reload();
  await expect(rev.getByText('Review Period Closed', { exact: true })).toBeVisible();
  await expect(rowsOf(rev).nth(0)).toContainText('Remove');
  await expect(rowsOf(rev).nth(0)).toContainText('Locked');
  await expect(
    rowsOf(rev)
      .nth(1)
      .getByRole('button', { name: /^Retain / }),
  ).toBeDisabled();
  await expect.poll(() => tileValue(rev, 'Reviewed')).toBe('1');
  await context.close();
});

test('a new toast replaces the one showing at once; never two on screen', async ({ page, request }) => {
  await recordToasts(page);
  await adminInFreshPeriod(page, request);
  await page.goto('/risks');
  const rows = queueRows(page);
  await expect(rows).toHaveCount(25);
  const before = (await shownToasts(page)).length;
  // Three decisions in quick succession: three toasts, each replacing the last.
  for (let i = 0; i < 3; i++) {
    const control = rows.nth(i).getByRole('switch');
    const [, who, riskId] = /^Retain access: (.*) (\S+) \S+$/.exec((await control.getAttribute('aria-label')) ?? '') ?? [];
    const saved = page.waitForResponse((r) => r.url().endsWith('/graphql') && (r.request().postData() ?? '').includes('useSaveDecisionsMutation'));
    await control.click();
    await saved;
    const answeredAt = await page.evaluate(() => performance.now());
    const text = `${who} · ${riskId}: Retain`;
    await expect(page.locator('.fui-Toast').last()).toContainText(text);
    // At once: on screen as soon as the answer is there, not queued behind the previous toast's exit.
    const shownAt = (await shownToasts(page)).find((t) => t.text.includes(text))!.at;
    expect(shownAt - answeredAt).toBeLessThan(700);
  }
  const shown = (await shownToasts(page)).slice(before);
  expect(shown.map((t) => t.text.slice(0, 18))).toEqual(['Decision Submitted', 'Decision Submitted', 'Decision Submitted']);
  expect(shown.every((t) => t.together === 1)).toBe(true);
  await expect(page.locator('.fui-Toast')).toHaveCount(1);
});

test('a request answered “not signed in” shows SPEC §8’s Unauthorized toast and goes to sign-in', async ({ browser, request }) => {
  const { context, page: rev } = await reviewerOnRiskReview(browser, request);
  // The session ends behind the page's back (as a deactivation or an expiry would).
  await context.clearCookies();
  const before = (await shownToasts(rev)).length;
  await rowsOf(rev)
    .nth(0)
    .getByRole('button', { name: /^Retain / })
    .click();
  await expect(toast(rev, 'Unauthorized')).toContainText('You are logged out. Logging in again...');
  // Sign-in returns to the page the session ended on.
  await expect(rev).toHaveURL(/\/internal-login\?next=%2Frisk-review$/);
  await expect(rev.getByRole('heading', { name: 'Internal User Login' })).toBeVisible();
  const titles = (await shownToasts(rev)).slice(before).map((t) => t.text);
  expect(titles.filter((t) => /Save Failed|not signed in/.test(t))).toEqual([]);
  await context.close();
});

test('the Notifications page’s cards agree with the bell and with themselves; Read by moves at once', async ({ browser, page, request }) => {
  test.setTimeout(120_000);
  await ensureAdminSession(request);
  const stamp = Date.now().toString(36);
  const reviewer: Credentials = await createActiveUser(request, { role: 'reviewer', firstName: 'Note', lastName: `Reader${stamp}` });
  await signInAsAdmin(page, request);
  const everyone = `For everyone ${stamp}`;
  // Notifications to all users are seen by every user later specs create: removed at the end.
  const toAll = [
    await sendNotificationRest(request, { title: `${everyone} (first)`, message: 'To all users', targetType: 'all' }),
    await sendNotificationRest(request, { title: everyone, message: 'To all users', targetType: 'all' }),
  ];
  await page.goto('/notifications');
  await expect(page.getByRole('article', { name: everyone, exact: true })).toBeVisible();

  const cards = async () => ({
    total: Number(await statValue(page, 'Total Notifications')),
    unread: Number(await statValue(page, 'Unread Messages')),
    rate: await statValue(page, 'Read Rate'),
  });
  const bellUnread = async () => {
    const name = (await bellButton(page).getAttribute('aria-label')) ?? '';
    return Number(/(\d+) unread/.exec(name)?.[1] ?? 0);
  };
  const first = await cards();
  expect(first.unread).toBeGreaterThan(0);
  expect(first.unread).toBe(await bellUnread());

  // A notification addressed to someone else is listed and counted in the total (the cards describe
  // the list), but it is not the administrator's to read: Unread stays the bell's.
  const other = `For the reviewer only ${stamp}`;
  await sendNotificationRest(request, { title: other, message: 'Only to the reviewer', targetType: 'specific', targetUserId: reviewer.user.id });
  await page.reload();
  await expect(page.getByRole('article', { name: other })).toBeVisible();
  const second = await cards();
  expect(second.total).toBe(first.total + 1);
  expect(second.unread).toBe(first.unread);
  expect(second.rate).toBe(`${Math.round(((second.total - second.unread) / second.total) * 100)}%`);
  expect(second.unread).toBe(await bellUnread());

  // Marking one read: the card, the bell and 'Read by' move together at once.
  const card = page.getByRole('article', { name: everyone, exact: true });
  await expect(card).toContainText('Read by 0');
  await card.getByRole('button', { name: 'Mark as read' }).click();
  await expect(card.getByRole('button', { name: 'Mark as read' })).toHaveCount(0);
  await expect(card).toContainText('Read by 1');
  await expect.poll(async () => (await cards()).unread).toBe(second.unread - 1);
  expect((await cards()).unread).toBe(await bellUnread());

  // Mark all read by the administrator: their own figures go to 0 unread, 100 %; the reviewer's notification is untouched.
  await bellButton(page).click();
  await page.getByRole('button', { name: 'Mark all read' }).click();
  // A click outside closes the bell's popover (on the page's heading: a fixed spot of <main> can lie under the sticky header).
  // (CSS, not role: while the popover is open the rest of the page is hidden from the accessibility tree.)
  await page.locator('main h1').click();
  await expect(page.getByRole('button', { name: 'View all notifications' })).toHaveCount(0);
  await expect.poll(async () => (await cards()).unread).toBe(0);
  expect((await cards()).rate).toBe('100%');
  await expect(page.getByRole('article', { name: other })).toContainText('Read by 0');
  await page.reload();
  await expect(page.getByRole('article', { name: other })).toContainText('Read by 0');
  await expect(page.getByRole('article', { name: everyone, exact: true })).toContainText('Read by 1');
  expect(await cards()).toEqual({ total: second.total, unread: 0, rate: '100%' });
  expect(await bellUnread()).toBe(0);

  // The reviewer reads theirs: the administrator's 'Read by' follows without a reload.
  const ctx = await browser.newContext();
  const rev = await ctx.newPage();
  await signInThroughForm(rev, reviewer.email, reviewer.password);
  // Signed in before leaving the page (going at once cancelled the sign-in request).
  await expect(rev.getByRole('heading', { name: 'Risk Management Dashboard' })).toBeVisible();
  await rev.goto('/notifications');
  await rev.getByRole('article', { name: other }).getByRole('button', { name: 'Mark as read' }).click();
  await expect(rev.getByRole('article', { name: other }).getByRole('button', { name: 'Mark as read' })).toHaveCount(0);
  await expect(page.getByRole('article', { name: other })).toContainText('Read by 1', { timeout: 35_000 });
  await ctx.close();
  for (const id of toAll) expect((await request.delete(`/api/notifications/${id}`)).ok()).toBeTruthy();
});

test('deactivation signs an open page out at once, without any action there', async ({ browser, request }) => {
  const { reviewer, context, page: rev } = await reviewerOnRiskReview(browser, request);
  await deactivateUser(request, reviewer.user.id);
  await expect(toast(rev, 'Unauthorized')).toContainText('You are logged out. Logging in again...');
  // Sign-in returns to the page the session ended on.
  await expect(rev).toHaveURL(/\/internal-login\?next=%2Frisk-review$/);
  await context.close();
});

test('closing the period locks an open reviewer page at once, keeping its decisions', async ({ browser, request }) => {
  const { context, page: rev } = await reviewerOnRiskReview(browser, request);
  await rowsOf(rev)
    .nth(0)
    .getByRole('button', { name: /^Retain / })
    .click();
  await expect(toast(rev, 'Decision Submitted')).toBeVisible();
  await expect(
    rowsOf(rev)
      .nth(1)
      .getByRole('button', { name: /^Retain / }),
  ).toBeEnabled();

  await closeActivePeriod(request);
  await expect(rev.getByText('Review Period Closed', { exact: true })).toBeVisible();
  await expect(
    rowsOf(rev)
      .nth(1)
      .getByRole('button', { name: /^Retain / }),
  ).toBeDisabled();
  await expect(rowsOf(rev).nth(0)).toContainText('Locked');
  await expect(rev.getByRole('button', { name: 'Submit All Decisions' })).toHaveCount(0);

  // ... and a reopened period unlocks it again.
  await openFreshPeriod(request);
  await expect(rev.getByText('Review Period Closed', { exact: true })).toHaveCount(0);
  await expect(
    rowsOf(rev)
      .nth(1)
      .getByRole('button', { name: /^Retain / }),
  ).toBeEnabled();
  await context.close();
});
