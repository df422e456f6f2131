import { expect, test } from '@playwright/test';
import { appendCsvRest, createActiveUser, ensureAdminSession, signInAsAdmin, signInThroughForm, toast } from './helpers';
import { createAssignmentRest, openFreshPeriod, pickOption as pick, shot } from './review-helpers';

// Real uploaded rows (a CSV through POST /api/upload), tagged per run. The user holds an SoD risk S900 of two
// functions: AP01 only through composite role AP (rule 0301, high-risk), AP02 through PAY (two rows);
// and a low risk S901 through OTHER. Removing OTHER leaves S900 as it is (MATCH); removing AP takes one side
// of the conflict away (NO MATCH, 3 -> 0, the risk resolved).
const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`.toUpperCase();
const USER = `SIM${tag}`;
const NAME = `Simone Sim ${tag}`;
const AP = `ZC_AP_${tag}`;
const PAY = `ZC_PAY_${tag}`;
const OTHER = `ZC_OTHER_${tag}`;
const HEADER =
  'User ID,User Name,User Group,Access Risk ID,Risk Description,Risk Level,Rule ID,Function,Function Description,System,Role/Profile,Composite/Business Role';
const ROWS = [
  [USER, NAME, 'FIN', 'S900', 'Create and pay vendor', 'High', '0301', 'AP01', 'Vendor create', 'SAP ERP', 'Z_AP', AP],
  [USER, NAME, 'FIN', 'S900', 'Create and pay vendor', 'High', '0102', 'AP02', 'Vendor pay', 'SAP ERP', 'Z_PAY', PAY],
  [USER, NAME, 'FIN', 'S900', 'Create and pay vendor', 'High', '0102', 'AP02', 'Vendor pay', 'SAP ERP', 'Z_PAY2', PAY],
  [USER, NAME, 'FIN', 'S901', 'Ledger posting', 'Low', '0101', 'GL01', 'Post', 'SAP ERP', 'Z_GL', OTHER],
];

test.beforeAll(async ({ request }) => {
  await ensureAdminSession(request);
  await appendCsvRest(request, { name: `simulation-${tag}.csv`, header: HEADER, lines: ROWS.map((r) => r.join(',')) }, { skipDuplicates: true });
});

test('an administrator simulates on uploaded rows: MATCH for an unrelated role, NO MATCH for the role granting one side of the conflict', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  await signInAsAdmin(page, request);
  await page.getByRole('link', { name: 'Risk Simulation' }).click();
  await expect(page.getByRole('heading', { name: 'Risk Simulation & Analysis', level: 1 })).toBeVisible();

  await page.getByRole('button', { name: 'Run Risk Simulation' }).click();
  await expect(page.getByText('Please select user, risk, and configure scenarios')).toBeVisible();

  await pick(page, 'User', tag.toLowerCase(), USER);
  await page.getByRole('button', { name: 'Add Scenario' }).click();
  await expect(toast(page, 'Select Risk')).toBeVisible();
  await pick(page, 'Risk', 'pay vendor', 'S900');

  await page.getByRole('button', { name: 'Add Scenario' }).click();
  const role = page.getByRole('combobox', { name: 'Scenario 1 role' });
  await expect(role).toHaveValue('SCENARIO_ROLE_1');
  await pick(page, 'Scenario 1 role', 'OTHER', OTHER);
  const remove = page.getByRole('switch', { name: 'Scenario 1: remove the role' });
  await expect(remove).not.toBeChecked();
  await remove.check();

  await page.getByRole('button', { name: 'Run Risk Simulation' }).click();
  await expect(toast(page, 'Simulation Complete')).toContainText('MATCH: 3 of 3 access items remain.');
  await expect(page.getByLabel('Result: MATCH')).toBeVisible();
  await expect(page.getByText('Original access items: 3')).toBeVisible();
  await expect(page.getByText('Simulated access items: 3')).toBeVisible();
  await expect(page.getByRole('table', { name: 'Simulated Access' }).locator('tbody tr')).toHaveCount(3);

  await page.getByRole('button', { name: 'Back to Setup' }).click();
  await pick(page, 'Scenario 1 role', 'AP_', AP);
  await page.getByRole('button', { name: 'Run Risk Simulation' }).click();
  await expect(toast(page, 'Simulation Complete')).toContainText('NO MATCH: 0 of 3 access items remain.');
  await expect(page.getByLabel('Result: NO MATCH')).toBeVisible();
  await expect(page.getByText('Original access items: 3')).toBeVisible();
  await expect(page.getByText('Simulated access items: 0')).toBeVisible();
  await expect(page.getByText('Risk resolved: AP01 is no longer granted by any kept role.')).toBeVisible();
  await expect(page.getByRole('table', { name: 'Original Access' }).getByText('Removed')).toHaveCount(3);
  await shot(page, 'risk-simulation-result-1280');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'risk-simulation-result-390');
  await page.setViewportSize({ width: 1280, height: 900 });

  // The runs are kept, with who ran them.
  await page.getByRole('button', { name: 'Back to Setup' }).click();
  await expect(page.getByRole('list', { name: 'Recent simulations' }).getByRole('listitem').first()).toContainText(`${USER} · S900 · NO MATCH`);

  // The role-wide what-if: removing AP from everyone.
  await pick(page, 'Composite role', AP, AP);
  await page.getByRole('button', { name: 'Run What-If' }).click();
  await expect(page.getByText(`Removing ${AP}: 1 user affected, 1 risk lost across 1 user, 1 user would turn green.`)).toBeVisible();
});

test('a reviewer runs Risk Analysis in the composite-role view: RISK, then SAFE once the high-risk role is set to remove', async ({ page, request }) => {
  test.setTimeout(120_000);
  await ensureAdminSession(request);
  await openFreshPeriod(request);
  const reviewer = await createActiveUser(request, { role: 'reviewer', prefix: 'analysis' });
  await createAssignmentRest(request, { reviewerId: reviewer.user.id, criteriaType: 'user_id', criteriaValue: USER });
  await signInThroughForm(page, reviewer.email, reviewer.password);
  await expect(page.getByRole('heading', { name: 'Risk Management Dashboard' })).toBeVisible();
  await page.goto('/assigned-risks');
  await page.getByRole('tab', { name: 'By Composite Role' }).click();

  const analyse = page.getByRole('button', { name: `Risk Analysis for ${NAME}` });
  await analyse.click();
  await expect(toast(page, 'Baseline vs Simulation Analysis Complete')).toContainText(`${NAME}: RED. 1 of 2 risk IDs RED.`);
  await expect(page.getByText('RISK', { exact: true })).toBeVisible();
  await expect(page.getByRole('img', { name: 'Analysis status: red' })).toBeVisible();

  await page.getByRole('button', { name: new RegExp(`^${NAME} \\(${USER}\\):`) }).click();
  await page.getByRole('button', { name: /^Risk S900:/ }).click();
  await page
    .getByRole('group', { name: `Composite role ${AP}` })
    .getByRole('button', { name: 'Remove' })
    .click();
  await analyse.click();
  await expect(toast(page, 'Baseline vs Simulation Analysis Complete')).toContainText(`${NAME}: GREEN. 0 of 2 risk IDs RED.`);
  await expect(page.getByText('SAFE', { exact: true })).toBeVisible();
  await expect(page.getByRole('img', { name: 'Analysis status: green' })).toBeVisible();
  await shot(page, 'composite-view-analysis-1280');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'composite-view-analysis-390');
});
