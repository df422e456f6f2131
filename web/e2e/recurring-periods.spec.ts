import { expect, test } from '@playwright/test';
import { createActiveUser, ensureAdminSession, signInAsAdmin, toast } from './helpers';

// The review-period card's Recurring section: an administrator adds a
// quarterly template (its next period's name and date shown), is told what is
// wrong with a cron expression that never fires, switches it to a monthly
// schedule with a second stage (its deadline in days after each period
// opens, a deadline past the periods' end refused) and deletes it, by
// keyboard where a form is filled, on a phone-wide screen too.
function nextQuarter(d: Date): Date {
  const q = Math.floor(d.getUTCMonth() / 3) * 3 + 3;
  return new Date(Date.UTC(d.getUTCFullYear() + (q > 11 ? 1 : 0), q % 12, 1));
}

for (const width of [1280, 390]) {
  test(`an administrator adds, changes and deletes a recurring review period (${width} px)`, async ({ page, request }) => {
    await ensureAdminSession(request);
    const listed = await request.get('/api/review-period-templates');
    expect(listed.ok(), `list templates: ${listed.status()} ${await listed.text()}`).toBeTruthy();
    for (const t of (await listed.json()) as { id: string }[]) {
      await request.delete(`/api/review-period-templates/${t.id}`);
    }
    const stamp = Date.now().toString(36);
    const owner = await createActiveUser(request, { role: 'reviewer', firstName: 'Rita', lastName: `Owner${stamp}` });
    await page.setViewportSize({ width, height: 900 });
    await signInAsAdmin(page, request);

    const section = page.getByRole('region', { name: 'Recurring review periods' });
    await expect(section).toContainText('No recurring periods');
    await section.getByRole('button', { name: 'Add recurring period' }).click();
    const add = page.getByRole('dialog', { name: 'Add Recurring Review Period' });
    await add.getByLabel(/^Name pattern/).fill(`Q{quarter} {year} SoD ${stamp}`);
    await add.getByLabel(/^Runs for/).fill('30');
    await add.getByLabel(/^Name pattern/).press('Enter');
    await expect(toast(page, 'Success')).toContainText('Recurring period added');
    const first = nextQuarter(new Date());
    const name = `Q${Math.floor(first.getUTCMonth() / 3) + 1} ${first.getUTCFullYear()} SoD ${stamp}`;
    const row = section.getByRole('listitem').filter({ hasText: name });
    await expect(row).toContainText('Quarterly');

    await row.getByRole('button', { name: /^Edit/ }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Recurring Review Period' });
    await edit.getByLabel(/^Schedule/).selectOption({ label: 'Cron expression' });
    await edit.getByLabel(/^Cron expression/).fill('0 0 30 2 *');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(edit.getByText("The cron expression '0 0 30 2 *' never fires: it has no occurrence within the next 5 years")).toBeVisible();
    await edit.getByLabel(/^Schedule/).selectOption({ label: 'Monthly (1st of each month)' });
    // A second stage, reviewed by a listed reviewer, its deadline in days after each period opens.
    const stages = edit.getByRole('region', { name: 'Stages' });
    await expect(stages.getByRole('group', { name: 'Stage 1' }).getByLabel(/^Stage name/)).toHaveValue('Reviewer');
    await stages.getByRole('button', { name: 'Add Stage' }).click();
    const stage2 = stages.getByRole('group', { name: 'Stage 2' });
    await stage2.getByLabel(/^Stage name/).fill('Risk owner');
    await stage2.getByRole('combobox', { name: /^Reviewers/ }).click();
    await stage2.getByRole('menuitemcheckbox', { name: new RegExp(`Rita Owner${stamp}`) }).click();
    // Closed by its own button: a long list may open upwards, over the fields above it.
    await stage2.getByRole('button', { name: 'Open' }).click();
    await expect(stage2.getByRole('combobox', { name: /^Reviewers/ })).toHaveAttribute('aria-expanded', 'false');
    await expect(stage2.getByLabel(/^Deadline/)).toHaveAttribute('type', 'number');
    await stage2.getByLabel(/^Deadline/).fill('40');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(edit.getByText("Stage 2 ('Risk owner') ends after the period's end date")).toBeVisible();
    await stage2.getByLabel(/^Deadline/).fill('20');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(toast(page, 'Success')).toContainText('Recurring period saved');
    await expect(section.getByRole('listitem').filter({ hasText: `SoD ${stamp}` })).toContainText('Monthly');
    await expect(section.getByRole('listitem').filter({ hasText: `SoD ${stamp}` })).toContainText('2 stages: Reviewer, Risk owner');
    const saved = ((await (await request.get('/api/review-period-templates')).json()) as { namePattern: string; stages: unknown }[]).find((t) =>
      t.namePattern.endsWith(stamp),
    );
    expect(saved?.stages).toEqual([
      expect.objectContaining({ name: 'Reviewer', endDays: null }),
      expect.objectContaining({ name: 'Risk owner', passOn: 'all', endDays: 20, reviewers: { type: 'users', userIds: [owner.user.id] } }),
    ]);
    // Opened again, the dialog shows the stages as saved.
    await section.getByRole('button', { name: `Edit Q{quarter} {year} SoD ${stamp}` }).click();
    const again = page.getByRole('dialog', { name: 'Edit Recurring Review Period' });
    const savedStage2 = again.getByRole('region', { name: 'Stages' }).getByRole('group', { name: 'Stage 2' });
    await expect(savedStage2.getByLabel(/^Stage name/)).toHaveValue('Risk owner');
    await expect(savedStage2.getByLabel(/^Deadline/)).toHaveValue('20');
    await again.getByRole('button', { name: 'Cancel' }).click();

    await section.getByRole('button', { name: `Delete Q{quarter} {year} SoD ${stamp}` }).click();
    await page.getByRole('dialog', { name: 'Delete recurring period?' }).getByRole('button', { name: 'Delete' }).click();
    await expect(toast(page, 'Success')).toContainText('Recurring period deleted');
    await expect(section).toContainText('No recurring periods');
    // Nothing scrolls sideways on a phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  });
}
