// Loads risk rows from a JSON file into the configured database (DATA_DIR's
// PGlite or DATABASE_URL), migrating it first. Used by the browser tests to
// give the review screens data before the upload path exists; also handy for
// demos: `node --import tsx scripts/seed-rows.ts rows.json`.
import fs from 'node:fs';
import { loadConfig } from '../api/src/config.js';
import { createDatabase } from '../api/src/db/client.js';
import { migrate } from '../api/src/db/migrate.js';

interface Row {
  userId: string;
  userName?: string;
  userGroup?: string;
  accessRiskId: string;
  riskDescription?: string;
  riskLevel?: 'high' | 'medium' | 'low';
  ruleId?: string;
  system: string;
  roleProfile?: string;
  roleProfileDescription?: string;
  compositeBusinessRole?: string;
  compositeRoleDescription?: string;
  function?: string;
  functionDescription?: string;
  businessProcess?: string;
}

const file = process.argv[2];
if (!file) {
  console.error('usage: seed-rows.ts <rows.json>');
  process.exit(2);
}
const rows = JSON.parse(fs.readFileSync(file, 'utf8')) as Row[];
const config = loadConfig();
const db = await createDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir });
try {
  await migrate(db.sql);
  const r = await db.prisma.riskRow.createMany({
    data: rows.map((x) => ({
      userId: x.userId,
      userName: x.userName ?? '',
      userGroup: x.userGroup ?? '',
      accessRiskId: x.accessRiskId,
      riskDescription: x.riskDescription ?? '',
      riskLevel: x.riskLevel ?? 'high',
      riskLevelLabel: x.riskLevel ? x.riskLevel[0]!.toUpperCase() + x.riskLevel.slice(1) : 'High',
      ruleId: x.ruleId ?? '',
      system: x.system,
      roleProfile: x.roleProfile ?? '',
      roleProfileDescription: x.roleProfileDescription ?? '',
      compositeBusinessRole: x.compositeBusinessRole ?? '',
      compositeRoleDescription: x.compositeRoleDescription ?? '',
      function: x.function ?? '',
      functionDescription: x.functionDescription ?? '',
      businessProcess: x.businessProcess ?? '',
    })),
  });
  console.log(`[seed] loaded ${r.count} risk rows from ${file}`);
} finally {
  await db.close();
}
