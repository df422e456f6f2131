// `npm run check:web`: the web client's folder rules (ARCHITECTURE.md, Web).
// - A route folder imports no other route folder, except the shared
//   composite-view folder, which itself imports no route folder.
// - components/ is generic UI: it imports nothing from routes/, domain/,
//   shell/ or auth/.
// - Screens read prepared queries: no useLazyLoadQuery in web/src.
// - No file over 450 lines without a one-line reason at its top
//   ('// Long: <reason>').
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const src = path.join(root, 'web/src');
const SHARED_ROUTE = 'composite-view';
const MAX_LINES = 450;

function walk(dir, out = []) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== '__generated__') walk(p, out);
    } else if (/\.tsx?$/.test(entry.name)) out.push(p);
  }
  return out;
}

const problems = [];
for (const file of walk(src)) {
  const rel = path.relative(src, file).split(path.sep).join('/');
  const text = fs.readFileSync(file, 'utf8');
  const lines = text.split('\n').length;
  if (lines > MAX_LINES && !/^\/\/ Long: \S/.test(text)) problems.push(`${rel}: ${lines} lines and no '// Long: <reason>' first line`);
  if (/\buseLazyLoadQuery\b/.test(text)) problems.push(`${rel}: useLazyLoadQuery (prepare the query in the route's loader)`);

  const imports = [...text.matchAll(/(?:from\s+|import\s*\(?\s*)['"](\.[^'"]+)['"]/g)].map((m) =>
    path.relative(src, path.resolve(path.dirname(file), m[1])).split(path.sep).join('/'),
  );
  const [top, folder] = rel.split('/');
  for (const target of imports) {
    const [targetTop, targetFolder] = target.split('/');
    if (top === 'routes' && targetTop === 'routes' && targetFolder !== folder) {
      if (targetFolder !== SHARED_ROUTE || folder === SHARED_ROUTE) problems.push(`${rel}: imports ${target} (another route's folder)`);
    }
    if (top === 'components' && ['routes', 'domain', 'shell', 'auth'].includes(targetTop)) {
      problems.push(`${rel}: imports ${target} (components/ is generic UI)`);
    }
    if (top === 'domain' && targetTop === 'routes') problems.push(`${rel}: imports ${target} (domain/ serves the routes, not the reverse)`);
  }
}

if (problems.length) {
  console.error(`web structure: ${problems.length} problem(s)\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log('web structure: ok');
