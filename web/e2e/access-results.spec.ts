import fs from 'node:fs';
import ExcelJS from 'exceljs';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { tablesZip, type Row } from '../../scripts/access-estate';
import { PAY_ROLE, POST_ROLE, assign, estate, pairRules, user } from '../../api/test/access/support/fixtures';
import { ensureAdminSession, signInAsAdmin, toast } from './helpers';
import { seriousViolations } from './axe';

// A run's results and a rule set's contents in the browser: two runs of one
// rule set version (ALICE and BOB hold R1, then BOB and CARL) show what
// changed; the conflicts download as CSV and XLSX; the version is browsed risk
// by risk and downloaded as a .zip that uploads again as its next version.
// Everything is set up through REST; what a person sees is read on the screens.
const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`.toUpperCase();
const RULES = `E2E Results ${tag}`;
const SYSTEM = `RES-${tag}`;

const holders = (users: string[]) => users.flatMap((u) => [assign(u, 'Z_POST'), assign(u, 'Z_PAY')]);
const extractOf = (users: string[]) =>
  estate({ USR02: ['ALICE', 'BOB', 'CARL'].map((u) => user(u)), AGR_USERS: holders(users), AGR_1251: [...POST_ROLE, ...PAY_ROLE] });

async function post(page: Page, url: string, tables: Record<string, Row[]>, fields: Record<string, string> = {}) {
  const res = await page.request.post(url, {
    multipart: { ...fields, file: { name: 'tables.zip', mimeType: 'application/zip', buffer: await tablesZip(tables) } },
  });
  expect(res.ok(), await res.text()).toBe(true);
  return (await res.json()) as { id: string };
}

/** Waits until what `url` answers is no longer processing. */
async function settled(page: Page, url: string) {
  await expect.poll(async () => ((await (await page.request.get(url)).json()) as { status: string }).status, { timeout: 60_000 }).not.toBe('processing');
}

/** Loads the system's extract with these users holding R1, runs the version on it; the run's id. */
async function runWith(page: Page, ruleSetId: string, users: string[]) {
  const x = await post(page, `/api/systems/${SYSTEM}/extracts`, extractOf(users));
  await settled(page, `/api/systems/${SYSTEM}/extracts/${x.id}`);
  const started = await page.request.post('/api/analyses', { data: { ruleSetId, systems: [SYSTEM], asOf: '2026-06-30' } });
  const { id } = (await started.json()) as { id: string };
  await settled(page, `/api/analyses/${id}`);
  return id;
}

const rowsOf = (table: Locator) => table.locator('tbody tr');

/** The tabs' names, in order (a Fluent tab holds its label twice: one copy reserves the bold width). */
async function expectTabs(tabs: Locator, names: string[]) {
  await expect(tabs.getByRole('tab')).toHaveCount(names.length);
  for (const [i, name] of names.entries()) await expect(tabs.getByRole('tab').nth(i)).toHaveAccessibleName(name);
}

test.beforeAll(async ({ request }) => {
  await ensureAdminSession(request);
});

test('a run shows its new, resolved and unchanged conflicts and downloads them as CSV and XLSX; a rule set version is browsed and downloaded', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  await signInAsAdmin(page, request);
  const set = await post(page, '/api/rule-sets', pairRules(), { name: RULES });
  const firstRun = await runWith(page, set.id, ['ALICE', 'BOB']);
  const secondRun = await runWith(page, set.id, ['BOB', 'CARL']);

  // The second run against the first.
  await page.goto(`/access-analysis/runs/${secondRun}`);
  const changes = page.getByRole('tablist', { name: 'Change against the previous run' });
  await expectTabs(changes, ['All (2)', 'New (1)', 'Resolved (1)', 'Unchanged (1)']);
  const conflicts = page.getByRole('table', { name: 'Conflicts' });
  await changes.getByRole('tab', { name: 'New (1)' }).click();
  await expect(rowsOf(conflicts)).toHaveCount(1);
  await expect(rowsOf(conflicts)).toContainText('CARL');
  // A resolved conflict is shown as the previous run found it: ALICE's paths, which this run no longer has.
  await changes.getByRole('tab', { name: 'Resolved (1)' }).click();
  await expect(rowsOf(conflicts)).toHaveCount(1);
  await expect(rowsOf(conflicts)).toContainText('ALICE');
  await expect(rowsOf(conflicts)).toContainText(`F2 · ${SYSTEM} · F-53 via Z_PAY`);
  await expect(page.getByText(/^Conflicts of the previous run \(started .+\) that this run no longer finds, as that run found them\.$/)).toBeVisible();
  await changes.getByRole('tab', { name: 'Unchanged (1)' }).click();
  await expect(rowsOf(conflicts)).toHaveCount(1);
  await expect(rowsOf(conflicts)).toContainText('BOB');
  // The tabs work by keyboard.
  await changes.getByRole('tab', { name: 'Unchanged (1)' }).focus();
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('Enter');
  await expect(changes.getByRole('tab', { name: 'Resolved (1)' })).toHaveAttribute('aria-selected', 'true');
  await changes.getByRole('tab', { name: 'All (2)' }).click();
  await expect(rowsOf(conflicts)).toHaveCount(2);

  // The whole run as CSV and as XLSX: the same header and the same rows.
  const [csvDownload] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download CSV' }).click()]);
  expect(csvDownload.suggestedFilename()).toBe(`conflicts-${secondRun}.csv`);
  const csvLines = fs
    .readFileSync(await csvDownload.path(), 'utf8')
    .replace(/^\uFEFF/, '')
    .split('\r\n')
    .filter((l) => l !== '');
  const [xlsxDownload] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download XLSX' }).click()]);
  expect(xlsxDownload.suggestedFilename()).toBe(`conflicts-${secondRun}.xlsx`);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(await xlsxDownload.path());
  const sheet = wb.worksheets[0]!;
  const width = csvLines[0]!.split(',').length;
  const cells = (n: number) => Array.from({ length: width }, (_, i) => sheet.getRow(n).getCell(i + 1).value ?? '').map(String);
  expect(cells(1)).toEqual(csvLines[0]!.split(','));
  expect(sheet.actualRowCount).toBe(csvLines.length);
  for (let i = 1; i < csvLines.length; i++) expect(cells(i + 1)).toEqual(csvLines[i]!.split(','));
  const found = await seriousViolations(page, 'run page with change tabs', 'main');

  // The first run has nothing to compare against.
  await page.goto(`/access-analysis/runs/${firstRun}`);
  await expectTabs(changes, ['All (2)', 'New (2)', 'Resolved (0)', 'Unchanged (0)']);
  await changes.getByRole('tab', { name: 'Resolved (0)' }).click();
  await expect(page.getByText('No resolved conflicts', { exact: true })).toBeVisible();
  await expect(page.getByText('This is the first completed run of this rule set version: there is no earlier run to compare against.')).toBeVisible();

  // Rule sets: browse version 1, open its risk, see functions, actions and permissions.
  await page.goto('/access-analysis?tab=rule-sets');
  const versions = page.getByRole('table', { name: 'Rule set versions' });
  await page.getByRole('button', { name: `Browse ${RULES} version 1` }).click();
  const dialog = page.getByRole('dialog', { name: `${RULES} version 1` });
  await expect(dialog.getByText('1 risk, 2 functions, 2 enabled actions, 2 enabled permissions.', { exact: false })).toBeVisible();
  await dialog.getByRole('button', { name: /^R1/ }).click();
  await expect(dialog.getByRole('list', { name: 'Functions of R1' })).toContainText('F1 · Function F1 (Single)');
  await expect(dialog.getByRole('list', { name: 'Functions of R1' })).toContainText('F2 · Function F2 (Single)');
  await expect(dialog.getByRole('list', { name: 'Permissions of FB01' }).getByRole('listitem')).toHaveText([
    'F_BKPF_BUK BUKRS = 1000',
    'F_BKPF_BUK ACTVT = 01',
  ]);
  await expect(dialog.getByRole('list', { name: 'Actions of F2' })).toContainText('No permission rows: the transaction alone gives the function.');
  found.push(...(await seriousViolations(page, 'rule set browser', '[role="dialog"]')));
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toHaveCount(0);

  // Download version 1 and upload it again: version 2 with the same counts, then make it the active one.
  const [zipDownload] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: `Download ${RULES} version 1` }).click()]);
  expect(zipDownload.suggestedFilename()).toMatch(/-v1\.zip$/);
  await page.getByLabel('Name (optional)').fill(RULES);
  await page.getByLabel(/Rule set file/).setInputFiles({ name: 'rules.zip', mimeType: 'application/zip', buffer: fs.readFileSync(await zipDownload.path()) });
  await page.getByRole('button', { name: 'Upload Rule Set' }).click();
  await expect(toast(page, 'Rule Set Uploaded')).toContainText(`${RULES} version 2: 1 risk, 2 functions.`);
  const ours = rowsOf(versions).filter({ hasText: RULES });
  await expect(ours).toHaveCount(2);
  await expect(ours.nth(0).getByRole('cell')).toContainText([RULES, '2', '1', '2', '2', '2']);
  await expect(ours.nth(1).getByRole('cell')).toContainText([RULES, '1', '1', '2', '2', '2']);
  await page.getByRole('button', { name: `Activate ${RULES} version 2` }).click();
  await expect(toast(page, 'Rule Set Activated')).toContainText(`${RULES} version 2 is now the active version.`);
  await expect(ours.nth(0).getByText('Active', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: `Activate ${RULES} version 1` })).toBeVisible();
  expect(found, found.join('\n')).toEqual([]);

  // On a phone (390 px) the dialog and the run page fit the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('button', { name: `Browse ${RULES} version 2` }).click();
  await expect(page.getByRole('dialog')).toContainText('R1');
  const box = await page.getByRole('dialog').boundingBox();
  expect(box!.width).toBeLessThanOrEqual(390);
});
