// `npm run backup -- [--out FILE]`: a backup of the embedded database's
// DATA_DIR (PGlite data, stored uploads, outbox, generated secrets) as one
// .tar.gz, taken while no server uses it (the server must be stopped: a copy
// of a running PGlite is not consistent). With DATABASE_URL set, use pg_dump
// (docs/operations.md). Prints the file written.
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { arg } from './cli.js';
import { dataDirHolder } from '../api/src/db/data-dir-lock.js';

function fail(message: string): never {
  console.error(`[backup] ${message}`);
  process.exit(1);
}

if (process.env.DATABASE_URL)
  fail('DATABASE_URL is set: back PostgreSQL up with pg_dump (see docs/operations.md); this command backs up the embedded DATA_DIR');
const dataDir = path.resolve(process.env.DATA_DIR || './data');
if (!fs.existsSync(path.join(dataDir, 'pgdata'))) fail(`no embedded database in ${dataDir} (DATA_DIR)`);
const holder = dataDirHolder(dataDir);
if (holder) fail(`the server (process ${holder}) is using ${dataDir}: stop it first, then back up`);

const stamp = new Date().toISOString().replace(/[:.]/g, '-');
const out = path.resolve(arg('out', `grc-backup-${stamp}.tar.gz`));
fs.mkdirSync(path.dirname(out), { recursive: true });
const partial = `${out}.part`;
const r = spawnSync('tar', ['-czf', partial, '--exclude=./server.pid', '-C', dataDir, '.'], { stdio: ['ignore', 'inherit', 'inherit'] });
if (r.status !== 0) {
  fs.rmSync(partial, { force: true });
  fail(`tar failed (exit ${r.status ?? r.signal})`);
}
fs.renameSync(partial, out);
console.log(`[backup] ${dataDir} -> ${out} (${(fs.statSync(out).size / 1024 / 1024).toFixed(1)} MB)`);
