// Builds the web app: Relay artifacts (and the persisted-operation list the
// server accepts from anonymous callers), then the Vite bundle. Extra
// arguments go to `vite build` (e.g. --outDir /tmp/web).
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const root = path.resolve(import.meta.dirname, '..');
const require = createRequire(import.meta.url);
fs.mkdirSync(path.join(root, 'web/src/__generated__'), { recursive: true });
const relayBin = path.join(path.dirname(require.resolve('relay-compiler/package.json')), 'cli.js');
const steps = [
  [process.execPath, [relayBin]],
  [process.execPath, [path.join(path.dirname(require.resolve('vite/package.json')), 'bin/vite.js'), 'build', '--config', 'web/vite.config.ts', ...process.argv.slice(2)]],
];
for (const [cmd, args] of steps) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', cwd: root });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
