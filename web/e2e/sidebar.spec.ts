import { expect, test } from '@playwright/test';
import { createActiveUser, ensureAdminSession, signInAsAdmin, signInThroughForm, toast } from './helpers';

const ADMIN_ENTRIES = [
  'Dashboard',
  'Data Upload',
  'Risk Review',
  'Assignments',
  'Reports',
  'User Management',
  'Notifications',
  'Risk Simulation',
  'Access Analysis',
  'Admin Settings',
];

test('an administrator sees every administrator entry, the brand and their role', async ({ page, request }) => {
  await signInAsAdmin(page, request);
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  await expect(nav.getByRole('link')).toHaveText(ADMIN_ENTRIES);
  await expect(page.getByText('GRC Platform')).toBeVisible();
  await expect(page.getByText('Risk Management', { exact: true })).toBeVisible();
  await expect(page.getByText('Administrator', { exact: true }).last()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign Out' })).toBeVisible();

  await nav.getByRole('link', { name: 'User Management' }).click();
  await expect(page).toHaveURL(/\/users$/);
  await expect(page.getByRole('heading', { name: 'User Management', level: 1 })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'User Management' })).toHaveAttribute('aria-current', 'page');

  // Collapsing keeps the entries reachable by name.
  await page.getByRole('button', { name: 'Collapse sidebar' }).click();
  await expect(page.getByRole('button', { name: 'Expand sidebar' })).toBeVisible();
  await expect(page.getByText('GRC Platform')).toBeHidden();
  await nav.getByRole('link', { name: 'Reports' }).click();
  await expect(page.getByRole('heading', { name: 'Reports', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Expand sidebar' }).click();
  await expect(page.getByText('GRC Platform')).toBeVisible();
});

test('a reviewer sees only Dashboard, Risk Review and Reports, and is kept off administrator pages', async ({ page, request }) => {
  await ensureAdminSession(request);
  const reviewer = await createActiveUser(request, { role: 'reviewer', firstName: 'Rita', lastName: 'Reviewer' });
  await signInThroughForm(page, reviewer.email, reviewer.password);
  await expect(page.getByRole('heading', { name: 'Risk Management Dashboard' })).toBeVisible();

  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  await expect(nav.getByRole('link')).toHaveText(['Dashboard', 'Risk Review', 'Reports']);
  await expect(page.getByText('Rita Reviewer', { exact: true })).toBeVisible();
  await expect(page.getByText('Reviewer', { exact: true })).toBeVisible();
  await expect(page.getByText('RR', { exact: true })).toBeVisible();

  // SPEC §6: 'Access Denied', then back to / after one second.
  await page.goto('/users');
  await expect(toast(page, 'Access Denied')).toContainText('Only administrators can access this page');
  await expect(page).toHaveURL(/\/$/, { timeout: 5000 });
  await expect(page.getByRole('heading', { name: 'Risk Management Dashboard' })).toBeVisible();

  // Reviewers may open their assigned risks.
  await page.goto('/assigned-risks');
  await expect(page.getByRole('heading', { name: 'My Assigned Risks', level: 1 })).toBeVisible();
});

test('under 768 px the sidebar is a slide-over opened by a hamburger button', async ({ page, request }) => {
  await signInAsAdmin(page, request);
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeHidden();

  await page.getByRole('button', { name: 'Open navigation' }).click();
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  await expect(nav).toBeVisible();
  await nav.getByRole('link', { name: 'Reports' }).click();
  await expect(page.getByRole('heading', { name: 'Reports', level: 1 })).toBeVisible();
  await expect(nav).toBeHidden();

  await page.getByRole('button', { name: 'Open navigation' }).click();
  await page.getByRole('button', { name: 'Close navigation' }).click();
  await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeHidden();
});
