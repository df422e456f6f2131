import { expect, test, type Browser, type Page } from '@playwright/test';
import { createActiveUser, ensureAdminSession, signInAsAdmin, signInThroughForm, toast, type Credentials } from './helpers';
import { closeActivePeriod, createAssignmentRest, shot, tileValue, uniqueName } from './review-helpers';

// A two-stage review period in the browser: the administrator configures the
// stages in the create dialog (at 390 px, with the preview), the stage-1
// reviewer (fixtures/risk-rows.json: user U1004's rows) retains them all and
// submits, the stage-2 reviewer reads each row's stage-1 decision, confirms
// one and overturns another (the comment asked for first) and submits;
// Reviewer Status charts both stages and the evidence lists a line per row
// and stage with 'Stage' and 'Final'. The spec sorts after the specs that
// count the fixture rows (all-reviews, everyday-flows, risk-queue); it
// closes its period and deletes its assignment when done.
const PHONE = { width: 390, height: 844 };

const rowsOf = (page: Page) => page.getByRole('table', { name: 'Assigned risks' }).locator('tbody tr');

async function reviewerPage(browser: Browser, who: Credentials): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await signInThroughForm(page, who.email, who.password);
  await expect(page.getByRole('heading', { name: 'Risk Management Dashboard' })).toBeVisible();
  await page.goto('/risk-review');
  await expect(page.getByRole('heading', { name: 'My Assigned Risks', level: 1 })).toBeVisible();
  return page;
}

/** The Decisions part of the period's evidence CSV as records (admin session on the test's request). */
function decisionRecords(csv: string): Record<string, string>[] {
  const part = csv
    .replace(/^\uFEFF/, '')
    .split(/\r?\n\r?\n/)
    .find((p) => p.startsWith('Decisions'))!;
  const lines = part.split(/\r?\n/).slice(1).filter(Boolean);
  const cells = (line: string) => [...line.matchAll(/("([^"]|"")*"|[^,]*)(,|$)/g)].map((m) => m[1]!.replace(/^"|"$/g, '').replace(/""/g, '"')).slice(0, -1);
  const header = cells(lines[0]!);
  return lines.slice(1).map((l) => Object.fromEntries(cells(l).map((v, i) => [header[i], v])));
}

test('a two-stage period: configured with its preview, decided at stage 1, confirmed and overturned at stage 2, in the evidence', async ({
  browser,
  request,
}) => {
  test.setTimeout(300_000);
  await ensureAdminSession(request);
  const stamp = Date.now().toString(36);
  const first = await createActiveUser(request, { role: 'reviewer', firstName: 'Stella', lastName: `First${stamp}` });
  const second = await createActiveUser(request, { role: 'reviewer', firstName: 'Otto', lastName: `Owner${stamp}` });
  const assignment = await createAssignmentRest(request, { reviewerId: first.user.id, criteriaType: 'user_id', criteriaValue: 'U1004' });
  await closeActivePeriod(request);

  const adminContext = await browser.newContext({ viewport: PHONE });
  const admin = await adminContext.newPage();
  try {
    // The administrator configures two stages at 390 px; the preview follows them.
    await signInAsAdmin(admin, request);
    await admin.getByRole('button', { name: 'Create New Review Period' }).click();
    const create = admin.getByRole('dialog', { name: 'Create New Review Period' });
    const periodName = uniqueName('Two-stage review');
    await create.getByLabel(/^Name/).fill(periodName);
    const stages = create.getByRole('region', { name: 'Stages' });
    const stage1 = stages.getByRole('group', { name: 'Stage 1' });
    await expect(stage1.getByLabel(/^Stage name/)).toHaveValue('Reviewer');
    await expect(stage1).toContainText('Who reviews: the assignment criteria');
    await stages.getByRole('button', { name: 'Add Stage' }).click();
    const stage2 = stages.getByRole('group', { name: 'Stage 2' });
    await stage2.getByLabel(/^Stage name/).fill('Risk owner');
    await expect(stage2.getByRole('radio', { name: 'Users' })).toBeChecked();
    await expect(stage2.getByRole('radio', { name: 'Business process owner' })).toBeVisible();
    const picker = stage2.getByRole('combobox', { name: /^Reviewers/ });
    await picker.click();
    // A multiselect combobox offers its options as checkable menu items.
    await stage2.getByRole('menuitemcheckbox', { name: new RegExp(`Otto Owner${stamp}`) }).click();
    await stage2.getByLabel(/^Stage name/).click();
    await expect(picker).toHaveValue(new RegExp(`Otto Owner${stamp}`));
    await stage2.getByLabel(/^Passes on/).selectOption({ label: 'All decisions' });
    // At most three stages; a stage removed by keyboard leaves the focus on 'Add Stage'.
    await stages.getByRole('button', { name: 'Add Stage' }).click();
    const stage3 = stages.getByRole('group', { name: 'Stage 3' });
    await expect(stage3.getByLabel(/^Passes on/)).toHaveValue('ALL');
    await expect(stages.getByRole('button', { name: 'Add Stage' })).toHaveCount(0);
    await stage3.getByRole('button', { name: 'Remove Stage 3' }).focus();
    await admin.keyboard.press('Enter');
    await expect(stage3).toHaveCount(0);
    await expect(stages.getByRole('button', { name: 'Add Stage' })).toBeFocused();
    const preview = create.getByRole('region', { name: 'Preview' });
    await expect(preview).toContainText('Stage 1 (Reviewer): conflicts per reviewer');
    await expect(preview.getByRole('list', { name: 'Conflicts per reviewer in stage 1' })).toContainText(`Stella First${stamp}`);
    await expect(preview).toContainText(new RegExp(`Stage 2 \\(Risk owner\\): Otto Owner${stamp} up to \\d+`));
    const widths = await admin.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
    expect(widths.scroll).toBeLessThanOrEqual(widths.client);
    await shot(admin, 'stages-create-390');
    await create.getByRole('button', { name: 'Create & Activate' }).click();
    await expect(toast(admin, 'Success')).toContainText('Review period created and activated');
    const periodId = ((await (await request.get('/api/review-periods/active')).json()) as { id: string }).id;
    const planned = (await (await request.get(`/api/review-periods/${periodId}/stages`)).json()) as { name: string; reviewers: { type: string } }[];
    expect(planned.map((s) => [s.name, s.reviewers.type])).toEqual([
      ['Reviewer', 'criteria'],
      ['Risk owner', 'users'],
    ]);

    // Stage 1: the reviewer retains every row and submits.
    const rev1 = await reviewerPage(browser, first);
    await expect(rowsOf(rev1).first()).toBeVisible();
    const count = Number(await tileValue(rev1, 'Total Assigned'));
    expect(count).toBeGreaterThan(1);
    await expect(rowsOf(rev1)).toHaveCount(count);
    await expect(rowsOf(rev1).first()).not.toContainText('Stage 2');
    await rev1.getByRole('checkbox', { name: 'Select all risks on this page' }).check();
    await rev1.getByRole('button', { name: `Retain Selected (${count})` }).click();
    await expect(toast(rev1, 'Decision Submitted')).toContainText(`${count} risks marked Retain`);
    await rev1.getByRole('button', { name: 'Submit All Decisions' }).click();
    await expect(toast(rev1, 'Decisions Submitted')).toContainText(`${count} review decisions passed on to stage 2 (Risk owner)`);
    // The stage-1 reviewer reads where their decisions went; recall is offered while stage 2 has decided none of them.
    await expect(rev1.getByText('Submitted — passed on to stage 2 (Risk owner)', { exact: true })).toBeVisible();
    await expect(rev1.getByText('Submitted for Approval', { exact: true })).toHaveCount(0);
    await expect(rev1.getByRole('button', { name: 'Recall for Editing' })).toBeVisible();

    // Stage 2: each row shows its stage and the stage-1 decision; one confirmed, one overturned with a comment.
    const rev2 = await reviewerPage(browser, second);
    await expect(rev2.getByText('Stage 2 (Risk owner): no decisions yet', { exact: true })).toBeVisible();
    await expect(rowsOf(rev2)).toHaveCount(count);
    // A later stage works in the list: no composite view of stage 1's rows; 'Decide all' says it confirms or overturns.
    await expect(rev2.getByRole('tab', { name: 'By Composite Role' })).toHaveCount(0);
    await rev2.getByRole('button', { name: `Decide all ${count} matching` }).click();
    const all = rev2.getByRole('dialog', { name: 'Decide all matching risks' });
    await expect(all).toContainText("It confirms or overturns stage 1's decision on each of them; an overturn needs a comment.");
    await all.getByRole('button', { name: 'Cancel' }).click();
    await expect(all).toHaveCount(0);
    const [confirmed, overturned] = [rowsOf(rev2).nth(0), rowsOf(rev2).nth(1)];
    const earlier = confirmed.getByRole('list', { name: 'Earlier decisions' });
    await expect(confirmed).toContainText('Stage 2');
    await expect(earlier).toContainText('Stage 1: Retain');
    await expect(earlier).toContainText(`by Stella First${stamp}`);
    await confirmed.getByRole('button', { name: /^Confirm Retain for / }).click();
    await expect(toast(rev2, 'Decision Submitted')).toBeVisible();
    await expect(confirmed.getByRole('button', { name: /^Change decision for / })).toBeVisible();
    // Stage 2 decided a row of the set: the stage-1 reviewer is no longer offered a recall the server would refuse.
    await rev1.reload();
    await expect(rev1.getByText('Submitted — passed on to stage 2 (Risk owner)', { exact: true })).toBeVisible();
    await expect(rev1.getByText(/can no longer be recalled/)).toBeVisible();
    await expect(rev1.getByRole('button', { name: 'Recall for Editing' })).toHaveCount(0);
    await rev1.context().close();

    await overturned.getByRole('button', { name: /^Overturn to Remove for / }).click();
    const ask = rev2.getByRole('dialog', { name: 'Remove with a comment' });
    await shot(rev2, 'stages-overturn-1280');
    await expect(ask).toContainText(`Overturning stage 1's decision (Retain by Stella First${stamp}) needs a comment`);
    const save = ask.getByRole('button', { name: 'Remove (1)' });
    await expect(save).toBeDisabled();
    await ask.getByLabel(/^Justification comment/).fill('No longer buys for the plant');
    await save.click();
    await expect(toast(rev2, 'Decision Submitted')).toBeVisible();
    await expect(overturned).toContainText('Remove');
    await expect(rev2.getByText('Stage 2 (Risk owner): 2 decisions ready', { exact: true })).toBeVisible();
    await rev2.getByRole('button', { name: 'Submit All Decisions' }).click();
    await expect(toast(rev2, 'Decisions Submitted')).toContainText('2 decisions of Stage 2 (Risk owner) submitted');
    await expect(rev2.getByText('Stage 2 (Risk owner) submitted', { exact: true })).toBeVisible();
    await expect(overturned).toContainText('Locked');
    await shot(rev2, 'stages-stage2-1280');
    // At 390 px the rows are cards, each with its stage and the earlier decision, and nothing scrolls sideways.
    await rev2.setViewportSize(PHONE);
    await expect(overturned.getByRole('list', { name: 'Earlier decisions' })).toContainText('Stage 1: Retain');
    await expect(overturned).toContainText('Remove');
    const phone = await rev2.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
    expect(phone.scroll).toBeLessThanOrEqual(phone.client);
    await shot(rev2, 'stages-stage2-390');
    await rev2.context().close();

    // Reviewer Status: a bar and the figures per stage.
    await admin.setViewportSize({ width: 1280, height: 800 });
    await admin.goto('/risk-review');
    await admin.getByRole('tab', { name: 'Reviewer Status' }).click();
    const progress = admin.getByRole('list', { name: 'Progress by stage' });
    await expect(progress.getByRole('listitem').nth(0)).toContainText(`Stage 1 · Reviewer`);
    await expect(progress.getByRole('listitem').nth(1)).toContainText(`Stage 2 · Risk owner`);
    await expect(progress.getByRole('listitem').nth(1)).toContainText(`2 of ${count} decided`);
    await expect(progress.getByRole('listitem').nth(1)).toContainText('1 submitted');
    await expect(admin.getByRole('group', { name: 'Decided conflicts per stage chart' })).toBeVisible();
    await shot(admin, 'stages-status-1280');

    // The evidence: a line per row and stage; the stage-2 decision is final where there is one.
    const csv = await request.get(`/api/reports/evidence?periodId=${periodId}&format=csv`);
    expect(csv.ok(), await csv.text()).toBeTruthy();
    const records = decisionRecords(await csv.text()).filter((r) => r['User ID'] === 'U1004');
    expect(Object.keys(records[0] ?? {})).toEqual(expect.arrayContaining(['Stage', 'Final', 'Decision', 'Comments']));
    // A row's lines come together, stage by stage: each stage-2 line follows its row's stage-1 line, which no longer stands.
    const staged = records.flatMap((r, i) => (r['Stage'] === '2' ? [[records[i - 1]!, r] as const] : []));
    expect(
      staged.map(([one, two]) => [
        one['Access Risk ID'] === two['Access Risk ID'] && one['Role/Profile'] === two['Role/Profile'],
        one['Stage'],
        one['Decision'],
        one['Final'],
        two['Decision'],
        two['Final'],
        two['Comments'],
      ]),
    ).toEqual(
      expect.arrayContaining([
        [true, '1', 'retain', 'no', 'retain', 'yes', ''],
        [true, '1', 'retain', 'no', 'remove', 'yes', 'No longer buys for the plant'],
      ]),
    );
    expect(staged).toHaveLength(2);
    // The rows stage 2 did not decide keep their stage-1 decision.
    expect(records.filter((r) => r['Stage'] === '1').map((r) => r['Final'])).toEqual(expect.arrayContaining(Array(count - 2).fill('yes')));
    expect(records.filter((r) => r['Stage'] === '1' && r['Final'] === 'yes')).toHaveLength(count - 2);
  } finally {
    await adminContext.close();
    await closeActivePeriod(request);
    expect((await request.delete(`/api/assignment-criteria/${assignment.id}`)).ok()).toBeTruthy();
  }
});
