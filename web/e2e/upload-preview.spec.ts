import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { signInAsAdmin } from './helpers';

// Preview before load (issue 14): another tool's SoD report, whose user and
// risk columns the importer does not know, is previewed (nothing loaded), mapped column by
// column, saved as a profile and started; it completes, and says that the
// column left out was not loaded.
test('a report of another tool is previewed, mapped, saved as a profile and loaded', async ({ page, request }, testInfo) => {
  const tag = Date.now().toString(36).toUpperCase();
  const name = `vendor-${tag}.csv`;
  const note = `Note ${tag}`;
  const lines = [['Account', 'Conflict', 'Severity', 'Role', 'System', note].join(','), [`V${tag}`, 'SOD-01', 'Critical', 'AP_CLERK', 'ERP-EU', 'ok'].join(',')];
  const file = testInfo.outputPath(name);
  fs.writeFileSync(file, lines.join('\n') + '\n');

  await signInAsAdmin(page, request);
  await page.goto('/upload');
  await page.getByLabel('Choose files to upload').setInputFiles(file);
  await page.getByRole('button', { name: 'Preview' }).click();

  const preview = page.getByLabel('Preview', { exact: true });
  await expect(preview).toContainText(`Preview: ${name}`);
  await expect(preview).toContainText('CSV · UTF-8 · comma-separated · header on row 1');
  await expect(preview.getByLabel('Cannot be loaded')).toContainText('Missing required columns: User ID, Access Risk ID. No rows were loaded.');
  await expect(preview.getByRole('button', { name: 'Start Upload' })).toBeDisabled();

  const mapping: [string, string][] = [['Account', 'User ID'], ['Conflict', 'Access Risk ID'], ['Severity', 'Risk Level']];
  for (const [column, field] of mapping) {
    const select = preview.getByLabel(`Field for column ${column}`);
    await select.selectOption({ label: field });
    await expect(select).toBeEnabled();
    await expect(select).toHaveValue(/./);
  }
  await expect(preview.getByLabel('Cannot be loaded')).toHaveCount(0);
  const rows = preview.getByRole('table', { name: 'First rows' });
  await expect(rows).toContainText(`V${tag}`);
  await expect(rows).toContainText('high');
  await expect(preview.getByLabel('Columns not loaded')).toContainText(`Column '${note}' was not loaded`);

  await preview.getByLabel(/Save this mapping as a profile/).fill(`Vendor ${tag}`);
  await preview.getByRole('button', { name: 'Start Upload' }).click();
  await expect(preview).toHaveCount(0);

  const status = page.getByLabel('Upload Status', { exact: true });
  await expect(status).toContainText('Completed with warnings', { timeout: 30_000 });
  await expect(status.getByLabel('Warnings')).toContainText(`Column '${note}' was not loaded: the column mapping leaves it out.`);

  const profiles = await (await request.get('/api/mapping-profiles')).json();
  expect(profiles.map((p: { name: string }) => p.name)).toContain(`Vendor ${tag}`);
});
