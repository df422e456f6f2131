// Builds the web app: Relay artifacts (and the persisted-operation list the
// server accepts from anonymous callers), then the Vite bundle. Extra
// arguments go to `vite build` (e.g. --outDir /tmp/web). Last, each asset
// worth it gets its brotli (.br, quality 11) and gzip (.gz) copies, which the
// server sends as they are (@fastify/static preCompressed) instead of
// compressing on every request at a lower quality.
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import zlib from 'node:zlib';

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

const outArg = process.argv.indexOf('--outDir');
const outDir = outArg > 0 ? path.resolve(root, process.argv[outArg + 1]) : path.join(root, 'web/dist');
const assets = path.join(outDir, 'assets');
for (const name of fs.existsSync(assets) ? fs.readdirSync(assets) : []) {
  if (!/\.(js|css|svg|json)$/.test(name)) continue;
  const file = path.join(assets, name);
  const data = fs.readFileSync(file);
  if (data.length < 1024) continue;
  fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(data, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length } }));
  fs.writeFileSync(`${file}.gz`, zlib.gzipSync(data, { level: 9 }));
}
