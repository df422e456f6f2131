import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { signInAsAdmin, toast } from './helpers';
import { dialogViolations } from './axe';

const HEADER = 'User ID,User Name,User Group,Access Risk ID,Risk Description,Risk Level,Rule ID,System,Role/Profile,Composite/Business Role';
const LEVELS = ['High', 'Medium', 'Low', 'Critical'];

/** A small Access Risk Analysis export; user ids carry `tag`, so reruns against one database never look like duplicates. */
function csv(tag: string, rows: number, override?: { row: number; level: string }): string {
  const lines = [HEADER];
  for (let i = 1; i <= rows; i++) {
    const level = override && override.row === i ? override.level : LEVELS[i % LEVELS.length];
    lines.push(
      [
        `E2E${tag}${String(i).padStart(5, '0')}`,
        `Upload Tester ${i}`,
        'FIN',
        `FI${String(i % 40).padStart(3, '0')}`,
        `Finance: conflicting access ${i % 40}`,
        level,
        `0${1 + (i % 3)}${String(i % 99).padStart(2, '0')}`,
        'SAP ERP',
        `Z_FI_CLERK_${i % 25}`,
        i % 3 ? `ZC_FIN_${i % 10}` : '',
      ].join(','),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** Records every toast title shown, since one replaces another (SPEC §9: one at a time). */
async function recordToasts(page: Page) {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __toasts: string[] }).__toasts = seen;
    new MutationObserver(() => {
      for (const el of Array.from(document.querySelectorAll('.fui-Toast'))) {
        const text = (el.textContent ?? '').trim();
        if (text && !seen.includes(text)) seen.push(text);
      }
    }).observe(document, { childList: true, subtree: true, characterData: true });
  });
}

async function toastsSeen(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __toasts: string[] }).__toasts);
}

async function openUpload(page: Page) {
  await page.goto('/upload');
  await expect(page.getByRole('heading', { name: 'Data Upload', level: 1 })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Upload History' })).toBeVisible();
}

function historyRow(page: Page, fileName: string) {
  return page.getByRole('table', { name: 'Upload History' }).getByRole('row').filter({ hasText: fileName });
}

test('an admin uploads a CSV, follows its progress to 100% and reads its details', async ({ page, request }, testInfo) => {
  const tag = Date.now().toString(36).toUpperCase();
  const name = `access-risks-${tag}.csv`;
  const file = testInfo.outputPath(name);
  fs.writeFileSync(file, csv(tag, 5000));
  const size = fs.statSync(file).size;

  await recordToasts(page);
  await signInAsAdmin(page, request);
  await openUpload(page);

  // The defaults of SPEC §2.
  await expect(page.getByRole('radio', { name: 'Append to existing data' })).toBeChecked();
  await expect(page.getByRole('radio', { name: 'Replace existing data' })).not.toBeChecked();
  await expect(page.getByRole('checkbox', { name: 'Skip duplicate records' })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: 'Send email notification on completion' })).toBeChecked();
  const batch = page.getByLabel('Batch Size');
  await expect(batch.locator('option')).toHaveText(['5,000 records', '10,000 records', '25,000 records', '50,000 records', '100,000 records']);
  await expect(batch).toHaveValue('50000');
  await expect(page.getByRole('button', { name: 'Start Upload' })).toBeDisabled();

  await page.getByLabel('Choose files to upload').setInputFiles(file);
  const selected = page.getByRole('list', { name: 'Selected files' });
  await expect(selected).toContainText(name);
  // Estimated records: bytes / 500.
  await expect(selected).toContainText(`~${Math.round(size / 500).toLocaleString('en-US')} records (estimated)`);
  await batch.selectOption('5000');

  await page.getByRole('button', { name: 'Start Upload' }).click();

  const status = page.getByLabel('Upload Status', { exact: true });
  const bar = page.getByRole('progressbar', { name: 'Upload progress' });
  await expect(bar).toHaveAttribute('aria-valuenow', '100', { timeout: 30_000 });
  await expect(status.getByTestId('upload-percent')).toHaveText('100%');
  await expect(status).toContainText('Completed');
  // The upload's phase is a live region, so a screen reader hears it move.
  await expect(status.locator('[aria-live="polite"]')).toHaveText('Completed');
  await expect(status).toContainText('5,000');
  await expect
    .poll(() => toastsSeen(page), { timeout: 20_000 })
    .toEqual(expect.arrayContaining([expect.stringContaining('Upload Started'), expect.stringContaining('Upload Complete')]));
  expect((await toastsSeen(page)).find((t) => t.includes('Upload Complete'))).toContain('File processed successfully, 5,000 records imported');
  expect((await toastsSeen(page)).find((t) => t.includes('Upload Started'))).toContain('Your file has been uploaded and queued for processing');

  // The history row: Completed, with its record count.
  const row = historyRow(page, name);
  await expect(row).toHaveCount(1);
  await expect(row.getByRole('cell').nth(1)).toHaveText('5,000');
  await expect(row.getByRole('cell').nth(2)).toHaveText('Completed');
  await expect(row.getByRole('button', { name: 'Retry' })).toHaveCount(0);

  // View Details: counts, options and the column mapping.
  await row.getByRole('button', { name: 'View Details' }).click();
  const dialog = page.getByRole('dialog', { name: 'Upload Details' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(name);
  // axe on the Upload Details dialog.
  const axeFound = await dialogViolations(page, 'Upload Details');
  expect(axeFound, axeFound.join('\n')).toEqual([]);
  await expect(dialog.getByRole('definition').first()).toHaveText('5,000');
  await expect(dialog).toContainText('Append to existing data');
  await expect(dialog).toContainText('5,000 records');
  const mapping = dialog.getByRole('table', { name: 'Column mapping' });
  await expect(mapping.getByRole('row').filter({ hasText: 'User ID' })).toContainText('userId');
  await expect(mapping.getByRole('row').filter({ hasText: 'Risk Level' })).toContainText('riskLevel');
  await expect(mapping.getByRole('row').filter({ hasText: 'Composite/Business Role' })).toContainText('compositeBusinessRole');
  await expect(mapping.getByRole('row')).toHaveCount(11); // header + 10 columns
  await expect(dialog).toContainText('None: every column was recognised.');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
});

test('a file with an illegal risk level fails with the row and column, and can be retried', async ({ page, request }, testInfo) => {
  const tag = Date.now().toString(36).toUpperCase();
  const name = `bad-levels-${tag}.csv`;
  const file = testInfo.outputPath(name);
  fs.writeFileSync(file, csv(tag, 20, { row: 7, level: 'Severe' }));
  const problem = "column 'Risk Level': 'Severe' is not a risk level (use Critical, High, Medium or Low).";

  await recordToasts(page);
  await signInAsAdmin(page, request);
  await openUpload(page);

  await page.getByLabel('Choose files to upload').setInputFiles(file);
  await page.getByRole('button', { name: 'Start Upload' }).click();

  await expect(toast(page, 'Upload Failed')).toContainText(problem, { timeout: 30_000 });
  await expect(toast(page, 'Upload Failed')).toContainText(/Row \d+/);
  const status = page.getByLabel('Upload Status', { exact: true });
  await expect(status).toContainText('Failed');
  await expect(status).toContainText(problem);

  const row = historyRow(page, name);
  await expect(row.getByRole('cell').nth(2)).toHaveText('Failed');
  await expect(row.getByRole('cell').nth(1)).toHaveText('—');
  await expect(row.getByRole('button', { name: 'Retry' })).toBeVisible();

  await row.getByRole('button', { name: 'View Details' }).click();
  const dialog = page.getByRole('dialog', { name: 'Upload Details' });
  await expect(dialog).toContainText(problem);
  await expect(dialog.getByRole('table', { name: 'Column mapping' })).toContainText('riskLevel');
  await expect(dialog.getByRole('button', { name: 'Retry' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();

  // Retry re-runs it from the stored file: it is queued again, and fails again for the same reason.
  await row.getByRole('button', { name: 'Retry' }).click();
  await expect.poll(() => toastsSeen(page), { timeout: 20_000 }).toEqual(expect.arrayContaining([expect.stringContaining('Retry Started')]));
  await expect(status).toContainText('Retry');
  await expect(toast(page, 'Upload Failed')).toContainText(problem, { timeout: 30_000 });
  await expect(row.getByRole('cell').nth(2)).toHaveText('Failed');
});

test('files of other types are refused in the browser and never sent', async ({ page, request }) => {
  await signInAsAdmin(page, request);
  await openUpload(page);
  const posted: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/upload') posted.push(r.url());
  });

  await page.getByLabel('Choose files to upload').setInputFiles({
    name: 'notes.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('not an export\n'),
  });
  await expect(toast(page, 'Unsupported File Type')).toContainText("'notes.txt' cannot be uploaded. Choose a .csv, .xlsx or .xls file.");
  await expect(page.getByRole('list', { name: 'Selected files' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Start Upload' })).toBeDisabled();

  // Several files: the accepted ones are listed, and only the first is uploaded.
  await page.getByLabel('Choose files to upload').setInputFiles([
    { name: 'first.csv', mimeType: 'text/csv', buffer: Buffer.from(`${HEADER}\r\n`) },
    { name: 'second.xlsx', mimeType: 'application/octet-stream', buffer: Buffer.from('PK') },
  ]);
  const selected = page.getByRole('list', { name: 'Selected files' });
  await expect(selected.getByRole('listitem')).toHaveCount(2);
  await expect(selected.getByRole('listitem').first()).toContainText('To upload');
  await expect(selected.getByRole('listitem').nth(1)).toContainText('Not uploaded');

  // Over 2 GB is refused before sending, naming the limit; over 500 MB warns that it may take several minutes.
  const drop = async (name: string, size: number) =>
    page.getByRole('group', { name: 'Drag and drop files here or browse' }).evaluate(
      (zone, [fileName, fileSize]) => {
        const f = new File(['x'], fileName as string, { type: 'text/csv' });
        Object.defineProperty(f, 'size', { value: fileSize });
        const dt = new DataTransfer();
        dt.items.add(f);
        const files = [f];
        Object.defineProperty(dt, 'files', { value: files });
        zone.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
      },
      [name, size] as const,
    );
  await drop('huge.csv', 3 * 1024 ** 3);
  await expect(toast(page, 'File Too Large')).toContainText('2GB');
  await expect(selected).not.toContainText('huge.csv');
  await drop('big.csv', 600 * 1024 ** 2);
  await expect(page.getByRole('list', { name: 'Selected files' })).toContainText('big.csv');
  await expect(page.getByText('The upload may take several minutes', { exact: false })).toBeVisible();

  expect(posted).toEqual([]);
});
