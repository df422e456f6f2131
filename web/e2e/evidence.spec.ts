import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { createActiveUser, ensureAdminSession, signInAsAdmin } from './helpers';
import { closeActivePeriod, createAssignmentRest, openFreshPeriod, removeAllAndApproveRest, uniqueName } from './review-helpers';

test('a closed period’s evidence and remediation list download from the Reports page', async ({ page, request }) => {
  await ensureAdminSession(request);
  const reviewer = await createActiveUser(request, { role: 'reviewer', firstName: 'Eve', lastName: 'Evidence' });
  await createAssignmentRest(request, { reviewerId: reviewer.user.id, criteriaType: 'user_id', criteriaValue: 'U1007' });
  const period = await openFreshPeriod(request, uniqueName('Evidence period'));
  // The reviewer removes every role of U1007 and submits; the administrator approves and closes the period.
  await removeAllAndApproveRest(request, reviewer);
  await closeActivePeriod(request);

  await signInAsAdmin(page, request);
  await page.getByRole('link', { name: 'Reports' }).click();
  await expect(page.getByRole('heading', { name: 'Audit Evidence & Remediation' })).toBeVisible();
  await page.getByLabel('Review period').selectOption({ label: `${period.name} (Closed)` });

  const [xlsx] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download Evidence (XLSX)' }).click()]);
  expect(xlsx.suggestedFilename()).toMatch(/^evidence-.*\.xlsx$/);
  // An XLSX is a zip archive.
  expect(
    fs
      .readFileSync((await xlsx.path())!)
      .subarray(0, 2)
      .toString(),
  ).toBe('PK');
  await expect(page.getByText('Evidence has been downloaded', { exact: true })).toBeVisible();

  const [csv] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download Remediation List (CSV)' }).click()]);
  expect(csv.suggestedFilename()).toMatch(/^remediation-.*\.csv$/);
  const text = fs.readFileSync((await csv.path())!, 'utf8');
  expect(text).toContain('Review Period,User ID,User Name,System,Role/Profile');
  const lines = text.trim().split('\r\n').slice(1);
  expect(lines.length).toBeGreaterThan(0);
  expect(lines.every((l) => l.startsWith(`${period.name},U1007,`))).toBe(true);
  expect(lines.every((l) => l.includes(',open,'))).toBe(true);
});
