// `npm start`: builds what is missing (Prisma client, Relay artifacts, the web
// app), then runs the server in this same process.
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';

const root = path.resolve(import.meta.dirname, '..');
process.chdir(root);

function run(cmd, args) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', cwd: root });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

if (!fs.existsSync('api/src/generated/prisma/client.ts')) {
  console.log('[start] generating the Prisma client…');
  run(process.execPath, ['scripts/prisma-generate.mjs']);
}
const webDist = process.env.WEB_DIST ?? 'web/dist';
if (!fs.existsSync(path.join(webDist, 'index.html'))) {
  console.log('[start] building the web app (first start only)…');
  run(process.execPath, ['scripts/build-web.mjs']);
}

const { register } = await import('tsx/esm/api');
register();
await import('../api/src/main.ts');
