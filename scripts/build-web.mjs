// Builds the web app: the REST calls' types from the OpenAPI document
// (scripts/openapi-client.ts), Relay artifacts (and the persisted-operation list the
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
import { createHash } from 'node:crypto';

const root = path.resolve(import.meta.dirname, '..');
const require = createRequire(import.meta.url);
fs.mkdirSync(path.join(root, 'web/src/__generated__'), { recursive: true });
const relayBin = path.join(path.dirname(require.resolve('relay-compiler/package.json')), 'cli.js');
const steps = [
  [process.execPath, ['--import', 'tsx', path.join(root, 'scripts/openapi-client.ts')]],
  [process.execPath, [relayBin]],
  [
    process.execPath,
    [path.join(path.dirname(require.resolve('vite/package.json')), 'bin/vite.js'), 'build', '--config', 'web/vite.config.ts', ...process.argv.slice(2)],
  ],
];
for (const [cmd, args] of steps) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', cwd: root });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const outArg = process.argv.indexOf('--outDir');
const outDir = outArg > 0 ? path.resolve(root, process.argv[outArg + 1]) : path.join(root, 'web/dist');
const assets = path.join(outDir, 'assets');
writeSignedInPreload(outDir);
await writeBootFrames(outDir);
for (const name of fs.existsSync(assets) ? fs.readdirSync(assets) : []) {
  if (!/\.(js|css|svg|json)$/.test(name)) continue;
  const file = path.join(assets, name);
  const data = fs.readFileSync(file);
  if (data.length < 1024) continue;
  fs.writeFileSync(
    `${file}.br`,
    zlib.brotliCompressSync(data, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length } }),
  );
  fs.writeFileSync(`${file}.gz`, zlib.gzipSync(data, { level: 9 }));
}

/**
 * The signed-in page's frame (web/src/boot/bootFrame.ts) for each path with a heading
 * of its own and for every other path, with the sidebar expanded and collapsed, and the
 * paths never framed: `boot-frames.json`, which the server reads to paint the frame into
 * index.html for a request with a session cookie (api/src/web-delivery.ts). The nonce
 * stays the placeholder the server fills.
 */
async function writeBootFrames(dir) {
  const esbuild = require('esbuild');
  const bundled = esbuild.buildSync({ entryPoints: [path.join(root, 'web/src/boot/bootFrame.ts')], bundle: true, format: 'esm', write: false });
  const frame = await import(`data:text/javascript;base64,${Buffer.from(bundled.outputFiles[0].text).toString('base64')}`);
  const both = (p) => [frame.bootFrameHtml(p, frame.NONCE_PLACEHOLDER, false), frame.bootFrameHtml(p, frame.NONCE_PLACEHOLDER, true)];
  const frames = { '*': both('') };
  for (const p of frame.FRAMED_HEADINGS) frames[p] = both(p);
  // Risk Review: one frame per viewer variant (role, period), keyed as the server looks them up.
  for (const p of frame.VIEWER_FRAMED_PATHS) {
    for (const v of frame.VIEWER_VARIANTS)
      frames[`${p}|${v}`] = [frame.bootFrameHtml(p, frame.NONCE_PLACEHOLDER, false, v), frame.bootFrameHtml(p, frame.NONCE_PLACEHOLDER, true, v)];
  }
  const out = {
    unframed: frame.UNFRAMED_PATHS,
    collapsedCookie: frame.COLLAPSED_COOKIE,
    byViewer: frame.VIEWER_FRAMED_PATHS,
    byViewerExceptTabs: frame.OTHER_TAB_VALUES,
    frames,
  };
  fs.writeFileSync(path.join(dir, 'boot-frames.json'), JSON.stringify(out));
}

/**
 * A returning, signed-in visitor's first load, made fast: the
 * entry discovers the shell's and the screen's chunks only once it has been
 * downloaded and run. This bundles web/src/boot/signedInPreload.ts into a small
 * classic script, loaded `defer` before the entry, which (when a stored user exists,
 * SPEC §3's internal_user, as web/src/App.tsx decides) asks for the shell's and
 * the dashboard's chunks at once with `<link rel="modulepreload">` (the sidebar's
 * on a wide screen), sends the session query at once and, with the viewer's role, preloads
 * the Risk Review screen the role gets on /risk-review. A visitor with no stored user gets none of it.
 * The script's name carries a hash of its content, as Vite's assets do (they are
 * served as immutable).
 */
function writeSignedInPreload(dir) {
  const manifestFile = path.join(dir, '.vite/manifest.json');
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
  fs.rmSync(path.join(dir, '.vite'), { recursive: true, force: true });
  const closure = (keys) => {
    const seen = new Set();
    const todo = [...keys];
    while (todo.length) {
      const key = todo.pop();
      if (seen.has(key)) continue;
      // A module also imported statically (a loader its screen imports too) is a shared chunk, keyed by its file.
      if (!manifest[key] && key.startsWith('src/')) {
        const name = path.basename(key).replace(/\.tsx?$/, '');
        const shared = Object.keys(manifest).filter((k) => k.startsWith('_') && manifest[k].name === name);
        if (shared.length === 1) {
          todo.push(shared[0]);
          continue;
        }
      }
      if (!manifest[key]) throw new Error(`build-web: ${key} is not in the build (renamed? update writeSignedInPreload)`);
      seen.add(key);
      todo.push(...(manifest[key].imports ?? []));
    }
    return seen;
  };
  const inEntry = closure(['index.html']);
  const files = (keys) => [...closure(keys)].filter((k) => !inEntry.has(k)).map((k) => manifest[k].file.replace(/^assets\//, ''));
  // A stored user on / sees the frame, then the dashboard (App.tsx's Layout): not the landing page.
  const lists = {
    shell: files(['src/shell/AppShell.tsx']),
    home: files(['src/routes/dashboard/DashboardRoute.tsx']),
    wide: files(['src/shell/Sidebar.tsx']),
    risksAdmin: files(['src/routes/risk-review/RiskReviewRoute.tsx', 'src/routes/risk-review/riskReviewLoader.ts']),
    risksReviewer: files(['src/routes/assigned-risks/AssignedRisksRoute.tsx', 'src/routes/assigned-risks/assignedRisksLoader.ts']),
  };
  // The session query the script sends early: its persisted id, from the Relay artifact just compiled.
  const artifact = fs.readFileSync(path.join(root, 'web/src/__generated__/SessionProviderQuery.graphql.ts'), 'utf8');
  const sessionId = /"id": "([0-9a-f]{64})"/.exec(artifact)?.[1];
  if (!sessionId) throw new Error('build-web: no persisted id in SessionProviderQuery.graphql.ts');
  const queueArtifact = fs.readFileSync(path.join(root, 'web/src/__generated__/RiskQueueQuery.graphql.ts'), 'utf8');
  const queueId = /"id": "([0-9a-f]{64})"/.exec(queueArtifact)?.[1];
  if (!queueId) throw new Error('build-web: no persisted id in RiskQueueQuery.graphql.ts');
  const esbuild = require('esbuild');
  const bundled = esbuild.buildSync({
    entryPoints: [path.join(root, 'web/src/boot/signedInPreload.ts')],
    bundle: true,
    minify: true,
    format: 'iife',
    target: 'es2020',
    write: false,
    define: { SIGNED_IN_PRELOAD_LISTS: JSON.stringify(lists), SESSION_QUERY_ID: JSON.stringify(sessionId), RISK_QUEUE_QUERY_ID: JSON.stringify(queueId) },
  });
  const source = `// Generated by scripts/build-web.mjs from web/src/boot/signedInPreload.ts.\n${bundled.outputFiles[0].text}`;
  const hash = createHash('sha256').update(source).digest('base64url').slice(0, 8);
  const name = `signed-in-preload-${hash}.js`;
  fs.writeFileSync(path.join(dir, 'assets', name), source);
  const htmlFile = path.join(dir, 'index.html');
  const html = fs.readFileSync(htmlFile, 'utf8');
  if (!html.includes('<script type="module"')) throw new Error('build-web: no module script in index.html');
  fs.writeFileSync(htmlFile, html.replace('<script type="module"', `<script defer src="/assets/${name}"></script>\n    <script type="module"`));
}
