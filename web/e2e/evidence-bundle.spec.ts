import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { createActiveUser, ensureAdminSession, signInAsAdmin } from './helpers';
import { createAssignmentRest, openFreshPeriod, removeAllAndApproveRest, uniqueName } from './review-helpers';

test('a closed period’s signed evidence bundle downloads from the Reports page, with how to verify it', async ({ page, request }) => {
  await ensureAdminSession(request);
  const reviewer = await createActiveUser(request, { role: 'reviewer', firstName: 'Bea', lastName: 'Bundle' });
  await createAssignmentRest(request, { reviewerId: reviewer.user.id, criteriaType: 'user_id', criteriaValue: 'U1007' });
  const period = await openFreshPeriod(request, uniqueName('Bundle period'));
  await removeAllAndApproveRest(request, reviewer);

  // The close dialog says whether every row of the uploads is accounted for (the bundle says the same).
  await signInAsAdmin(page, request);
  await page.getByRole('button', { name: 'Close Period' }).click();
  const dialog = page.getByRole('dialog', { name: 'Close Review Period' });
  await expect(dialog.getByText(/^The population (reconciles: every row of the uploads is accounted for\.|does not reconcile)$/)).toBeVisible();
  await dialog.getByRole('button', { name: 'Close Period' }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole('link', { name: 'Reports' }).click();
  await expect(page.getByRole('heading', { name: 'Audit Evidence & Remediation' })).toBeVisible();
  const bundles = page.getByRole('region', { name: 'Signed evidence bundles' });
  const button = bundles.getByRole('button', { name: 'Download Bundle v1 (ZIP)' });
  // The bundle is written within a minute of the close: until then the page says so.
  await expect(async () => {
    await page.goto('/reports');
    await page.getByLabel('Review period').selectOption({ label: `${period.name} (Closed)` });
    await expect(button).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 60_000 });
  await expect(bundles.getByText('npx grc-verify bundle.zip', { exact: true })).toBeVisible();
  await expect(bundles.getByRole('link', { name: 'the public key' })).toHaveAttribute('href', '/.well-known/grc-evidence-key');

  const [zip] = await Promise.all([page.waitForEvent('download'), button.click()]);
  expect(zip.suggestedFilename()).toMatch(/^evidence-bundle-.*-v1\.zip$/);
  expect(
    fs
      .readFileSync((await zip.path())!)
      .subarray(0, 2)
      .toString(),
  ).toBe('PK');
  await expect(page.getByText('Evidence bundle has been downloaded', { exact: true })).toBeVisible();
});
