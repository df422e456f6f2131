import { expect, test, type Locator, type Page } from '@playwright/test';
import {
  ADMIN_CHANGED_PASSWORD,
  ADMIN_EMAIL,
  appendCsvRest,
  changePasswordDialog,
  createActiveUser,
  createUser,
  ensureAdminSession,
  passwordFields,
  signInAsAdmin,
  signInThroughForm,
  toast,
} from './helpers';
import { createAssignmentRest, openFreshPeriod, pickOption, shot } from './review-helpers';

// The layout at a desktop width (1280 px) and a phone's (390 px), measured in the browser:
// no text wider than its box, no column squeezed to a letter, no two boxes over each other,
// the chosen tab on screen, and the keyboard's first stop where a keyboard user expects it.
// It appends rows of its own to the shared data (and an upload tells the remediation list's
// owners what is still there), so it runs after the specs that count the fixture's rows
// and notifications: Playwright runs spec files in name order.
const WIDE = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const WIDTHS = [WIDE, PHONE] as const;

// Rows of our own (a CSV through POST /api/upload), tagged per run: an SoD risk for the
// simulation (two functions, one through AP, one through PAY) and rows the export shows as
// never executed, which the recommendation calls 'Remove'.
const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`.toUpperCase();
const USER = `LAY${tag}`;
// Composite role and authorization names as long as real exports have them (one word each).
const AP = `ZC_FI_ACCOUNTS_PAYABLE_CLERK_${tag}`;
const PAY = `ZC_FI_PAYMENT_RUN_ALL_COMPANY_CODES_${tag}`;
const HEADER =
  'User ID,User Name,User Group,Access Risk ID,Risk Description,Risk Level,Rule ID,Function,Function Description,System,Role/Profile,Composite/Business Role,Resource,Resource Extn,Value From,Value To,Execution Count';
const ROWS = [
  [
    USER,
    `Layla Layout ${tag}`,
    'FIN',
    'L900',
    'Create and pay vendor',
    'High',
    '0301',
    'AP01',
    'Vendor create',
    'SAP ERP',
    'Z_FI_AP_VENDOR_MAINTENANCE',
    AP,
    'F_LFA1_BUK',
    'ACTVT',
    '01',
    '03',
    '0',
  ],
  [
    USER,
    `Layla Layout ${tag}`,
    'FIN',
    'L900',
    'Create and pay vendor',
    'High',
    '0102',
    'AP02',
    'Vendor pay',
    'SAP ERP',
    'Z_FI_PAYMENT_PROGRAM_EXECUTION',
    PAY,
    'F_REGU_BUK',
    'FBTCH',
    '$BUKRS_ALL_COMPANY_CODES',
    '',
    '0',
  ],
];

type Box = { x: number; y: number; width: number; height: number };

async function boxOf(locator: Locator): Promise<Box> {
  await expect(locator).toBeVisible();
  const box = await locator.boundingBox();
  if (!box) throw new Error(`${locator} has no box`);
  return box;
}

/** Whether two boxes share some area (touching edges do not count). */
function overlap(a: Box, b: Box): boolean {
  const eps = 0.5;
  return a.x + a.width - eps > b.x && b.x + b.width - eps > a.x && a.y + a.height - eps > b.y && b.y + b.height - eps > a.y;
}

/** How many pixels of the element's content its own box cuts off, sideways and downwards. */
async function clipped(locator: Locator): Promise<{ x: number; y: number }> {
  return locator.evaluate((el) => ({ x: el.scrollWidth - el.clientWidth, y: el.scrollHeight - el.clientHeight }));
}

/** Whether `inner` lies within `outer` (to the pixel). */
function inside(inner: Box, outer: Box): boolean {
  return (
    inner.x >= outer.x - 1 &&
    inner.y >= outer.y - 1 &&
    inner.x + inner.width <= outer.x + outer.width + 1 &&
    inner.y + inner.height <= outer.y + outer.height + 1
  );
}

/** The cells of a table whose text runs past the cell's box (over the next cell). */
async function overflowingCells(table: Locator): Promise<string[]> {
  return table
    .locator('th, td')
    .evaluateAll((cells) =>
      cells.filter((c) => c.scrollWidth > c.clientWidth + 1).map((c) => `${(c.textContent ?? '').trim()} (${c.scrollWidth} > ${c.clientWidth})`),
    );
}

/** The colour a Fluent token resolves to in the app (the tokens are set on the provider, not :root). */
async function tokenColour(page: Page, token: string): Promise<string> {
  return page.locator('main').evaluate((main, name) => {
    const probe = document.createElement('div');
    probe.style.backgroundColor = `var(--${name})`;
    main.append(probe);
    const colour = getComputedStyle(probe).backgroundColor;
    probe.remove();
    return colour;
  }, token);
}

/** Nothing on the page is wider than the screen (a wide table scrolls in its own box). */
async function expectNoPageSideways(page: Page, where: string): Promise<void> {
  const w = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  expect(w.scroll, `${where}: the page is ${w.scroll}px wide on a ${w.client}px screen`).toBeLessThanOrEqual(w.client);
}

test.beforeAll(async ({ request }) => {
  await ensureAdminSession(request);
  await appendCsvRest(request, { name: `layout-${tag}.csv`, header: HEADER, lines: ROWS.map((r) => r.join(',')) }, { skipDuplicates: true });
});

test('the Assignments table keeps readable Value and Matching Rows columns, and scrolls in its card on a phone', async ({ page, request }) => {
  await ensureAdminSession(request);
  const reviewer = await createActiveUser(request, { role: 'reviewer', firstName: 'Lay', lastName: `Columns${tag}` });
  await createAssignmentRest(request, { reviewerId: reviewer.user.id, criteriaType: 'user_id', criteriaValue: USER, name: `Layout columns ${tag}` });
  await signInAsAdmin(page, request);
  await page.goto('/assignments');
  const table = page.getByRole('table', { name: 'Assignments', exact: true });
  const row = table.getByRole('row').filter({ hasText: `Layout columns ${tag}` });
  await expect(row).toHaveCount(1);
  for (const size of WIDTHS) {
    await page.setViewportSize(size);
    for (const name of ['Value', 'Matching Rows']) {
      const header = table.getByRole('columnheader', { name, exact: true });
      const { width } = await boxOf(header);
      expect(width, `${name} column at ${size.width}px`).toBeGreaterThanOrEqual(96);
      expect((await clipped(header)).x, `${name} header text at ${size.width}px`).toBeLessThanOrEqual(0);
    }
    // The value reads on one line (not a letter per line).
    const value = row.getByRole('cell').nth(3).getByText(USER, { exact: true });
    expect((await boxOf(value)).height, `the value's height at ${size.width}px`).toBeLessThan(30);
    await expectNoPageSideways(page, `/assignments at ${size.width}px`);
    await shot(page, `layout-assignments-${size.width}`);
  }
  // On the phone the table is wider than the screen and scrolls sideways in its own box.
  const scroller = table.locator('xpath=..');
  expect((await clipped(scroller)).x).toBeGreaterThan(0);
  expect(await scroller.evaluate((el) => getComputedStyle(el).overflowX)).toMatch(/auto|scroll/);
});

test("Risk Simulation's Original and Simulated tables sit apart, at 1280 and 390 px", async ({ page, request }) => {
  test.setTimeout(120_000);
  await signInAsAdmin(page, request);
  await page.goto('/risk-simulation');
  await expect(page.getByRole('heading', { name: 'Risk Simulation & Analysis', level: 1 })).toBeVisible();
  await pickOption(page, 'User', tag.toLowerCase(), USER);
  await pickOption(page, 'Risk', 'L900', 'L900');
  await page.getByRole('button', { name: 'Add Scenario' }).click();
  await pickOption(page, 'Scenario 1 role', 'PAYMENT_RUN', PAY);
  await page.getByRole('button', { name: 'Run Risk Simulation' }).click();
  await expect(toast(page, 'Simulation Complete')).toBeVisible();
  await expect(page.getByRole('table', { name: 'Simulated Access' }).locator('tbody tr')).toHaveCount(2);
  const original = page.getByRole('region', { name: 'Original Access' });
  const simulated = page.getByRole('region', { name: 'Simulated Access' });
  for (const size of WIDTHS) {
    await page.setViewportSize(size);
    const a = await boxOf(original);
    const b = await boxOf(simulated);
    expect(overlap(a, b), `the two result tables at ${size.width}px: ${JSON.stringify([a, b])}`).toBe(false);
    for (const section of [original, simulated]) {
      // No text runs over the next cell, or out of its table over the other one.
      expect(await overflowingCells(section.getByRole('table')), `cells at ${size.width}px`).toEqual([]);
      // A table wider than its column scrolls inside its own section.
      const scroller = section.getByRole('table').locator('xpath=..');
      expect(inside(await boxOf(scroller), await boxOf(section)), `the table's box inside its section at ${size.width}px`).toBe(true);
    }
    await expectNoPageSideways(page, `/risk-simulation result at ${size.width}px`);
    await shot(page, `layout-simulation-${size.width}`);
  }
});

test("the forced Change Password dialog shows its 'Change Password' button whole, at 1280 and 390 px", async ({ page, request }) => {
  await ensureAdminSession(request);
  const fresh = await createUser(request, { role: 'reviewer', firstName: 'Lay', lastName: `Password${tag}` });
  for (const size of WIDTHS) {
    await page.setViewportSize(size);
    if (!(await changePasswordDialog(page).isVisible())) await signInThroughForm(page, fresh.email, fresh.password);
    const dialog = changePasswordDialog(page);
    await expect(dialog).toBeVisible();
    const surface = await boxOf(page.locator('.fui-DialogSurface'));
    for (const button of [passwordFields(page).submit, passwordFields(page).cancel]) {
      const box = await boxOf(button);
      expect((await clipped(button)).x, `${await button.innerText()} at ${size.width}px`).toBeLessThanOrEqual(0);
      expect(inside(box, surface), `${await button.innerText()} inside the dialog at ${size.width}px`).toBe(true);
      expect(box.x + box.width).toBeLessThanOrEqual(size.width);
    }
    await shot(page, `layout-change-password-${size.width}`);
  }
});

test("the 'Suggests: Remove' badge stays within its cell, at 1280 and 390 px", async ({ browser, page, request }) => {
  await ensureAdminSession(request);
  await openFreshPeriod(request);
  const reviewer = await createActiveUser(request, { role: 'reviewer', firstName: 'Lay', lastName: `Badge${tag}` });
  await createAssignmentRest(request, { reviewerId: reviewer.user.id, criteriaType: 'user_id', criteriaValue: USER });
  const revContext = await browser.newContext({ viewport: WIDE });
  const rev = await revContext.newPage();
  await signInThroughForm(rev, reviewer.email, reviewer.password);
  await expect(rev.getByRole('heading', { name: 'Risk Management Dashboard' })).toBeVisible();
  await signInAsAdmin(page, request);
  // Both rows retained with a mitigating control, by the reviewer and by the administrator: the
  // longest decision beside the recommendation.
  const later = new Date(Date.now() + 90 * 86_400_000).toISOString().slice(0, 10);
  const ids = ((await (await request.get(`/api/risks?search=${USER}`)).json()) as { risks: { id: number }[] }).risks.map((r) => r.id);
  expect(ids).toHaveLength(2);
  const mitigated = {
    decisions: ids.map((id) => ({
      riskDefinitionId: id,
      decision: 'retain_mitigated',
      mitigationControl: 'MC-E2E-DUAL-APPROVAL',
      mitigationExpiresAt: later,
      comments: 'Dual approval',
    })),
  };
  expect((await request.post('/api/reviews/decisions', { data: mitigated })).ok()).toBe(true);
  expect((await rev.request.post('/api/reviews/decisions', { data: mitigated })).ok()).toBe(true);
  const screens: [Page, string, string][] = [
    [rev, '/risk-review', 'Assigned risks'],
    [page, `/risks?search=${USER}`, 'Risks'],
  ];
  for (const [p, path, table] of screens) {
    await p.goto(path);
    const rows = p
      .getByRole('table', { name: table, exact: true })
      .locator('tbody tr')
      .filter({ hasText: `Layla Layout ${tag}` });
    await expect(rows).toHaveCount(2);
    for (const size of WIDTHS) {
      await p.setViewportSize(size);
      const hint = rows.first().getByTestId('recommendation');
      const badge = hint.getByText('Suggests: Remove', { exact: true });
      const cell = rows
        .first()
        .getByRole('cell')
        .filter({ has: p.getByText('Suggests: Remove', { exact: true }) });
      const where = `${path} at ${size.width}px`;
      expect(inside(await boxOf(badge), await boxOf(cell)), `the badge inside its cell, ${where}`).toBe(true);
      expect(inside(await boxOf(badge), await boxOf(hint)), `the badge inside the recommendation, ${where}`).toBe(true);
      expect((await clipped(badge)).x, `the badge's text, ${where}`).toBeLessThanOrEqual(0);
      await shot(p, `layout-recommendation-${table.replace(' ', '-')}-${size.width}`);
    }
  }
  await revContext.close();
});

test('a long user name stays clear of the role badge in the user list and the sidebar', async ({ page, request }) => {
  await ensureAdminSession(request);
  const long = await createActiveUser(request, { role: 'admin', firstName: 'Maximiliana-Konstantina', lastName: `Wolfeschlegelsteinhausenbergerdorff${tag}` });
  await signInAsAdmin(page, request);
  await page.goto('/users');
  const row = page.getByRole('table', { name: 'Users' }).getByRole('row').filter({ hasText: long.email });
  const name = row.getByText(`Maximiliana-Konstantina Wolfeschlegelsteinhausenbergerdorff${tag}`);
  const role = row.getByText('Administrator', { exact: true });
  for (const size of WIDTHS) {
    await page.setViewportSize(size);
    const where = `/users at ${size.width}px`;
    expect(overlap(await boxOf(name), await boxOf(role)), `name and role badge, ${where}`).toBe(false);
    expect(inside(await boxOf(name), await boxOf(row.getByRole('cell').first())), `the name inside its cell, ${where}`).toBe(true);
    await shot(page, `layout-users-${size.width}`);
  }

  // The same user signed in: the sidebar's name and role do not run into each other or past the sidebar.
  await page.setViewportSize(WIDE);
  await page.getByRole('button', { name: 'Sign Out' }).click();
  await signInThroughForm(page, long.email, long.password);
  await expect(page.getByRole('heading', { name: 'Risk Management Dashboard' })).toBeVisible();
  const aside = page.locator('aside');
  const sideName = aside.getByText(`Maximiliana-Konstantina Wolfeschlegelsteinhausenbergerdorff${tag}`);
  const sideRole = aside.getByText('Administrator', { exact: true });
  expect(overlap(await boxOf(sideName), await boxOf(sideRole))).toBe(false);
  expect(inside(await boxOf(sideName), await boxOf(aside))).toBe(true);
  await shot(page, 'layout-sidebar-1280');
});

test('at 390 px the Risk Review tab strip keeps the selected tab on screen', async ({ page, request }) => {
  await signInAsAdmin(page, request);
  await page.goto('/risk-review');
  const strip = page.getByRole('tablist', { name: 'Risk review views' });
  await page.setViewportSize(PHONE);
  for (const name of ['Reviewer Status', 'Manage Assignments', 'Risk Overview']) {
    const tab = strip.getByRole('tab', { name });
    await tab.click();
    await expect(tab).toHaveAttribute('aria-selected', 'true');
    await expect.poll(async () => inside(await boxOf(tab), { x: 0, y: 0, ...PHONE }), { message: `${name} on screen` }).toBe(true);
  }
  // Opened at its address, and after the window narrows.
  await page.setViewportSize(WIDE);
  await page.goto('/risk-review?tab=status');
  await page.setViewportSize(PHONE);
  const status = strip.getByRole('tab', { name: 'Reviewer Status' });
  await expect(status).toHaveAttribute('aria-selected', 'true');
  await expect.poll(async () => inside(await boxOf(status), { x: 0, y: 0, ...PHONE }), { message: 'Reviewer Status on screen' }).toBe(true);
  const stripBox = await boxOf(strip);
  expect(stripBox.x + stripBox.width).toBeLessThanOrEqual(PHONE.width);
  await shot(page, 'layout-risk-review-tabs-390');
});

test("the Purge buttons look destructive, not like the screen's primary action", async ({ page, request }) => {
  await signInAsAdmin(page, request);
  await page.goto('/admin-settings');
  await expect(page.getByRole('heading', { name: 'Admin Settings', level: 1 })).toBeVisible();
  const red = await tokenColour(page, 'colorPaletteRedBackground3');
  expect(red).not.toBe(await tokenColour(page, 'colorBrandBackground'));
  expect(red).not.toBe('rgba(0, 0, 0, 0)');
  const purge = page.getByRole('button', { name: 'Purge All Risk Data' });
  expect(await purge.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(red);
  await purge.click();
  const confirm = page.getByRole('button', { name: 'Yes, Purge All Data' });
  expect(await confirm.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(red);
  await expect(page.getByRole('button', { name: 'Cancel' })).toBeVisible();
  await shot(page, 'layout-purge-1280');
  // Cancel: nothing is purged.
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('button', { name: 'Purge All Risk Data' })).toBeVisible();
});

/** Tab once: 'Skip to content' takes focus (not a toast's Dismiss button), and Enter moves focus into the screen. */
async function expectSkipLinkFirst(page: Page, where: string): Promise<void> {
  await page.keyboard.press('Tab');
  const focused = await page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent ?? '');
  expect(focused, `the first Tab stop ${where}`).toBe('Skip to content');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('main')).toBeFocused();
}

test("after sign-in 'Skip to content' is the first Tab stop, before the toast's Dismiss button", async ({ page, request }) => {
  await ensureAdminSession(request);
  for (const size of WIDTHS) {
    await page.setViewportSize(size);
    await page.goto('/internal-login');
    await page.getByLabel('Email').fill(ADMIN_EMAIL);
    await page.getByLabel('Password').fill(ADMIN_CHANGED_PASSWORD);
    await page.getByLabel('Password').press('Enter');
    await expect(page.getByRole('heading', { name: 'Risk Management Dashboard' })).toBeVisible();
    await expect(toast(page, 'Login Successful')).toBeVisible();
    await expectSkipLinkFirst(page, `after sign-in at ${size.width}px`);
    await page.context().clearCookies();
  }

  // A first sign-in: the forced Change Password dialog, then the page with 'Password Updated'.
  const fresh = await createUser(request, { role: 'reviewer', firstName: 'Lay', lastName: `Keyboard${tag}` });
  await signInThroughForm(page, fresh.email, fresh.password);
  const fields = passwordFields(page);
  await fields.current.fill(fresh.password);
  await fields.next.fill('Layout#Pass9');
  await fields.confirm.fill('Layout#Pass9');
  await fields.confirm.press('Enter');
  await expect(page.getByRole('heading', { name: 'Risk Management Dashboard' })).toBeVisible();
  await expect(toast(page, 'Password Updated')).toBeVisible();
  await expectSkipLinkFirst(page, 'after the forced password change');
});
