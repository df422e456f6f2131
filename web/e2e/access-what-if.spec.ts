import { expect, test, type APIRequestContext } from '@playwright/test';
import JSZip from 'jszip';
import { ensureAdminSession, signInAsAdmin, toast } from './helpers';
import { pickOption as pick } from './review-helpers';
import { seriousViolations } from './axe';

// Trying changes before they count, end to end. A rule set (RP = posting FB01 and paying F-53) in
// two versions: v2, a draft, makes posting alone a critical action (RA) and drops RP. On one system
// WALICE can post, WBOB can post and pay. Names are tagged per run (the database is shared by specs).
const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`.toUpperCase();
const RULES = `What-if Rules ${tag}`;
const SYSTEM = `WI-${tag}`;
const [ALICE, BOB] = [`WALICE${tag}`, `WBOB${tag}`];
const [RP, RA] = [`RP${tag}`, `RA${tag}`];
const [POST, PAY, COMP] = [`Z_POST_${tag}`, `Z_PAY_${tag}`, `C_FIN_${tag}`];

type Row = Record<string, string>;

async function tablesZip(tables: Record<string, Row[]>): Promise<Buffer> {
  const zip = new JSZip();
  for (const [name, rows] of Object.entries(tables)) {
    const header = Object.keys(rows[0] ?? {});
    zip.file(`${name}.csv`, [header, ...rows.map((r) => header.map((h) => r[h] ?? ''))].map((cells) => cells.join(',')).join('\r\n') + '\r\n');
  }
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

const risk = (id: string, type: string, status = 'Enabled'): Row => ({
  'Access Risk ID': id,
  'Risk Description': `Risk ${id}`,
  'Risk Level': 'High',
  'Risk Type': type,
  'Business Process': 'FI',
  Status: status,
});
const fn = (id: string): Row => ({ 'Function ID': id, 'Function Description': `Function ${id}`, 'Business Process': 'FI', 'Analysis Scope': 'Single' });
const rf = (r: string, f: string): Row => ({ 'Access Risk ID': r, 'Function ID': f });
const act = (f: string, a: string): Row => ({ 'Function ID': f, System: '', Action: a, 'Action Description': `Run ${a}`, Status: 'Enabled' });
const ruleSet = (draft: boolean) => ({
  risks: [risk(RP, 'S', draft ? 'Disabled' : 'Enabled'), ...(draft ? [risk(RA, 'A')] : [])],
  functions: [fn('F1'), fn('F2')],
  risk_functions: [rf(RP, 'F1'), rf(RP, 'F2'), ...(draft ? [rf(RA, 'F1')] : [])],
  function_actions: [act('F1', 'FB01'), act('F2', 'F-53')],
  function_permissions: [
    { 'Function ID': 'F1', System: '', Action: 'FB01', 'Auth Object': 'F_BKPF_BUK', Field: 'ACTVT', 'Value From': '01', 'Value To': '', Status: 'Enabled' },
  ],
});
const user = (bname: string): Row => ({ MANDT: '100', BNAME: bname, CLASS: 'FIN', USTYP: 'A', UFLAG: '0', GLTGV: '00000000', GLTGB: '99991231' });
const assign = (uname: string, role: string): Row => ({ AGR_NAME: role, UNAME: uname, FROM_DAT: '20260101', TO_DAT: '99991231', COL_FLAG: '' });
const grant = (role: string, object: string, field: string, low: string): Row => ({
  AGR_NAME: role,
  OBJECT: object,
  AUTH: 'A1',
  FIELD: field,
  LOW: low,
  HIGH: '',
  DELETED: '',
});
const extract = {
  USR02: [user(ALICE), user(BOB)],
  AGR_USERS: [assign(ALICE, POST), assign(BOB, POST), assign(BOB, PAY)],
  AGR_AGRS: [{ AGR_NAME: COMP, CHILD_AGR: PAY }],
  AGR_1251: [grant(POST, 'S_TCODE', 'TCD', 'FB01'), grant(POST, 'F_BKPF_BUK', 'ACTVT', '01'), grant(PAY, 'S_TCODE', 'TCD', 'F-53')],
};

async function upload(api: APIRequestContext, url: string, tables: Record<string, Row[]>, fields: Record<string, string> = {}) {
  const r = await api.post(url, { multipart: { ...fields, file: { name: 'tables.zip', mimeType: 'application/zip', buffer: await tablesZip(tables) } } });
  expect(r.ok(), `${url}: ${r.status()} ${await r.text()}`).toBeTruthy();
  return (await r.json()) as { id: string };
}

test.beforeAll(async ({ request }) => {
  await ensureAdminSession(request);
});

test('a draft rule set version runs as a test showing what it would add and remove; the simulation answers from the engine', async ({ page, request }) => {
  test.setTimeout(180_000);
  await signInAsAdmin(page, request);
  const api = page.request;
  const v1 = await upload(api, '/api/rule-sets', ruleSet(false), { name: RULES });
  await upload(api, '/api/rule-sets', ruleSet(true), { name: RULES });
  const x = await upload(api, `/api/systems/${SYSTEM}/extracts`, extract);
  await expect
    .poll(async () => ((await (await api.get(`/api/systems/${SYSTEM}/extracts/${x.id}`)).json()) as { status: string }).status, { timeout: 60_000 })
    .toBe('completed');
  const real = await api.post('/api/analyses', { data: { ruleSetId: v1.id, systems: [SYSTEM] } });
  expect(real.status()).toBe(202);

  // The start form: the draft is labelled as a test, and says what a test run is.
  await page.goto('/access-analysis?tab=runs');
  const runs = page.getByRole('table', { name: 'Analysis runs' });
  await expect(
    runs
      .locator('tbody tr')
      .filter({ hasText: `${RULES} v1` })
      .getByText('Completed', { exact: true }),
  ).toBeVisible({ timeout: 60_000 });
  await page.getByLabel('Rule set version').selectOption({ label: `${RULES} v2 (test)` });
  await expect(page.getByText('A test run: it shows the conflicts this version would add or remove')).toBeVisible();
  await page.getByRole('checkbox', { name: 'All systems' }).uncheck();
  await page.getByRole('checkbox', { name: SYSTEM }).check();
  await page.getByRole('button', { name: 'Start Analysis' }).click();
  await expect(toast(page, 'Test Run Started')).toBeVisible();
  const test2 = runs.locator('tbody tr').filter({ hasText: `${RULES} v2` });
  await expect(test2.getByText('Completed', { exact: true })).toBeVisible({ timeout: 60_000 });
  await expect(test2.getByText('Test run', { exact: true })).toBeVisible();

  // Its page: what it would add (posting alone, both users) and remove (the pair, BOB).
  await test2.getByRole('link', { name: `${RULES} v2` }).click();
  await expect(page.getByText(`${RULES} v2 · test run · ${SYSTEM}`)).toBeVisible();
  await expect(page.getByRole('group', { name: 'Would Add', exact: true })).toContainText('2');
  await expect(page.getByRole('group', { name: 'Would Remove', exact: true })).toContainText('1');
  const wouldAdd = page.getByRole('table', { name: 'Would Add' });
  await expect(wouldAdd.locator('tbody tr')).toHaveText([new RegExp(`${ALICE}\\s*${RA}`), new RegExp(`${BOB}\\s*${RA}`)]);
  await expect(page.getByRole('table', { name: 'Would Remove' }).locator('tbody tr')).toHaveText([new RegExp(`${BOB}\\s*${RP}\\s*Risk ${RP}`)]);
  await expect(page.getByText(`Compared with the latest run of the active version, ${RULES} v1`).first()).toBeVisible();
  const found = await seriousViolations(page, 'test run page', 'main');
  await page.setViewportSize({ width: 390, height: 844 });
  // Measured once the page has laid itself out at the new width (a toast still sliding, a chart resizing).
  const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  await expect.poll(overflow, { message: 'the test run page is wider than a 390 px screen' }).toBeLessThanOrEqual(0);
  await page.setViewportSize({ width: 1280, height: 900 });

  // Risk Simulation: WALICE given the composite holding the paying role would hold RP, through the composite.
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Risk Simulation' }).click();
  await pick(page, 'User', ALICE.toLowerCase(), ALICE);
  await pick(page, 'Risk', RP, RP);
  await page.getByRole('button', { name: 'Add Scenario' }).click();
  await pick(page, 'Scenario 1 role', 'C_FIN', COMP);
  await page.getByRole('checkbox', { name: 'Scenario 1: add the role to the user' }).check();
  await page.getByRole('button', { name: 'Run Risk Simulation' }).click();
  await expect(toast(page, 'Simulation Complete')).toContainText('NO MATCH: 2 of 0 access items remain.');
  const appear = page.getByRole('region', { name: 'Conflicts That Would Appear' });
  await expect(appear).toContainText(RP);
  await expect(appear.getByRole('table', { name: `Paths of ${RP}` }).locator('tbody tr')).toHaveText([
    new RegExp(`F1\\s*${SYSTEM}\\s*FB01\\s*${POST}`),
    new RegExp(`F2\\s*${SYSTEM}\\s*F-53\\s*${COMP} / ${PAY}`),
  ]);
  await expect(page.getByRole('region', { name: 'Conflicts That Would Go' })).toContainText('No conflict would go.');
  found.push(...(await seriousViolations(page, 'simulation result from the engine', 'main')));
  expect(found, found.join('\n')).toEqual([]);
});
