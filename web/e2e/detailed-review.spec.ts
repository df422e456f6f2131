import { expect, test, type Page } from '@playwright/test';
import { ensureAdminSession, signInAsAdmin, toast } from './helpers';
import { closeActivePeriod, openFreshPeriod, shot } from './review-helpers';

// fixtures/risk-rows.json: Hugo Silva (U1008, no group) has 8 rows; under risk F001 one row of composite role
// CR_FIN_AP (rule 0201: HIGH), under F002 one row of CR_FIN_TREASURY. The decisions here are the
// administrator's, in a period this spec opens, so other specs' decisions do not meet them.

const SAVE_OPERATION = 'CompositeViewDecisionsSaveMutation';

const userHeader = (page: Page, name: string, id: string) => page.getByRole('button', { name: new RegExp(`^${name} \\(${id}\\):`) });
const groupHeader = (page: Page, riskId: string) => page.getByRole('button', { name: new RegExp(`^Risk ${riskId}:`) });
const roleCard = (page: Page, role: string) => page.getByRole('group', { name: `Composite role ${role}` });

async function openHugo(page: Page) {
  await page.goto('/risk-review?tab=detailed');
  await expect(page.getByRole('tab', { name: 'Detailed Review' })).toHaveAttribute('aria-selected', 'true');
  const hugo = userHeader(page, 'Hugo Silva', 'U1008');
  await expect(hugo).toBeVisible();
  await hugo.click();
  await expect(hugo).toHaveAttribute('aria-expanded', 'true');
  return hugo;
}

test('Detailed Review: users, risk groups, composite roles with authorization details; Remove saved after the debounce, batched, kept', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  await ensureAdminSession(request);
  await openFreshPeriod(request);
  await signInAsAdmin(page, request);

  const saves: number[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().endsWith('/graphql') && (r.postData() ?? '').includes(`"operationName":"${SAVE_OPERATION}"`)) saves.push(Date.now());
  });

  const hugo = await openHugo(page);
  await expect(hugo).toHaveAccessibleName(/8 risks, 6 high, 0 of 8 decided$/);
  await expect(page.getByText('Review Period Closed', { exact: true })).toHaveCount(0);

  // The risk groups: id, description, total, RISK / NO RISK.
  const f001 = groupHeader(page, 'F001');
  await expect(f001).toContainText('Create vendor and approve payment');
  await expect(f001).toContainText('1 total');
  await expect(f001).toContainText('RISK');
  await expect(groupHeader(page, 'A002')).toContainText('NO RISK');
  await f001.click();

  // A composite role: HIGH badge, conflicts, retain by default, its Authorization Details and lists.
  const ap = roleCard(page, 'CR_FIN_AP');
  await expect(ap).toContainText('Finance accounts payable');
  await expect(ap).toContainText('HIGH');
  await expect(ap).toContainText('1 conflict');
  await expect(ap).toContainText('Not decided yet');
  await expect(ap.getByRole('button', { name: 'Retain' })).toHaveAttribute('aria-pressed', 'true');
  await expect(ap.getByRole('button', { name: 'Remove' })).toHaveAttribute('aria-pressed', 'false');
  const details = ap.getByRole('table', { name: 'Authorization details of CR_FIN_AP' });
  await expect(details.getByRole('columnheader')).toHaveText(['Auth Object', 'Field', 'Value From', 'Value To', 'System', 'Business Process', 'Rows']);
  await expect(details.locator('tbody tr')).toHaveCount(1);
  await expect(details.locator('tbody tr').first()).toContainText('SAP ERP');
  await ap.getByRole('button', { name: 'Rule IDs (1)' }).click();
  await expect(ap.getByText('0201', { exact: true })).toBeVisible();
  await expect(ap.getByRole('button', { name: 'Functions (0)' })).toBeVisible();
  await shot(page, 'detailed-review-1280');

  // A second group open, then two changes in quick succession: one save, 2 s after the last.
  await groupHeader(page, 'F002').click();
  const treasury = roleCard(page, 'CR_FIN_TREASURY');
  await expect(treasury.getByRole('button', { name: 'Remove' })).toBeEnabled();
  await ap.getByRole('button', { name: 'Remove' }).click();
  await expect(ap.getByRole('button', { name: 'Remove' })).toHaveAttribute('aria-pressed', 'true');
  await expect(ap.getByRole('button', { name: 'Retain' })).toHaveAttribute('aria-pressed', 'false');
  await expect(ap).toContainText('Unsaved change');
  const clicked = Date.now();
  await treasury.getByRole('button', { name: 'Remove' }).click();
  await expect(toast(page, 'Decision Submitted')).toContainText('2 composite role decisions saved (2 risks)');
  expect(saves).toHaveLength(1);
  expect(saves[0]! - clicked).toBeGreaterThanOrEqual(1900);
  await expect(ap).toContainText('Saved: Remove');
  await expect(ap.getByRole('img', { name: 'All decided' })).toBeVisible();
  await expect(f001).toHaveAccessibleName(/all decided$/);
  await expect(hugo).toHaveAccessibleName(/2 of 8 decided$/);

  // Kept after a reload.
  await page.reload();
  await openHugo(page);
  await expect(userHeader(page, 'Hugo Silva', 'U1008')).toHaveAccessibleName(/2 of 8 decided$/);
  await groupHeader(page, 'F001').click();
  const again = roleCard(page, 'CR_FIN_AP');
  await expect(again.getByRole('button', { name: 'Remove' })).toHaveAttribute('aria-pressed', 'true');
  await expect(again).toContainText('Saved: Remove');

  // The search narrows the users; nothing found says so.
  const search = page.getByPlaceholder('Search users by name or ID...');
  await search.fill('Grace');
  await expect(userHeader(page, 'Grace Liu', 'U1007')).toBeVisible();
  await expect(userHeader(page, 'Hugo Silva', 'U1008')).toHaveCount(0);
  await search.fill('no such user zzz');
  await expect(page.getByText('No risk data found', { exact: true })).toBeVisible();

  // With no active period the buttons are locked and the banner says why.
  await closeActivePeriod(request);
  await openHugo(page);
  await expect(page.getByText('Review Period Closed', { exact: true })).toBeVisible();
  await groupHeader(page, 'F001').click();
  await expect(roleCard(page, 'CR_FIN_AP').getByRole('button', { name: 'Remove' })).toBeDisabled();
  await expect(roleCard(page, 'CR_FIN_AP').getByRole('button', { name: 'Retain' })).toBeDisabled();

  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'detailed-review-390');
});
