// Loads risk rows from a JSON file into the configured database (DATA_DIR's
// PGlite or DATABASE_URL), migrating it first. Used by the browser tests to
// give the review screens data before the upload path exists; also handy for
// demos: `node --import tsx scripts/seed-rows.ts rows.json`.
import fs from 'node:fs';
import { loadConfig } from '../api/src/config.js';
import { createDatabase } from '../api/src/db/client.js';
import { migrate } from '../api/src/db/migrate.js';
import { riskRowData, type SeedRow } from '../api/src/db/seed-rows.js';

const file = process.argv[2];
if (!file) {
  console.error('usage: seed-rows.ts <rows.json>');
  process.exit(2);
}
const rows = JSON.parse(fs.readFileSync(file, 'utf8')) as SeedRow[];
const config = loadConfig();
const db = await createDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir });
try {
  await migrate(db.sql);
  const r = await db.prisma.riskRow.createMany({ data: rows.map((x) => riskRowData(x)) });
  console.log(`[seed] loaded ${r.count} risk rows from ${file}`);
} finally {
  await db.close();
}
