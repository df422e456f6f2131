import fs from 'node:fs';
import { expect, test, type Locator, type Page } from '@playwright/test';
import JSZip from 'jszip';
import { createActiveUser, ensureAdminSession, signInAsAdmin, signInThroughForm, toast } from './helpers';
import { seriousViolations } from './axe';

// The Access Analysis screens end to end: a small rule set (R1 = posting FB01 with company code
// 1000 + paying F-53) and a system where ALICE holds R1 (latent), BOB holds it and ran both
// transactions (exercised) and CARL can only post (no conflict). Names are tagged per run.
const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`.toUpperCase();
const RULES = `E2E Rules ${tag}`;
const SYSTEM = `E2E-${tag}`;
const BROKEN = `BAD-${tag}`;

type Row = Record<string, string>;

/** A .zip of CSV files, one per table, header row first (as api/test/access builds them). */
async function tablesZip(tables: Record<string, Row[] | string>): Promise<Buffer> {
  const zip = new JSZip();
  for (const [name, rows] of Object.entries(tables)) {
    if (typeof rows === 'string') {
      zip.file(`${name}.csv`, rows);
      continue;
    }
    const header = Object.keys(rows[0] ?? {});
    zip.file(`${name}.csv`, [header, ...rows.map((r) => header.map((h) => r[h] ?? ''))].map((cells) => cells.join(',')).join('\r\n') + '\r\n');
  }
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

// The rule set: R1 = F1 (FB01 with company code 1000 and activity 01) and F2 (F-53, no permission).
const RISK_COLUMNS = { 'Risk Description': 'Post and pay', 'Risk Level': 'High', 'Risk Type': 'S', 'Business Process': 'FI', Status: 'Enabled' };
const FUNCTION = (id: string): Row => ({ 'Function ID': id, 'Function Description': `Function ${id}`, 'Business Process': 'FI', 'Analysis Scope': 'Single' });
const ACTION = (fn: string, action: string): Row => ({
  'Function ID': fn,
  System: '',
  Action: action,
  'Action Description': `Run ${action}`,
  Status: 'Enabled',
});
const PERMISSION = (field: string, value: string): Row => ({
  'Function ID': 'F1',
  System: '',
  Action: 'FB01',
  'Auth Object': 'F_BKPF_BUK',
  Field: field,
  'Value From': value,
  'Value To': '',
  Status: 'Enabled',
});
const rules = {
  risks: [{ 'Access Risk ID': 'R1', ...RISK_COLUMNS }],
  risk_functions: [
    { 'Access Risk ID': 'R1', 'Function ID': 'F1' },
    { 'Access Risk ID': 'R1', 'Function ID': 'F2' },
  ],
  functions: [FUNCTION('F1'), FUNCTION('F2')],
  function_actions: [ACTION('F1', 'FB01'), ACTION('F2', 'F-53')],
  function_permissions: [PERMISSION('BUKRS', '1000'), PERMISSION('ACTVT', '01')],
};

const user = (bname: string, more: Row = {}): Row => ({
  MANDT: '100',
  BNAME: bname,
  CLASS: 'FIN',
  USTYP: 'A',
  UFLAG: '0',
  GLTGV: '00000000',
  GLTGB: '99991231',
  ...more,
});
const assign = (uname: string, role: string): Row => ({ AGR_NAME: role, UNAME: uname, FROM_DAT: '20260101', TO_DAT: '99991231', COL_FLAG: '' });
const grant = (role: string, object: string, auth: string, field: string, low: string): Row => ({
  AGR_NAME: role,
  OBJECT: object,
  AUTH: auth,
  FIELD: field,
  LOW: low,
  HIGH: '',
  DELETED: '',
});
/** Z_POST: FB01 with company code 1000 and activity 01 in one authorization; Z_PAY: F-53. */
const POST_ROLE = [
  grant('Z_POST', 'S_TCODE', 'T-1', 'TCD', 'FB01'),
  grant('Z_POST', 'F_BKPF_BUK', 'BUK1', 'BUKRS', '1000'),
  grant('Z_POST', 'F_BKPF_BUK', 'BUK1', 'ACTVT', '01'),
];
const PAY_ROLE = [grant('Z_PAY', 'S_TCODE', 'T-1', 'TCD', 'F-53')];

const extract: Record<string, Row[] | string> = {
  USR02: [user('ALICE'), user('BOB'), user('CARL')],
  AGR_USERS: [assign('ALICE', 'Z_POST'), assign('ALICE', 'Z_PAY'), assign('BOB', 'Z_POST'), assign('BOB', 'Z_PAY'), assign('CARL', 'Z_POST')],
  AGR_1251: [...POST_ROLE, ...PAY_ROLE],
  USAGE: [
    { BNAME: 'BOB', TCODE: 'FB01', COUNT: '4', LAST_USED: '20260601' },
    { BNAME: 'BOB', TCODE: 'F-53', COUNT: '1', LAST_USED: '20260602' },
  ],
  // No composite roles: the table is there, with its header only.
  AGR_AGRS: 'AGR_NAME,CHILD_AGR\r\n',
};

async function zipFile(name: string, tables: Parameters<typeof tablesZip>[0]) {
  return { name, mimeType: 'application/zip', buffer: await tablesZip(tables) };
}

/** Nothing on the page is wider than the screen (a wide table scrolls in its own box). */
async function expectNoPageSideways(page: Page, where: string): Promise<void> {
  const w = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  expect(w.scroll, `${where}: the page is ${w.scroll}px wide on a ${w.client}px screen`).toBeLessThanOrEqual(w.client);
}

function row(table: Locator, text: string | RegExp): Locator {
  return table.locator('tbody tr').filter({ hasText: text });
}

test.beforeAll(async ({ request }) => {
  await ensureAdminSession(request);
});

test('an administrator uploads a rule set and an extract, runs an analysis and reads its conflicts', async ({ page, request }) => {
  test.setTimeout(180_000);
  await signInAsAdmin(page, request);
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Access Analysis' }).click();
  await expect(page.getByRole('heading', { name: 'Access Analysis', level: 1 })).toBeVisible();

  // Rule sets: two uploads of one name make versions 1 (active) and 2; activating 2 moves the badge.
  const versions = page.getByRole('table', { name: 'Rule set versions' });
  for (const expected of [1, 2]) {
    await page.getByLabel('Name (optional)').fill(RULES);
    await page.getByLabel(/Rule set file/).setInputFiles(await zipFile('rules.zip', rules));
    await page.getByRole('button', { name: 'Upload Rule Set' }).click();
    await expect(toast(page, 'Rule Set Uploaded')).toContainText(`${RULES} version ${expected}: 1 risk, 2 functions.`);
  }
  await expect(row(versions, RULES)).toHaveCount(2);
  // Risks, functions, enabled actions and permissions of each version.
  await expect(row(versions, RULES).first().getByRole('cell')).toContainText([RULES, '2', '1', '2', '2', '2']);
  // Newest first: version 2 waits, version 1 is active.
  await expect(row(versions, RULES).nth(1).getByText('Active', { exact: true })).toBeVisible();
  await expect(row(versions, RULES).first().getByText('Active', { exact: true })).toHaveCount(0);
  await page.getByRole('button', { name: `Activate ${RULES} version 2` }).click();
  await expect(toast(page, 'Rule Set Activated')).toContainText(`${RULES} version 2 is now the active version.`);
  await expect(page.getByRole('button', { name: `Activate ${RULES} version 1` })).toBeVisible();

  // A rule set that is not a .zip is refused before it is sent.
  await page.getByLabel(/Rule set file/).setInputFiles({ name: 'rules.csv', mimeType: 'text/csv', buffer: Buffer.from('a,b\n') });
  await page.getByRole('button', { name: 'Upload Rule Set' }).click();
  await expect(page.getByText('A rule set is a .zip of CSV files.')).toBeVisible();

  // System data: the extract loads (its progress in its row) and shows what it holds.
  const found: string[] = [...(await seriousViolations(page, 'Rule Sets tab', 'main'))];
  // The tabs work by keyboard.
  await page.getByRole('tab', { name: 'Rule Sets' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: 'System Data' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/tab=systems/);
  await page.getByRole('textbox', { name: /^System/ }).fill(SYSTEM);
  await page.getByLabel(/Extract file/).setInputFiles(await zipFile(`${SYSTEM}.zip`, extract));
  await page.getByRole('button', { name: 'Load Extract' }).click();
  const extracts = page.getByRole('table', { name: 'Systems and extracts' });
  const loaded = row(extracts, SYSTEM);
  await expect(loaded.getByText('Current', { exact: true })).toBeVisible({ timeout: 60_000 });
  // Users, roles, assignments and authorizations.
  await expect(loaded.getByRole('cell')).toContainText([SYSTEM, 'Current', '3', '2', '5', '3']);
  await expect(loaded).toContainText(/ago|less than a minute/);

  // A load that fails shows why (the table, line and column).
  await page.getByRole('textbox', { name: /^System/ }).fill(BROKEN);
  await page.getByLabel(/Extract file/).setInputFiles(await zipFile(`${BROKEN}.zip`, { ...extract, USR02: [user('ALICE', { GLTGB: 'tomorrow' })] }));
  await page.getByRole('button', { name: 'Load Extract' }).click();
  await expect(row(extracts, BROKEN)).toContainText("USR02.csv, line 2, column 'GLTGB': 'tomorrow' is not a date", { timeout: 60_000 });
  await expect(row(extracts, BROKEN).getByText('Failed', { exact: true })).toBeVisible();

  found.push(...(await seriousViolations(page, 'System Data tab', 'main')));

  // Analysis runs: this rule set's version 2 on this system only, on a given date.
  await page.getByRole('tab', { name: 'Analysis Runs' }).click();
  await expect(page.getByText('No analysis runs yet')).toBeVisible();
  await page.getByLabel('Rule set version').selectOption({ label: `${RULES} v2 (active)` });
  await page.getByLabel('Analysis date (optional)').fill('2026-06-30');
  await page.getByRole('checkbox', { name: 'All systems' }).uncheck();
  await page.getByRole('button', { name: 'Start Analysis' }).click();
  await expect(page.getByText('Pick at least one system, or analyse all of them.')).toBeVisible();
  await page.getByRole('checkbox', { name: SYSTEM }).check();
  await page.getByRole('button', { name: 'Start Analysis' }).click();
  await expect(toast(page, 'Analysis Started')).toBeVisible();
  const runs = page.getByRole('table', { name: 'Analysis runs' });
  const run = row(runs, `${RULES} v2`);
  await expect(run.getByText('Completed', { exact: true })).toBeVisible({ timeout: 60_000 });
  // Conflicts, rows, users, exercised, added, removed.
  await expect(run.getByRole('cell')).toContainText([`${RULES} v2`, 'Completed', '2', '6', '2', '1', '2', '0']);

  found.push(...(await seriousViolations(page, 'Analysis Runs tab', 'main')));

  // The run's page: its figures, the breakdowns, the conflicts with filters, the CSV.
  await run.getByRole('link', { name: `${RULES} v2` }).click();
  await expect(page.getByRole('heading', { name: 'Analysis Run', level: 1 })).toBeVisible();
  await expect(page.getByText(`${RULES} v2 · ${SYSTEM} · as of 2026-06-30`)).toBeVisible();
  await expect(page.getByRole('group', { name: 'Conflicts', exact: true })).toContainText('2');
  await expect(page.getByRole('group', { name: 'Exercised', exact: true })).toContainText('1');
  await expect(page.getByRole('group', { name: 'Latent', exact: true })).toContainText('1');
  await expect(page.getByRole('list', { name: 'Conflicts by Risk' }).getByRole('listitem')).toHaveText([/R1\s*2 \(1 exercised\)/]);
  await expect(page.getByRole('list', { name: 'Conflicts by System' })).toContainText(SYSTEM);
  await expect(page.getByRole('list', { name: 'Conflicts by User' }).getByRole('listitem')).toHaveCount(2);
  await expect(page.getByRole('group', { name: 'Conflicts by Risk chart' }).locator('svg').first()).toBeVisible();

  const conflicts = page.getByRole('table', { name: 'Conflicts' });
  await expect(conflicts.locator('tbody tr')).toHaveCount(2);
  await expect(row(conflicts, 'ALICE')).toContainText('Latent');
  await expect(row(conflicts, 'ALICE')).toContainText('F1 · ' + SYSTEM + ' · FB01 via Z_POST');
  await expect(row(conflicts, 'BOB')).toContainText('Exercised');
  await page.getByLabel('Show', { exact: true }).selectOption({ label: 'Exercised only' });
  await expect(conflicts.locator('tbody tr')).toHaveCount(1);
  await expect(conflicts.locator('tbody tr')).toContainText('BOB');
  await page.getByLabel('Show', { exact: true }).selectOption({ label: 'Latent only' });
  await expect(conflicts.locator('tbody tr')).toHaveCount(1);
  await expect(conflicts.locator('tbody tr')).toContainText('ALICE');
  await expect(page.getByText('Showing 1 of 1 conflicts')).toBeVisible();
  await page.getByLabel('Show', { exact: true }).selectOption({ label: 'All conflicts' });
  await page.getByLabel('User', { exact: true }).fill('CARL');
  await expect(page.getByText('No conflicts match')).toBeVisible();
  await page.getByLabel('User', { exact: true }).fill('');
  await expect(conflicts.locator('tbody tr')).toHaveCount(2);

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download CSV' }).click()]);
  const csv = fs.readFileSync(await download.path(), 'utf8').replace(/^\uFEFF/, '');
  const lines = csv.split(/\r?\n/).filter((l) => l !== '');
  expect(lines[0]!.split(',').slice(0, 8)).toEqual([
    'User ID',
    'User Name',
    'User Group',
    'Access Risk ID',
    'Risk Description',
    'Risk Level',
    'Risk Type',
    'Rule ID',
  ]);
  expect(lines).toHaveLength(7);

  found.push(...(await seriousViolations(page, 'run page', 'main')));
  expect(found, found.join('\n')).toEqual([]);

  // An address that names no run says so.
  const runUrl = page.url();
  expect(runUrl).toMatch(/\/access-analysis\/runs\/[0-9a-f-]{36}$/);
  await page.goto('/access-analysis/runs/not-a-run');
  await expect(page.getByRole('heading', { name: 'Run not found' })).toBeVisible();

  // On a phone (390 px) no screen is wider than the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(runUrl);
  await expect(page.getByRole('table', { name: 'Conflicts' }).locator('tbody tr')).toHaveCount(2);
  await expectNoPageSideways(page, 'run page');
  for (const tab of ['rule-sets', 'systems', 'runs']) {
    await page.goto(`/access-analysis?tab=${tab}`);
    await expect(page.getByRole('tab', { selected: true })).toBeVisible();
    await expect(page.locator('tbody tr').first()).toBeVisible();
    await expectNoPageSideways(page, `${tab} tab`);
  }
});

test('a reviewer has no Access Analysis entry and is refused its pages', async ({ page, request }) => {
  await ensureAdminSession(request);
  const reviewer = await createActiveUser(request, { role: 'reviewer', firstName: 'Rhea', lastName: 'Reviewer' });
  await signInThroughForm(page, reviewer.email, reviewer.password);
  await expect(page.getByRole('heading', { name: 'Risk Management Dashboard' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Access Analysis' })).toHaveCount(0);
  for (const path of ['/access-analysis', '/access-analysis/runs/00000000-0000-0000-0000-000000000000']) {
    await page.goto(path);
    await expect(toast(page, 'Access Denied')).toContainText('Only administrators can access this page');
    await expect(page).toHaveURL(/\/$/, { timeout: 5000 });
  }
});
