import { expect, request as playwrightRequest, test, type APIRequestContext, type Page } from '@playwright/test';
import { startOpenAiStandin, STANDIN_KEY, type OpenAiStandin } from '../../api/test/helpers/standins/openai-standin';
import { signInThroughForm, toast } from './helpers';
import { dialogViolations } from './axe';
import { startAppServer, type AppServer } from './app-server';

// The AI assist end to end in Chromium, against the local OpenAI stand-in
// (api/test/helpers/standins/openai-standin.ts). The server scripts/e2e.mjs starts has
// no AI endpoint; this spec starts the stand-in and a second app server
// pointed at it (OPENAI_BASE_URL), on a fresh embedded database seeded with
// the specs' fixture rows, serving the same web build.

const PORT = Number(process.env.E2E_PORT ?? 3100) + 37;
const URL = `http://127.0.0.1:${PORT}`;
const ADMIN = { email: 'admin@example.com', initial: 'Initial#Pass1', password: 'Admin#Pass2' };
const REVIEWER_PASSWORD = 'Final#Pass1';

let standin: OpenAiStandin;
let server: AppServer | null = null;
let admin: APIRequestContext;
let reviewer = { email: '', id: '' };

test.use({ baseURL: URL });
test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  standin = await startOpenAiStandin();
  server = await startAppServer({
    name: 'ai',
    port: PORT,
    env: { OPENAI_BASE_URL: standin.baseUrl, OPENAI_TIMEOUT_SECONDS: '5', OPENAI_MAX_RETRIES: '1' },
    seedRows: 'web/e2e/fixtures/risk-rows.json',
  });

  // The administrator (first password change done) and a reviewer assigned Hugo Silva (U1008).
  admin = await playwrightRequest.newContext({ baseURL: URL });
  expect((await admin.post('/api/internal-login', { data: { email: ADMIN.email, password: ADMIN.initial } })).ok()).toBe(true);
  expect((await admin.put('/api/internal/change-password', { data: { currentPassword: ADMIN.initial, newPassword: ADMIN.password } })).ok()).toBe(true);
  const email = `ai-reviewer-${Date.now().toString(36)}@example.com`;
  const created = await admin.post('/api/users', { data: { email, firstName: 'Rita', lastName: 'Reviewer', role: 'reviewer', password: 'Start#Pass1' } });
  expect(created.ok()).toBe(true);
  const id = ((await created.json()) as { user: { id: string } }).user.id;
  const own = await playwrightRequest.newContext({ baseURL: URL });
  expect((await own.post('/api/internal-login', { data: { email, password: 'Start#Pass1' } })).ok()).toBe(true);
  expect((await own.put('/api/internal/change-password', { data: { currentPassword: 'Start#Pass1', newPassword: REVIEWER_PASSWORD } })).ok()).toBe(true);
  await own.dispose();
  expect((await admin.post('/api/assignment-criteria', { data: { name: '', reviewerId: id, criteriaType: 'user_id', criteriaValue: 'U1008' } })).ok()).toBe(
    true,
  );
  expect((await admin.post('/api/review-periods', { data: { name: 'AI period', description: '', startDate: new Date().toISOString() } })).ok()).toBe(true);
  reviewer = { email, id };
});

test.afterAll(async () => {
  await admin?.dispose();
  await server?.stop();
  await standin?.close();
});

async function signIn(page: Page, email: string, password: string) {
  await signInThroughForm(page, email, password);
  await expect(page.getByRole('heading', { name: 'Risk Management Dashboard' })).toBeVisible();
}

const userHeader = (page: Page) => page.getByRole('button', { name: /^Hugo Silva \(U1008\):/ });
const groupHeader = (page: Page, riskId: string) => page.getByRole('button', { name: new RegExp(`^Risk ${riskId}:`) });
const banner = (page: Page, riskId: string) =>
  page.getByRole('group', { name: `AI suggested category for ${riskId}` }).or(page.locator(`[aria-label="AI suggested category for ${riskId}"]`));

async function openComposite(page: Page) {
  await page.goto('/assigned-risks');
  await page.getByRole('tab', { name: 'By Composite Role' }).click();
  await userHeader(page).click();
}

test('Admin Settings: the key card refuses blank and wrongly formatted keys, stores and validates a key; the usage card appears', async ({ page }) => {
  await signIn(page, ADMIN.email, ADMIN.password);
  await page.goto('/admin-settings');
  await expect(page.getByRole('heading', { name: 'Admin Settings' })).toBeVisible();
  await expect(page.getByText('Not Configured', { exact: true })).toBeVisible();
  await expect(page.getByText('AI Usage Statistics')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Validate Key' })).toHaveCount(0);
  await expect(page.getByText('About AI Risk Categorization')).toBeVisible();

  await page.getByRole('button', { name: 'Update', exact: true }).click();
  await expect(toast(page, 'Error')).toContainText('Please enter an API key');
  const input = page.getByLabel('API key', { exact: true });
  await input.fill('pk-not-a-key');
  await page.getByRole('button', { name: 'Update', exact: true }).click();
  await expect(toast(page, 'Invalid Format')).toContainText("OpenAI API keys should start with 'sk-'");

  await input.fill(STANDIN_KEY);
  await expect(input).toHaveAttribute('type', 'password');
  await page.getByRole('button', { name: 'Show API key' }).click();
  await expect(input).toHaveAttribute('type', 'text');
  await page.getByRole('button', { name: 'Update', exact: true }).click();
  await expect(toast(page, 'OpenAI API key updated successfully')).toBeVisible();
  await expect(page.getByText('Configured', { exact: true })).toBeVisible();
  await expect(page.getByText(/^Last updated:/)).toBeVisible();

  await page.getByRole('button', { name: 'Validate Key' }).click();
  await expect(toast(page, 'OpenAI API key is valid and working')).toBeVisible();
  const usage = page.getByRole('group', { name: 'AI Usage Statistics' }).or(page.locator('[aria-label="AI Usage Statistics"]'));
  await expect(usage).toContainText('Total Calls');
  await expect(usage).toContainText('$0.0000');
  await expect(page.getByRole('img', { name: 'AI calls and cost per day, last 30 days' })).toBeVisible();
  // The key never comes back from the API.
  const status = await (await admin.get('/api/admin/settings/openai_api_key')).text();
  expect(status).not.toContain(STANDIN_KEY);
});

test('a reviewer gets a category, accepts it, and reads the AI Risk Profile; a malformed reply is a clear failure', async ({ page }) => {
  await signIn(page, reviewer.email, REVIEWER_PASSWORD);
  await openComposite(page);
  await groupHeader(page, 'F001').click();
  const f001 = banner(page, 'F001');
  await expect(f001).toContainText('No AI category yet');
  await f001.getByRole('button', { name: 'Suggest Category' }).click();
  await expect(toast(page, 'AI Categorization Complete')).toContainText('Financial (87% confidence)');
  await expect(f001).toContainText('AI Suggested Category: Financial');
  await expect(f001).toContainText('Confidence: 87%');
  await expect(f001).toContainText('Processed:');
  await f001.getByRole('button', { name: 'Accept' }).click();
  await expect(toast(page, 'AI Suggestion Updated')).toBeVisible();
  await expect(f001.getByText('Accepted', { exact: true })).toBeVisible();

  await f001.getByRole('button', { name: 'AI Profile' }).click();
  const dialog = page.getByRole('dialog', { name: 'AI Risk Profile' });
  await expect(dialog).toContainText('Risk F001');
  await expect(dialog.getByText('Nature of Risk')).toBeVisible();
  await expect(dialog.getByText('Function Analysis')).toBeVisible();
  await expect(dialog.getByText('Risk Severity Assessment')).toBeVisible();
  // axe on the AI Risk Profile dialog.
  const axeFound = await dialogViolations(page, 'AI Risk Profile');
  expect(axeFound, axeFound.join('\n')).toEqual([]);
  await expect(dialog.getByRole('table', { name: 'Severity dimensions' })).toContainText('Financial impact');
  await expect(dialog.getByText('Conclusion')).toBeVisible();
  await expect(dialog.getByText('Recommended Actions')).toBeVisible();
  await expect(toast(page, 'AI Risk Profile Complete')).toBeVisible();
  const prompt = standin.completions().at(-1)!.body.messages[1].content as string;
  expect(prompt).toContain('CR_FIN_AP');
  await dialog.getByRole('button', { name: 'Close' }).click();

  // A malformed reply: the SPEC's toast, nothing stored.
  await groupHeader(page, 'F002').click();
  const f002 = banner(page, 'F002');
  standin.fail('malformed');
  await f002.getByRole('button', { name: 'Suggest Category' }).click();
  await expect(toast(page, 'AI Categorization Failed')).toContainText('not in the expected format');
  await expect(f002).toContainText('No AI category yet');
});

test('the usage card counts the calls; purge needs two steps, and an open reviewer page shows the emptiness without a reload', async ({ page, browser }) => {
  // The reviewer's page stays open in another browser.
  const other = await browser.newContext({ baseURL: URL });
  const reviewerPage = await other.newPage();
  await signIn(reviewerPage, reviewer.email, REVIEWER_PASSWORD);
  await reviewerPage.goto('/assigned-risks');
  await expect(reviewerPage.getByText('No Risks Assigned')).toHaveCount(0);
  await expect(reviewerPage.getByText('Hugo Silva').first()).toBeVisible();

  await signIn(page, ADMIN.email, ADMIN.password);
  await page.goto('/admin-settings');
  // Bulk categorisation: the estimate, then live progress to the end.
  const bulk = page.locator('[aria-label="Bulk AI Categorization"]');
  await expect(bulk).toContainText(/\d+ risks without an AI category; estimated cost \$\d+\.\d{4} \(no spend cap\)/);
  await bulk.getByRole('button', { name: 'Categorize All' }).click();
  await expect(toast(page, 'Bulk Categorization Started')).toBeVisible();
  await expect(bulk).toContainText(/Completed: \d+ of \d+ categorized/, { timeout: 30_000 });
  await expect(bulk).toContainText('0 risks without an AI category');

  const stats = (await (await admin.get('/api/ai/usage-stats')).json()) as { totalCalls: number; failedCalls: number; totalCost: number };
  expect(stats.totalCalls).toBeGreaterThanOrEqual(4);
  expect(stats.failedCalls).toBeGreaterThanOrEqual(1);
  const usage = page.locator('[aria-label="AI Usage Statistics"]');
  await expect(usage).toContainText(`$${stats.totalCost.toFixed(4)}`);

  await page.getByRole('button', { name: 'Purge All Risk Data' }).click();
  const confirm = page.getByRole('alert').filter({ hasText: 'This permanently deletes:' });
  await expect(confirm).toContainText('All risk definitions');
  await expect(confirm).toContainText('All simulations and analysis data');
  await expect(confirm).toContainText('All review decisions and assignments');
  await expect(confirm).toContainText('All current risk assignments');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('button', { name: 'Purge All Risk Data' })).toBeVisible();
  expect(((await (await admin.get('/api/dashboard/stats')).json()) as { totalConflicts: number }).totalConflicts).toBeGreaterThan(0);

  await page.getByRole('button', { name: 'Purge All Risk Data' }).click();
  await page.getByRole('button', { name: 'Yes, Purge All Data' }).click();
  await expect(toast(page, 'All user risk data has been purged successfully')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Purge All Risk Data' })).toBeVisible();
  expect(((await (await admin.get('/api/dashboard/stats')).json()) as { totalConflicts: number }).totalConflicts).toBe(0);

  // The reviewer's open page refreshed by itself.
  await expect(reviewerPage.getByText('No Risks Assigned')).toBeVisible({ timeout: 15_000 });
  await other.close();
});
