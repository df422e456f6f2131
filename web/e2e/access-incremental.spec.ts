import { expect, test, type Page } from '@playwright/test';
import { tablesZip, type Row } from '../../scripts/access-estate';
import { PAY_ROLE, POST_ROLE, assign, estate, pairRules, tcode, user } from '../../api/test/access/support/fixtures';
import { ensureAdminSession, signInAsAdmin, toast } from './helpers';

// Re-analysis after one role changes, in the browser: ALICE and BOB hold R1
// (post with Z_POST, pay with Z_PAY); a new extract of the system where Z_PAY
// grants another transaction is loaded on the System Data tab, and the run
// started on the Analysis Runs tab recomputes only Z_PAY's holders, copying
// CARL from the previous run, with every conflict resolved. The first run and
// the base extract are set up through REST.
const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`.toUpperCase();
const RULES = `E2E Incremental ${tag}`;
const SYSTEM = `INC-${tag}`;

const USERS = ['ALICE', 'BOB', 'CARL'].map((u) => user(u));
const ASSIGNMENTS = [assign('ALICE', 'Z_POST'), assign('ALICE', 'Z_PAY'), assign('BOB', 'Z_POST'), assign('BOB', 'Z_PAY'), assign('CARL', 'Z_POST')];
const extractWith = (payRole: Row[]) => estate({ USR02: USERS, AGR_USERS: ASSIGNMENTS, AGR_1251: [...POST_ROLE, ...payRole] });

async function post(page: Page, url: string, tables: Record<string, Row[]>, fields: Record<string, string> = {}) {
  const res = await page.request.post(url, {
    multipart: { ...fields, file: { name: 'tables.zip', mimeType: 'application/zip', buffer: await tablesZip(tables) } },
  });
  expect(res.ok(), await res.text()).toBe(true);
  return (await res.json()) as { id: string };
}

async function settled(page: Page, url: string) {
  await expect.poll(async () => ((await (await page.request.get(url)).json()) as { status: string }).status, { timeout: 60_000 }).not.toBe('processing');
}

test.beforeAll(async ({ request }) => {
  await ensureAdminSession(request);
});

test('a run after one role changed recomputes only its holders and says so', async ({ page, request }) => {
  test.setTimeout(180_000);
  await signInAsAdmin(page, request);
  const set = await post(page, '/api/rule-sets', pairRules(), { name: RULES });
  const base = await post(page, `/api/systems/${SYSTEM}/extracts`, extractWith(PAY_ROLE));
  await settled(page, `/api/systems/${SYSTEM}/extracts/${base.id}`);
  const started = await page.request.post('/api/analyses', { data: { ruleSetId: set.id, systems: [SYSTEM] } });
  const first = ((await started.json()) as { id: string }).id;
  await settled(page, `/api/analyses/${first}`);

  // The full run analysed every user of the system.
  await page.goto(`/access-analysis/runs/${first}`);
  const recomputed = page.getByRole('group', { name: 'Recomputed', exact: true });
  await expect(recomputed).toContainText('3');
  await expect(recomputed).toContainText('users: a full analysis');
  await expect(page.getByRole('group', { name: 'Conflicts', exact: true })).toContainText('2');

  // The new extract: Z_PAY now grants F-54 instead of F-53, so nobody can pay.
  await page.goto('/access-analysis?tab=systems');
  await page.getByRole('textbox', { name: /^System/ }).fill(SYSTEM);
  await page
    .getByLabel(/Extract file/)
    .setInputFiles({ name: `${SYSTEM}.zip`, mimeType: 'application/zip', buffer: await tablesZip(extractWith([tcode('Z_PAY', 'F-54')])) });
  await page.getByRole('button', { name: 'Load Extract' }).click();
  const extracts = page.getByRole('table', { name: 'Systems and extracts' });
  const systemRows = extracts.locator('tbody tr').filter({ hasText: SYSTEM });
  // The new extract's row, then its load done: one of the two is current, the other superseded.
  await expect(systemRows).toHaveCount(2);
  await expect(systemRows.getByText(/^Loading: /)).toHaveCount(0, { timeout: 60_000 });
  await expect(systemRows.getByText('Replaced', { exact: true })).toHaveCount(1, { timeout: 60_000 });
  await expect(systemRows.getByText('Current', { exact: true })).toHaveCount(1);

  await page.getByRole('tab', { name: 'Analysis Runs' }).click();
  await page.getByLabel('Rule set version').selectOption({ label: `${RULES} v1 (active)` });
  await page.getByRole('checkbox', { name: 'All systems' }).uncheck();
  await page.getByRole('checkbox', { name: SYSTEM }).check();
  await page.getByRole('button', { name: 'Start Analysis' }).click();
  await expect(toast(page, 'Analysis Started')).toBeVisible();
  const runs = page
    .getByRole('table', { name: 'Analysis runs' })
    .locator('tbody tr')
    .filter({ hasText: `${RULES} v1` });
  await expect(runs).toHaveCount(2);
  await expect(runs.first().getByText('Completed', { exact: true })).toBeVisible({ timeout: 60_000 });

  // Only ALICE and BOB (Z_PAY's holders) were recomputed; both conflicts are resolved.
  await runs
    .first()
    .getByRole('link', { name: `${RULES} v1` })
    .click();
  await expect(page.getByRole('heading', { name: 'Analysis Run', level: 1 })).toBeVisible();
  await expect(recomputed).toContainText('2');
  await expect(recomputed).toContainText('users a new extract touched; the rest copied');
  await expect(page.getByRole('group', { name: 'Conflicts', exact: true })).toContainText('0');
  await expect(page.getByRole('group', { name: 'Removed', exact: true })).toContainText('2');
  await page.getByRole('tab', { name: 'Resolved (2)' }).click();
  await expect(page.getByRole('table', { name: 'Conflicts' }).locator('tbody tr')).toHaveCount(2);
});
