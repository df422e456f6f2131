// A 1M-row CSV and a 200k-row XLSX made by the generator
// load through the browser with a live progress bar. Minutes of work, so it
// runs on demand, not in every CI run:
//   npm run test:e2e:large            (1,000,000 CSV rows, 200,000 XLSX rows)
//   E2E_LARGE_CSV_ROWS=… E2E_LARGE_XLSX_ROWS=… npm run test:e2e:large
// It prints the time each file took and the progress values the bar showed.
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { signInAsAdmin } from './helpers';
import { writeCsv, writeXlsx } from '../../scripts/gen-data';

const CSV_ROWS = Number(process.env.E2E_LARGE_CSV_ROWS ?? 1_000_000);
const XLSX_ROWS = Number(process.env.E2E_LARGE_XLSX_ROWS ?? 200_000);

test.skip(!process.env.E2E_LARGE, 'large uploads run with npm run test:e2e:large');
test.describe.configure({ mode: 'serial' });

async function generated(format: 'csv' | 'xlsx', rows: number): Promise<string> {
  const file = path.resolve(`data/bench-${rows}.${format}`);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    if (format === 'csv') writeCsv(file, rows);
    else await writeXlsx(file, rows);
  }
  return file;
}

/** Uploads a file through the page and samples the progress bar until it completes. */
async function uploadThroughBrowser(page: Page, file: string, rows: number) {
  await page.goto('/upload');
  await expect(page.getByRole('heading', { name: 'Data Upload', level: 1 })).toBeVisible();
  await page.getByRole('checkbox', { name: 'Send email notification on completion' }).uncheck();
  await page.getByLabel('Choose files to upload').setInputFiles(file);
  const t0 = Date.now();
  await page.getByRole('button', { name: 'Start Upload' }).click();
  // The card shows two phases, each with its own determinate bar: 'Sending file...' (the
  // browser's upload) then 'Processing...' (rows loaded, from the subscription).
  const seen: { phase: string; value: number }[] = [];
  for (;;) {
    // Label and bar read together, so a phase change between two reads cannot mix them.
    const snap = await page.evaluate(() => {
      const bar = document.querySelector('[role="progressbar"][aria-label="Upload progress"]');
      return { text: bar?.parentElement?.textContent ?? '', value: bar?.getAttribute('aria-valuenow') ?? null };
    });
    const now = Number(snap.value ?? NaN);
    const text = snap.text;
    const phase = /Sending file/.test(text) ? 'sending' : /Processing/.test(text) ? 'processing' : 'other';
    const last = seen[seen.length - 1];
    if (Number.isFinite(now) && (last?.value !== now || last?.phase !== phase)) seen.push({ phase, value: now });
    if (now === 100 && /Completed/.test(text)) break;
    if (/Failed/.test(text)) throw new Error(`upload failed: ${text}`);
    if (Date.now() - t0 > 25 * 60_000) throw new Error('upload did not finish within 25 minutes');
    await page.waitForTimeout(500);
  }
  const secs = (Date.now() - t0) / 1000;
  // The processing bar moved while the rows loaded, never backwards.
  const processing = seen.filter((s) => s.phase === 'processing').map((s) => s.value);
  const shown = seen.map((s) => `${s.phase} ${s.value.toFixed(0)}`).join(', ');
  expect(new Set(processing.filter((v) => v > 0 && v < 100)).size, `progress seen: ${shown}`).toBeGreaterThanOrEqual(3);
  expect(
    [...processing].sort((a, b) => a - b),
    `progress seen: ${shown}`,
  ).toEqual(processing);
  const between = processing.filter((v) => v > 0 && v < 100);
  const uploads = (await (await page.request.get('/api/uploads')).json()) as {
    originalName: string;
    status: string;
    recordCount: number;
    duplicatesSkipped?: number;
  }[];
  const mine = uploads.find((u) => u.originalName === path.basename(file));
  expect(mine?.status).toBe('completed');
  const detail = mine as { recordCount: number; duplicatesSkipped?: number };
  expect(detail.recordCount + (detail.duplicatesSkipped ?? 0)).toBe(rows);
  console.log(
    `${path.basename(file)}: ${rows.toLocaleString('en-US')} rows through the browser in ${secs.toFixed(0)} s ` +
      `(${Math.round(rows / secs).toLocaleString('en-US')} rows/s); the processing bar showed ${between.length} values between 0 and 100`,
  );
}

test(`a ${CSV_ROWS.toLocaleString('en-US')}-row CSV loads through the browser with a live progress bar`, async ({ page, request }) => {
  test.setTimeout(40 * 60_000);
  const file = await generated('csv', CSV_ROWS);
  await signInAsAdmin(page, request);
  await uploadThroughBrowser(page, file, CSV_ROWS);
});

test(`a ${XLSX_ROWS.toLocaleString('en-US')}-row XLSX loads through the browser with a live progress bar`, async ({ page, request }) => {
  test.setTimeout(40 * 60_000);
  const file = await generated('xlsx', XLSX_ROWS);
  await signInAsAdmin(page, request);
  await uploadThroughBrowser(page, file, XLSX_ROWS);
});
