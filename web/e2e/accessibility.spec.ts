import { expect, test, type Locator, type Page } from '@playwright/test';
import { changePasswordDialog, createActiveUser, createUser, ensureAdminSession, sendNotificationRest, signInAsAdmin, signInThroughForm } from './helpers';
import { createAssignmentRest, openFreshPeriod } from './review-helpers';
import { seriousViolations } from './axe';

// axe-core on every screen and the main dialogs (web/e2e/axe.ts).

/** Visits a screen through the address bar and waits for its heading. */
async function visit(page: Page, path: string, heading: string): Promise<void> {
  await page.goto(path);
  // The signed-in layout's <main> (the 404 page has one of its own while the session loads, replaced then).
  await expect(page.locator('main#main-content')).toBeAttached();
  await expect(page.getByRole('heading', { level: 1, name: heading, exact: true })).toBeVisible();
}

/**
 * Opens a dialog with its button on the current screen, checks it, closes it
 * with Escape and checks that focus went back into the screen, not to <body>.
 */
async function checkDialog(page: Page, button: string | Locator, where: string): Promise<string[]> {
  await (typeof button === 'string' ? page.getByRole('button', { name: button, exact: true }).first() : button).click();
  const dialog = page.locator('.fui-DialogSurface');
  await expect(dialog).toBeVisible();
  const found = await seriousViolations(page, where, '.fui-DialogSurface');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect
    .poll(() => page.evaluate(() => document.querySelector('main')?.contains(document.activeElement) ?? false), {
      message: `${where}: focus back in the screen`,
    })
    .toBe(true);
  return found;
}

// Some twenty axe runs in five tests; each a few seconds on an idle machine,
// with room for a loaded CI runner.
test.describe.configure({ timeout: 120_000 });

const SCREENS: [path: string, heading: string, dialogButton?: string][] = [
  ['/', 'Risk Management Dashboard'],
  ['/upload', 'Data Upload'],
  ['/risks', 'Risk Review'],
  ['/assignments', 'Risk Assignment Management', 'Create Assignment'],
  ['/reports', 'Reports'],
  ['/users', 'User Management', 'Add User'],
  ['/notifications', 'Notifications', 'Send Notification'],
  ['/risk-simulation', 'Risk Simulation & Analysis'],
  ['/all-reviews', 'All Review Decisions'],
  ['/admin-settings', 'Admin Settings'],
  ['/api-tokens', 'API Tokens', 'Create Token'],
  ['/no-such-page', '404 Page Not Found'],
];

test('the signed-out screens and the forced Change Password dialog pass axe', async ({ page, request }) => {
  const found: string[] = [];
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'GRC Risk Management' })).toBeVisible();
  found.push(...(await seriousViolations(page, 'landing')));
  await page.goto('/internal-login');
  await expect(page.getByRole('heading', { name: 'Internal User Login' })).toBeVisible();
  found.push(...(await seriousViolations(page, '/internal-login')));
  // The forced 'Change Password' dialog of a first sign-in.
  await ensureAdminSession(request);
  const fresh = await createUser(request, { role: 'reviewer' });
  await signInThroughForm(page, fresh.email, fresh.password);
  await expect(changePasswordDialog(page)).toBeVisible();
  found.push(...(await seriousViolations(page, "the forced 'Change Password' dialog", '.fui-DialogSurface')));
  expect(found, found.join('\n')).toEqual([]);
});

// The administrator's screens in two halves, so that each test stays short.
for (const [half, screens] of [
  ['first', SCREENS.slice(0, 6)],
  ['second', SCREENS.slice(6)],
] as const) {
  test(`the administrator screens pass axe (${half} half)`, async ({ page, request }) => {
    const found: string[] = [];
    await signInAsAdmin(page, request);
    if (half === 'first') {
      await openFreshPeriod(request);
      // 'Skip to content' is the first stop of the keyboard and moves focus into the screen.
      await page.keyboard.press('Tab');
      await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
      await page.keyboard.press('Enter');
      await expect(page.getByRole('main')).toBeFocused();
    }
    for (const [path, heading] of screens) {
      await visit(page, path, heading);
      found.push(...(await seriousViolations(page, path, path === '/' ? undefined : 'main')));
    }
    expect(found, found.join('\n')).toEqual([]);
  });
}

test('the administrator dialogs pass axe', async ({ page, request }) => {
  const found: string[] = [];
  await signInAsAdmin(page, request);
  for (const [path, heading, dialogButton] of SCREENS) {
    if (!dialogButton) continue;
    await visit(page, path, heading);
    found.push(...(await checkDialog(page, dialogButton, `${path} '${dialogButton}' dialog`)));
  }
  expect(found, found.join('\n')).toEqual([]);
});

// Every other dialog of the administrator: the row actions' confirmations and forms.
test('the administrator row and action dialogs pass axe', async ({ page, request }) => {
  const found: string[] = [];
  await signInAsAdmin(page, request);
  await openFreshPeriod(request);
  const reviewer = await createActiveUser(request, { role: 'reviewer', firstName: 'Dialog', lastName: 'Reviewer' });
  const assignment = await createAssignmentRest(request, { reviewerId: reviewer.user.id, criteriaType: 'system', criteriaValue: 'Workday' });
  await sendNotificationRest(request, { title: 'Axe notice', message: 'A notice to delete.', targetType: 'specific', targetUserId: reviewer.user.id });
  const dialogs: [path: string, heading: string, opener: (page: Page) => Locator | Promise<Locator>, name: string][] = [
    ['/', 'Risk Management Dashboard', (p) => p.getByRole('button', { name: 'Close Period' }), 'Close Review Period'],
    ['/users', 'User Management', (p) => p.getByRole('button', { name: 'Edit', exact: true }).first(), 'Edit User'],
    ['/users', 'User Management', (p) => p.getByRole('button', { name: 'Reset Password', exact: true }).first(), 'Reset Password'],
    ['/assignments', 'Risk Assignment Management', (p) => p.getByRole('button', { name: `Delete assignment ${assignment.name}` }), 'Delete Assignment'],
    ['/notifications', 'Notifications', (p) => p.getByRole('button', { name: 'Delete notification' }).first(), 'Delete Notification'],
    [
      '/risks',
      'Risk Review',
      async (p) => {
        await p.getByRole('table').first().locator('tbody tr').first().getByRole('checkbox').check();
        return p.getByRole('button', { name: 'Mitigate Selected (1)' });
      },
      'Mitigate Selected',
    ],
    ['/risks', 'Risk Review', (p) => p.getByRole('button', { name: /^Decide all \d+ matching$/ }), 'Decide all matching'],
  ];
  for (const [path, heading, opener, name] of dialogs) {
    if (new URL(page.url()).pathname !== path) await visit(page, path, heading);
    found.push(...(await checkDialog(page, await opener(page), `${path} '${name}' dialog`)));
  }
  // Closing the period and creating the next one: the dialog of 'Create New Review Period'.
  await request.put(`/api/review-periods/${(await (await request.get('/api/review-periods/active')).json()).id}/close`);
  await visit(page, '/', 'Risk Management Dashboard');
  found.push(...(await checkDialog(page, 'Create New Review Period', "/ 'Create New Review Period' dialog")));
  expect(found, found.join('\n')).toEqual([]);
});

test("a reviewer's screens pass axe", async ({ page, request }) => {
  const found: string[] = [];
  await ensureAdminSession(request);
  const reviewer = await createActiveUser(request, { role: 'reviewer', firstName: 'Axe', lastName: 'Reviewer' });
  await createAssignmentRest(request, { reviewerId: reviewer.user.id, criteriaType: 'user_group', criteriaValue: 'Treasury' });
  await signInThroughForm(page, reviewer.email, reviewer.password);
  await expect(page.getByRole('heading', { name: 'Risk Management Dashboard' })).toBeVisible();
  // The 'High Risk Users' card has its trend text (the Treasury rows were loaded today).
  await expect(page.getByRole('group', { name: 'High Risk Users', exact: true })).toContainText(/\+\d+ new in the last 30 days/);
  found.push(...(await seriousViolations(page, 'reviewer dashboard')));
  await visit(page, '/assigned-risks', 'My Assigned Risks');
  found.push(...(await seriousViolations(page, 'reviewer /assigned-risks', 'main')));

  // The composite-role view, opened down to a role.
  await page.getByRole('tab', { name: 'By Composite Role' }).click();
  await page.getByRole('button', { name: /^Grace Liu \(U1007\):/ }).click();
  await page.getByRole('button', { name: /^Risk F002:/ }).click();
  const role = page.getByRole('group', { name: 'Composite role CR_FIN_TREASURY' });
  // Its two permission rows read the same (the fixture gives them no
  // authorization fields), so they are shown once with their count.
  const details = role.getByRole('table', { name: /^Authorization details of / }).locator('tbody tr');
  await expect(details).toHaveCount(1);
  await expect(details.first().getByRole('cell').last()).toHaveText('2');
  found.push(...(await seriousViolations(page, 'reviewer composite view', 'main')));
  // The accordion headers' names contain their visible text (WCAG 2.5.3, label in name).
  const headers = await page.locator('main button[aria-expanded]').evaluateAll((buttons) =>
    buttons.map((b) => ({
      name: (b.getAttribute('aria-label') ?? b.textContent ?? '').replace(/\s+/g, ' '),
      title: ((b as HTMLElement).innerText.split('\n')[0] ?? '').trim(),
    })),
  );
  expect(headers.length).toBeGreaterThan(2);
  for (const h of headers) expect(h.name, `accordion header '${h.title}'`).toContain(h.title);
  expect(found, found.join('\n')).toEqual([]);
});
