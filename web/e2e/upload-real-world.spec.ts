import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { signInAsAdmin } from './helpers';

// A French export as Excel saves 'CSV' on Windows: Windows-1252, semicolons,
// SAP's title and report parameters above the header, a column the product
// does not know. It loads as 'Completed with warnings', and View Details
// shows what was found in the file.
test("a French Windows-1252 export with title lines completes with warnings, and View Details shows the file's layout", async ({ page, request }, testInfo) => {
  const tag = Date.now().toString(36).toUpperCase();
  const name = `analyse-${tag}.csv`;
  const lines = [
    'Analyse des risques',
    'Système;PRD',
    '',
    [
      'ID utilisateur',
      'Nom utilisateur',
      "ID de risque d'accès",
      'Niveau de risque',
      'Système',
      'Rôle/Profil',
      'Rôle utilisateur/composite',
      'Comptage des exécutions',
      'Centre de coût',
    ].join(';'),
    [`FR${tag}1`, 'Chloé Dubois', 'F001', 'Élevé', 'PRD', 'Z_FI_AP', 'ZC_FIN', '313,5', 'CC1'].join(';'),
    [`FR${tag}2`, 'Hugo Lefèvre', 'H002', 'Faible', 'PRD', 'Z_HR', '', 'beaucoup', 'CC2'].join(';'),
  ];
  const file = testInfo.outputPath(name);
  fs.writeFileSync(file, Buffer.from(lines.join('\r\n') + '\r\n', 'latin1'));

  await signInAsAdmin(page, request);
  await page.goto('/upload');
  await page.getByLabel('Choose files to upload').setInputFiles(file);
  await page.getByRole('button', { name: 'Start Upload' }).click();

  const status = page.getByLabel('Upload Status', { exact: true });
  await expect(status).toContainText('Completed with warnings', { timeout: 30_000 });
  await expect(status.getByLabel('Warnings')).toContainText("Column 'Centre de coût' was not loaded: its name matches no field.");
  await expect(status.getByLabel('Warnings')).toContainText("Row 6, column 'Comptage des exécutions': 'beaucoup' is not a number");

  const row = page.getByRole('table', { name: 'Upload History' }).getByRole('row').filter({ hasText: name });
  await expect(row.getByRole('cell').nth(2)).toHaveText('Completed with warnings', { timeout: 15_000 });
  await row.getByRole('button', { name: 'View Details' }).click();
  const dialog = page.getByRole('dialog', { name: 'Upload Details' });
  const layout = dialog.getByRole('region', { name: 'File layout' });
  await expect(layout).toContainText('Encoding');
  await expect(layout).toContainText('Windows-1252');
  await expect(layout).toContainText('Semicolon');
  await expect(layout).toContainText('Row 4 (the rows above it were skipped)');
  await expect(layout).toContainText('Comma');
  await expect(dialog.getByLabel('Warnings')).toContainText('Centre de coût');
  await expect(dialog).toContainText('Rôle utilisateur/composite');
});
