import { expect, test } from '@playwright/test';
import { createActiveUser, ensureAdminSession, signInAsAdmin, signInThroughForm } from './helpers';

// A fast first load: a returning, signed-in visitor's page arrives with
// the signed-in frame (top bar, the dashboard's heading) already in the HTML, and the app
// takes it over with no flash of the landing page and no empty screen; a visitor without a
// session gets the page as built.

/** Records, from the first parse on, what #root shows each time it changes. */
function recordRoot() {
  const w = window as unknown as { rootStates: string[] };
  w.rootStates = [];
  const note = () => {
    const root = document.getElementById('root');
    if (root == null) return;
    const state = root.querySelector('.bf')
      ? 'frame'
      : root.querySelector('main#main-content h1')
        ? 'dashboard'
        : root.querySelector('main#main-content')
          ? 'shell'
          : root.textContent?.trim()
            ? `other: ${root.textContent.trim().slice(0, 40)}`
            : 'empty';
    if (w.rootStates[w.rootStates.length - 1] !== state) w.rootStates.push(state);
  };
  new MutationObserver(note).observe(document, { subtree: true, childList: true });
}

test("a signed-in visitor's reload paints the page's frame from the HTML, then the dashboard, never the landing page", async ({ page, request }) => {
  await signInAsAdmin(page, request);
  await page.addInitScript(recordRoot);
  const response = await page.goto('/');
  const html = (await response?.text()) ?? '';
  expect(html).toContain('<div id="root"><div class="bf"');
  expect(html).toContain('Risk Management Dashboard');
  await expect(page.locator('main#main-content').getByRole('heading', { level: 1, name: 'Risk Management Dashboard' })).toBeVisible();
  const states = await page.evaluate(() => (window as unknown as { rootStates: string[] }).rootStates);
  // The frame first; from then on the shell with the heading (the frame has the same boxes).
  expect(states[0]).toBe('frame');
  expect(states.at(-1)).toBe('dashboard');
  expect(
    states.filter((s) => s !== 'frame' && s !== 'dashboard'),
    states.join(' → '),
  ).toEqual([]);
  // Not two headings for a screen reader: the frame, while shown, is aria-hidden, and it is gone now.
  await expect(page.locator('.bf')).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
});

test('a visitor without a session gets the page as built: no frame, the landing page', async ({ page }) => {
  const response = await page.goto('/');
  expect((await response?.text()) ?? '').toContain('<div id="root"></div>');
  await expect(page.getByRole('button', { name: 'Sign In to Continue' })).toBeVisible();
  await expect(page.locator('.bf')).toHaveCount(0);
});

/** Records, for each GraphQL operation the page sends, whether the preload script sent it (its code is on the stack). */
function recordGraphqlSenders() {
  const w = window as unknown as { graphqlSenders: { op: string; early: boolean }[] };
  w.graphqlSenders = [];
  const original = window.fetch.bind(window);
  window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    if (String(input).endsWith('/graphql') && typeof init?.body === 'string') {
      const op = /"operationName":"([A-Za-z]+)"/.exec(init.body)?.[1] ?? '?';
      w.graphqlSenders.push({ op, early: (new Error().stack ?? '').includes('signed-in-preload-') });
    }
    return original(input, init);
  };
}

test("an administrator's reload of the risk queue: its first page is asked for by the preload script, once, and shown", async ({ page, request }) => {
  await signInAsAdmin(page, request);
  await page.addInitScript(recordGraphqlSenders);
  await page.goto('/risk-review');
  // The seeded rows (e2e fixture): a full first page.
  await expect(page.getByRole('table', { name: 'Risks' }).getByRole('row')).toHaveCount(26);
  const senders = await page.evaluate(() => (window as unknown as { graphqlSenders: { op: string; early: boolean }[] }).graphqlSenders);
  // Sent before the entry asked for it, and not again: relay/network.ts took the early answer.
  expect(
    senders.filter((s) => s.op === 'RiskQueueQuery'),
    JSON.stringify(senders),
  ).toEqual([{ op: 'RiskQueueQuery', early: true }]);
  expect(senders.filter((s) => s.op === 'SessionProviderQuery')).toEqual([{ op: 'SessionProviderQuery', early: true }]);
});

test("a reviewer's reload of /risk-review: My Assigned Risks, and the administrators' queue is never asked for", async ({ page, request }) => {
  await ensureAdminSession(request);
  const reviewer = await createActiveUser(request, { role: 'reviewer', firstName: 'Flo', lastName: 'Firstpaint' });
  await signInThroughForm(page, reviewer.email, reviewer.password);
  await expect(page.getByRole('heading', { name: 'Risk Management Dashboard' })).toBeVisible();
  await page.addInitScript(recordGraphqlSenders);
  const response = await page.goto('/risk-review');
  // The server knows the viewer from the session: the frame is the reviewer's screen, not the administrators' tabs.
  const html = (await response?.text()) ?? '';
  expect(html).toContain('<h1 class="bf-h1">My Assigned Risks</h1>');
  expect(html).not.toContain('Risk Overview');
  await expect(page.getByRole('heading', { name: 'My Assigned Risks', level: 1 })).toBeVisible();
  const senders = await page.evaluate(() => (window as unknown as { graphqlSenders: { op: string; early: boolean }[] }).graphqlSenders);
  expect(senders.map((s) => s.op)).toContain('AssignedRisksQuery');
  expect(senders.map((s) => s.op)).not.toContain('RiskQueueQuery');
});

/** Records what #root shows on Risk Review each time it changes: frame or app, and whether the period notice is there. */
function recordQueueStates() {
  const w = window as unknown as { queueStates: string[] };
  w.queueStates = [];
  const note = () => {
    const root = document.getElementById('root');
    if (root == null) return;
    const where = root.querySelector('.bf > .bf-shell') ? 'frame' : root.querySelector('main#main-content') ? 'app' : 'other';
    const heading = root.querySelector('h1')?.textContent ?? '';
    const notice = (root.textContent ?? '').includes('Review Period Closed') ? ' + notice' : '';
    const state = `${where}: ${heading}${notice}`;
    if (w.queueStates[w.queueStates.length - 1] !== state) w.queueStates.push(state);
  };
  new MutationObserver(note).observe(document, { subtree: true, childList: true, characterData: true });
}

test("an administrator's reload of the risk queue: the heading, tabs and (while no period is active) the period notice come in the HTML, and stay until the queue shows", async ({
  page,
  request,
}) => {
  await signInAsAdmin(page, request);
  const periods = (await (await page.request.get('/api/review-periods')).json()) as { status: string }[];
  const closed = !periods.some((p) => p.status === 'active');
  await page.addInitScript(recordQueueStates);
  const response = await page.goto('/risk-review');
  const html = (await response?.text()) ?? '';
  expect(html).toContain('<h1 class="bf-h1">Risk Review</h1>');
  expect(html).toContain('Risk Overview');
  expect(html.includes('Review Period Closed')).toBe(closed);
  await expect(page.getByRole('table', { name: 'Risks' }).getByRole('row')).toHaveCount(26);
  await expect(page.getByText('Review Period Closed', { exact: true })).toHaveCount(closed ? 1 : 0);
  const states = await page.evaluate(() => (window as unknown as { queueStates: string[] }).queueStates);
  // Frame first, the app's page last; the heading never changes and the notice, when shown, never blinks away.
  expect(states[0], states.join(' → ')).toBe(`frame: Risk Review${closed ? ' + notice' : ''}`);
  expect(states.at(-1), states.join(' → ')).toBe(`app: Risk Review${closed ? ' + notice' : ''}`);
  expect(
    states.filter((s) => !s.startsWith('frame: Risk Review') && !s.startsWith('app: Risk Review')),
    states.join(' → '),
  ).toEqual([]);
  if (closed)
    expect(
      states.filter((s) => !s.endsWith(' + notice')),
      states.join(' → '),
    ).toEqual([]);
  await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
  await expect(page.locator('.bf')).toHaveCount(0);
});
