// `npm run restore -- FILE [--force]`: puts a backup made by `npm run backup`
// back into DATA_DIR, while no server uses it. A DATA_DIR that holds data is
// kept aside as DATA_DIR.before-restore-<time> (only with --force), so a
// restore never destroys anything. The restored database is opened once to
// check it before the command reports success.
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { dataDirHolder } from '../api/src/db/data-dir-lock.js';
import { createDatabase } from '../api/src/db/client.js';

function fail(message: string): never {
  console.error(`[restore] ${message}`);
  process.exit(1);
}

if (process.env.DATABASE_URL) fail('DATABASE_URL is set: restore PostgreSQL with pg_restore (see docs/operations.md)');
const file = process.argv.slice(2).find((a) => !a.startsWith('--'));
if (!file) fail('usage: npm run restore -- <backup.tar.gz> [--force]');
const archive = path.resolve(file);
if (!fs.existsSync(archive)) fail(`no such file: ${archive}`);
const dataDir = path.resolve(process.env.DATA_DIR || './data');
const holder = dataDirHolder(dataDir);
if (holder) fail(`the server (process ${holder}) is using ${dataDir}: stop it first, then restore`);

const list = spawnSync('tar', ['-tzf', archive], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
if (list.status !== 0 || !list.stdout.split('\n').some((l) => l.replace(/^\.\//, '').startsWith('pgdata/'))) {
  fail(`${archive} is not a backup made by npm run backup (no pgdata/ inside)`);
}

let keptAside: string | undefined;
if (fs.existsSync(dataDir) && fs.readdirSync(dataDir).length > 0) {
  if (!process.argv.includes('--force')) fail(`${dataDir} is not empty: add --force to keep it aside and restore in its place`);
  keptAside = `${dataDir}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  fs.renameSync(dataDir, keptAside);
}
fs.mkdirSync(dataDir, { recursive: true });
const r = spawnSync('tar', ['-xzf', archive, '-C', dataDir], { stdio: ['ignore', 'inherit', 'inherit'] });
if (r.status !== 0) fail(`tar failed (exit ${r.status ?? r.signal})${keptAside ? `; the previous DATA_DIR is in ${keptAside}` : ''}`);

const db = await createDatabase({ dataDir });
try {
  const [m] = await db.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM "_prisma_migrations"');
  const [u] = await db.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM users');
  console.log(`[restore] ${archive} -> ${dataDir}: ${m?.n} migrations, ${u?.n} users${keptAside ? `; the previous DATA_DIR is in ${keptAside}` : ''}`);
} catch (err) {
  fail(`the restored database does not open: ${(err as Error).message}`);
} finally {
  await db.close();
}
