import fs from 'node:fs';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { signInAsAdmin } from './helpers';

/** The administrator chooses `file` on Data Upload and asks for its preview; returns the preview. */
async function openPreview(page: Page, request: APIRequestContext, file: string) {
  await signInAsAdmin(page, request);
  await page.goto('/upload');
  await page.getByLabel('Choose files to upload').setInputFiles(file);
  await page.getByRole('button', { name: 'Preview' }).click();
  return page.getByLabel('Preview', { exact: true });
}

// Preview before load: another tool's SoD report, whose user and
// risk columns the importer does not know, is previewed (nothing loaded), mapped column by
// column, saved as a profile and started; it completes, and says that the
// column left out was not loaded.
test('a report of another tool is previewed, mapped, saved as a profile and loaded', async ({ page, request }, testInfo) => {
  const tag = Date.now().toString(36).toUpperCase();
  const name = `vendor-${tag}.csv`;
  const note = `Note ${tag}`;
  const lines = [
    ['Account', 'Conflict', 'Severity', 'Role', 'System', note].join(','),
    [`V${tag}`, 'SOD-01', 'Critical', 'AP_CLERK', 'ERP-EU', 'ok'].join(','),
  ];
  const file = testInfo.outputPath(name);
  fs.writeFileSync(file, lines.join('\n') + '\n');

  const preview = await openPreview(page, request, file);
  await expect(preview).toContainText(`Preview: ${name}`);
  await expect(preview).toContainText('CSV · UTF-8 · comma-separated · header on row 1');
  await expect(preview.getByLabel('Cannot be loaded')).toContainText('Missing required columns: User ID, Access Risk ID. No rows were loaded.');
  await expect(preview.getByRole('button', { name: 'Start Upload' })).toBeDisabled();

  const mapping: [string, string][] = [
    ['Account', 'User ID'],
    ['Conflict', 'Access Risk ID'],
    ['Severity', 'Risk Level'],
  ];
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

// Where the header is: a workbook whose first sheet has a header too (a summary); the
// administrator picks the detail sheet and the header row, sees the rows of that sheet, and loads it.
test('the sheet and header row are chosen in the preview, and the load reads from there', async ({ page, request }, testInfo) => {
  const ExcelJS = (await import('exceljs')).default;
  const tag = Date.now().toString(36).toUpperCase();
  const name = `two-sheets-${tag}.xlsx`;
  const wb = new ExcelJS.Workbook();
  const summary = wb.addWorksheet('Summary');
  summary.addRow(['User ID', 'Access Risk ID', 'System', 'Role/Profile']);
  summary.addRow(['TOTAL', '*', '*', '*']);
  const detail = wb.addWorksheet('Detail');
  detail.addRow(['User ID', 'Detail of conflicts']);
  detail.addRow(['User ID', 'Access Risk ID', 'System', 'Role/Profile']);
  detail.addRow([`S${tag}`, 'R001', 'ERP', 'Z_A']);
  const file = testInfo.outputPath(name);
  fs.writeFileSync(file, Buffer.from(await wb.xlsx.writeBuffer()));

  const preview = await openPreview(page, request, file);
  await expect(preview).toContainText("XLSX · sheet 'Summary' of 2 · header on row 1");

  await preview.getByLabel('Sheet', { exact: true }).selectOption('Detail');
  // 'User ID' and 'Detail of conflicts' name too little to be the header: the next row is found.
  await expect(preview).toContainText("XLSX · sheet 'Detail' of 2 · header on row 2");
  await expect(preview.getByRole('table', { name: 'First rows' })).toContainText(`S${tag}`);

  await preview.getByLabel('Header row', { exact: true }).fill('1');
  await preview.getByRole('button', { name: 'Read header from this row' }).click();
  await expect(preview).toContainText("sheet 'Detail' of 2 · header on row 1");
  await expect(preview.getByLabel('Cannot be loaded')).toBeVisible();
  await preview.getByLabel('Header row', { exact: true }).fill('2');
  await preview.getByRole('button', { name: 'Read header from this row' }).click();
  await expect(preview).toContainText("sheet 'Detail' of 2 · header on row 2");
  await expect(preview.getByLabel('Cannot be loaded')).toHaveCount(0);

  await preview.getByRole('button', { name: 'Start Upload' }).click();
  const status = page.getByLabel('Upload Status', { exact: true });
  await expect(status).toContainText('Completed', { timeout: 30_000 });
  const uploads = await (await request.get('/api/uploads')).json();
  const mine = uploads.find((u: { originalName: string }) => u.originalName === name);
  expect(mine.sourceLayout).toMatchObject({ sheet: 'Detail', headerRow: 2 });
  expect(mine.recordCount).toBe(1);
});
