import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { ensureAdminSession, signInAsAdmin, toast } from './helpers';

// The server's Content-Security-Policy (script-src 'self', <style> only with the
// response's nonce, GraphiQL from the app's own files): the screens render with
// Fluent UI's styles and the browser reports no violation anywhere.

type Violation = { directive: string; blocked: string; source: string };

/** Collects every CSP violation the page reports (event and console), from the first document on. */
async function watchCsp(page: Page): Promise<{ violations: () => Promise<string[]> }> {
  const messages: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) messages.push(`console: ${m.text()}`);
  });
  await page.addInitScript(() => {
    const w = window as unknown as { __csp: Violation[] };
    w.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      w.__csp.push({ directive: e.violatedDirective, blocked: e.blockedURI, source: `${e.sourceFile}:${e.lineNumber}` });
    });
  });
  return {
    async violations() {
      const events = await page.evaluate(() => (window as unknown as { __csp?: Violation[] }).__csp ?? []).catch(() => []);
      return [...messages, ...events.map((v) => `event: ${v.directive} blocked ${v.blocked} at ${v.source}`)];
    },
  };
}

/** Fluent UI's styles are applied: the provider's theme variables and a styled button. */
async function expectFluentStyles(page: Page) {
  const fontFamily = await page.evaluate(() => {
    const provider = document.querySelector('.fui-FluentProvider');
    return provider ? getComputedStyle(provider).getPropertyValue('--fontFamilyBase').trim() : '';
  });
  expect(fontFamily, 'FluentProvider theme variables').toContain('Segoe UI');
}

test('the app renders under its Content-Security-Policy with no violation: sign-in, dashboard, upload, detailed review', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(120_000);
  const csp = await watchCsp(page);
  await ensureAdminSession(request);

  const index = await page.goto('/internal-login');
  const policy = index?.headers()['content-security-policy'] ?? '';
  expect(policy).toContain("script-src 'self'");
  expect(policy).toMatch(/style-src 'self' 'nonce-[^']+'/);
  expect(policy).not.toContain('unsafe-inline');
  await expect(page.getByRole('heading', { name: 'Internal User Login' })).toBeVisible();
  await expectFluentStyles(page);
  // Griffel's and FluentProvider's <style> elements carry the nonce of this response.
  const styled = await page.evaluate(() => [...document.querySelectorAll('style')].map((s) => s.nonce !== ''));
  expect(styled.length).toBeGreaterThan(0);
  expect(styled.every(Boolean)).toBe(true);

  await signInAsAdmin(page, request);
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Risk Management Dashboard', level: 1 })).toBeVisible();
  await expectFluentStyles(page);

  // An upload through the form (multipart POST /api/upload, progress over the WebSocket,
  // toasts and a dialog in portals): the app's own origin passes the Origin check. Its one
  // illegal risk level fails it, so no row goes live and other specs' data stays as it was.
  await page.goto('/upload');
  await expect(page.getByRole('heading', { name: 'Data Upload', level: 1 })).toBeVisible();
  await expectFluentStyles(page);
  const tag = Date.now().toString(36).toUpperCase();
  const name = `csp-${tag}.csv`;
  const file = testInfo.outputPath(name);
  const rows = Array.from(
    { length: 20 },
    (_, i) => `CSP${tag}${i},Csp User ${i},FIN,FI00${i % 9},Conflict,${i === 7 ? 'Severe' : 'High'},0201,SAP ERP,Z_ROLE_${i},ZC_FIN`,
  );
  const header = 'User ID,User Name,User Group,Access Risk ID,Risk Description,Risk Level,Rule ID,System,Role/Profile,Composite/Business Role';
  fs.writeFileSync(file, [header, ...rows].join('\r\n') + '\r\n');
  await page.getByLabel('Choose files to upload').setInputFiles(file);
  await page.getByRole('button', { name: 'Start Upload' }).click();
  await expect(toast(page, 'Upload Failed')).toContainText("'Severe' is not a risk level", { timeout: 30_000 });
  const row = page.getByRole('table', { name: 'Upload History' }).getByRole('row').filter({ hasText: name });
  await expect(row.getByRole('cell').nth(2)).toHaveText('Failed');
  await row.getByRole('button', { name: 'View Details' }).click();
  const dialog = page.getByRole('dialog', { name: 'Upload Details' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).click();

  await page.goto('/risk-review?tab=detailed');
  await expect(page.getByRole('tab', { name: 'Detailed Review' })).toHaveAttribute('aria-selected', 'true');
  await expectFluentStyles(page);

  await page.goto('/users');
  await expect(page.getByRole('heading', { name: 'User Management', level: 1 })).toBeVisible();

  expect(await csp.violations()).toEqual([]);
});

test('GraphiQL loads from the app itself, with no script from elsewhere and no violation', async ({ page, request }) => {
  test.setTimeout(120_000);
  const csp = await watchCsp(page);
  const external: string[] = [];
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (!['http:', 'https:', 'ws:', 'wss:'].includes(u.protocol)) return;
    if (u.origin !== new URL(page.url() === 'about:blank' ? r.url() : page.url()).origin) external.push(r.url());
  });
  await signInAsAdmin(page, request);
  // The network is cut off from the outside: any request to another host fails as on an intranet.
  const app = new URL(page.url()).origin;
  await page.route(
    (url) => url.origin !== app,
    (route) => route.abort('internetdisconnected'),
  );
  const response = await page.goto('/graphql');
  await expect(page).toHaveTitle('GraphQL · GRC Risk Management');
  expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
  // The editor is up: GraphiQL's toolbar and Monaco's editor.
  await expect(page.locator('.graphiql-container').first()).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('.monaco-editor').first()).toBeVisible({ timeout: 30_000 });
  expect(external).toEqual([]);
  expect(await csp.violations()).toEqual([]);
});
