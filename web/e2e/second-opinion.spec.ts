import { expect, test, type Browser } from '@playwright/test';
import { appendCsvRest, bellButton, createActiveUser, createUser, ensureAdminSession, signInThroughForm, toast } from './helpers';
import { createAssignmentRest, openFreshPeriod, uniqueName } from './review-helpers';

// Consult, not guess, in the browser: a reviewer not sure of a row asks another reviewer ('Not sure'),
// who follows the notification's link to the question, reads the row and answers; the answer shows on
// the asker's row, which stays pending. The rules (refusals, who reads what) are in
// api/test/review/consult-questions.test.ts. Rows are this run's own (a unique user), appended: the
// specs share one server in file-name order, and this one runs after those that count the fixture's 60 rows.
// The person asked is found by typing part of their name among more users than the dialog lists at once.
const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`.toUpperCase();
const USER = `CQ${tag}`;
const NAME = `Quinn Query ${tag}`;
const HEADER = 'User ID,User Name,User Group,Access Risk ID,Risk Description,Risk Level,Rule ID,System,Role/Profile';
const QUESTION = 'Does Quinn still approve vendor payments?';
const ANSWER = 'Yes, until the end of the quarter.';

async function signedInPage(browser: Browser, who: { email: string; password: string }) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInThroughForm(page, who.email, who.password);
  await expect(page.getByRole('heading', { name: 'Risk Management Dashboard' })).toBeVisible();
  return page;
}

test('a reviewer asks about a row, the person asked answers from the notification, and the answer shows on the row', async ({ browser, request }) => {
  await ensureAdminSession(request);
  await appendCsvRest(request, {
    name: `consult-${tag}.csv`,
    header: HEADER,
    lines: [[USER, NAME, 'FIN', 'S900', 'Pay vendors', 'High', '0301', 'SAP ERP', `Z_CQ_${tag}`].join(',')],
  });
  // More people than the dialog lists at once, all before the person asked in its A-to-Z order: only a
  // lookup of the typed text offers them (so the spec does not depend on how many users earlier specs made).
  for (let i = 0; i < 21; i++) await createUser(request, { role: 'reviewer', firstName: 'Abe', lastName: `Crowd ${tag} ${i}` });
  const asker = await createActiveUser(request, { role: 'reviewer', firstName: 'Ada', lastName: `Asker ${tag}` });
  const asked = await createActiveUser(request, { role: 'reviewer', firstName: 'Ben', lastName: `Answerer ${tag}` });
  await createAssignmentRest(request, { reviewerId: asker.user.id, criteriaType: 'user_id', criteriaValue: USER });
  await openFreshPeriod(request, uniqueName('Consult period'));

  // The asker: 'Not sure' on the row, then the dialog, by keyboard where it matters.
  const a = await signedInPage(browser, asker);
  await a.goto('/assigned-risks');
  const row = a.getByRole('row').filter({ hasText: NAME });
  await row.getByRole('button', { name: /^Not sure about / }).click();
  const dialog = a.getByRole('dialog', { name: 'Not Sure? Ask Someone' });
  // Pasted or filled text opens the options too, and they are the people matching it, not the first of everyone
  // (many users exist by the time this spec runs).
  await dialog.getByRole('combobox').fill(`Answerer ${tag}`);
  await expect(a.getByRole('option')).toHaveCount(1);
  await a.getByRole('option', { name: new RegExp(`Ben Answerer ${tag}`) }).click();
  await dialog.getByLabel('Question').fill(QUESTION);
  await dialog.getByRole('button', { name: 'Send Question' }).click();
  await expect(toast(a, 'Question Sent')).toBeVisible();
  await expect(row).toContainText('Not sure');
  await expect(row).toContainText(`asked Ben Answerer ${tag}`);
  // Not a decision: the row is still pending, Retain and Remove still offered.
  await expect(row).toContainText('Pending');
  await expect(row.getByRole('button', { name: /^Retain / })).toBeVisible();

  // The person asked: the bell's notification links to the question, with the row and the answer box.
  const b = await signedInPage(browser, asked);
  await expect(bellButton(b)).toHaveAccessibleName(/Notifications, \d+ unread/);
  await bellButton(b).click();
  const popover = b.getByRole('dialog', { name: 'Notifications' });
  const item = popover.getByRole('listitem').filter({ hasText: 'A reviewer asks for your view' });
  // The bell clamps a long message: the question is behind 'See more'.
  await expect(item).toContainText(`is not sure about ${NAME}`);
  await item.getByRole('button', { name: 'See more' }).click();
  await expect(item).toContainText(QUESTION);
  await item.getByRole('link', { name: 'Open' }).click();
  await expect(b).toHaveURL(/\/questions\/[0-9a-f-]{36}$/);
  await expect(b.getByText(QUESTION)).toBeVisible();
  await expect(b.getByText(`${USER}`, { exact: false }).first()).toBeVisible();
  await expect(b.getByText('The Row (read-only)')).toBeVisible();
  // On a phone the page fits the screen.
  await b.setViewportSize({ width: 390, height: 844 });
  const box = b.getByLabel('Your answer');
  await box.fill(ANSWER);
  await expect(b.getByRole('button', { name: 'Send Answer' })).toBeInViewport({ ratio: 1 });
  await b.getByRole('button', { name: 'Send Answer' }).click();
  await expect(toast(b, 'Answer Sent')).toBeVisible();
  await expect(b.getByText(ANSWER)).toBeVisible();
  await expect(b.getByLabel('Your answer')).toHaveCount(0);
  expect(await b.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  // The asker sees the answer on the row; the decision is still theirs to make.
  await a.reload();
  const again = a.getByRole('row').filter({ hasText: NAME });
  await expect(again).toContainText(ANSWER);
  await expect(again).toContainText('Pending');
  await again.getByRole('button', { name: /^Retain / }).click();
  await expect(again).toContainText('Retain');
});
