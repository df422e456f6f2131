// `npm run reset-admin-password -- [--email admin@example.com]`: when the
// administrator's password is lost, gives them a generated one (printed once,
// to be changed at sign-in) and ends their sessions. Run where the server runs,
// with the same DATABASE_URL or DATA_DIR; the embedded database must not be in
// use (stop the server first). --email defaults to ADMIN_EMAIL.
import fs from 'node:fs';
import path from 'node:path';
import { arg } from './cli.js';
import { loadConfig } from '../api/src/config.js';
import { createDatabase } from '../api/src/db/client.js';
import { dataDirHolder } from '../api/src/db/data-dir-lock.js';
import { resetAdministratorPassword } from '../api/src/services/identity/users.js';
import { passwordNotice } from '../api/src/notice-box.js';
import { AppError } from '../api/src/core/errors.js';

function fail(message: string): never {
  console.error(`[reset-admin-password] ${message}`);
  process.exit(1);
}

const config = loadConfig(process.env);
const email = arg('email', config.ADMIN_EMAIL);
const dataDir = path.resolve(config.DATA_DIR);
if (!config.DATABASE_URL) {
  if (!fs.existsSync(path.join(dataDir, 'pgdata'))) fail(`no embedded database in ${dataDir} (DATA_DIR)`);
  const holder = dataDirHolder(dataDir);
  if (holder) fail(`the server (process ${holder}) is using ${dataDir}: stop it first, then run this again`);
}
const db = await createDatabase({ databaseUrl: config.DATABASE_URL, dataDir });
try {
  const done = await resetAdministratorPassword(db.prisma, email).catch((e: unknown) => fail(e instanceof AppError ? e.message : String(e)));
  console.log(passwordNotice(done.email, done.password));
} finally {
  await db.close();
}
