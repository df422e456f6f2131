import { expect, test } from '@playwright/test';
import { ensureAdminSession, signInAsAdmin, toast } from './helpers';

// The review-period card's Recurring section: an administrator adds a
// quarterly template (its next period's name and date shown), is told what is
// wrong with a cron expression that never fires, switches it to a monthly
// schedule and deletes it, by keyboard where a form is filled, on a phone-wide
// screen too.
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
    await page.setViewportSize({ width, height: 900 });
    await signInAsAdmin(page, request);

    const section = page.getByRole('region', { name: 'Recurring review periods' });
    await expect(section).toContainText('No recurring periods');
    await section.getByRole('button', { name: 'Add recurring period' }).click();
    const add = page.getByRole('dialog', { name: 'Add Recurring Review Period' });
    const stamp = Date.now().toString(36);
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
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(toast(page, 'Success')).toContainText('Recurring period saved');
    await expect(section.getByRole('listitem').filter({ hasText: `SoD ${stamp}` })).toContainText('Monthly');

    await section.getByRole('button', { name: `Delete Q{quarter} {year} SoD ${stamp}` }).click();
    await page.getByRole('dialog', { name: 'Delete recurring period?' }).getByRole('button', { name: 'Delete' }).click();
    await expect(toast(page, 'Success')).toContainText('Recurring period deleted');
    await expect(section).toContainText('No recurring periods');
    // Nothing scrolls sideways on a phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  });
}
