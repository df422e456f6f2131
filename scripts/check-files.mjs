// `npm run check:files`: what an import graph cannot see (the import rules
// themselves are dependency-cruiser's, `npm run lint:layers`):
// - no source file in api/src or web/src over 450 lines without a one-line
//   reason at its top ('// Long: <reason>');
// - web screens read prepared queries: no useLazyLoadQuery in web/src;
// - folders are wings, not halls: no folder of api/src, api/test or web/src
//   holds more than MAX_FILES source files (a newcomer finds a domain in one
//   place; a wing that outgrows it splits by sub-domain).
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const roots = ['api/src', 'web/src'].map((d) => path.join(root, d));
const MAX_LINES = 450;
const MAX_FILES = 17;

function walk(dir, out = []) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== '__generated__' && entry.name !== 'generated') walk(p, out);
    } else if (/\.tsx?$/.test(entry.name)) out.push(p);
  }
  return out;
}

const problems = [];
for (const file of roots.flatMap((r) => walk(r))) {
  const rel = path.relative(root, file).split(path.sep).join('/');
  const text = fs.readFileSync(file, 'utf8');
  const lines = text.split('\n').length;
  if (lines > MAX_LINES && !/^\/\/ Long: \S/.test(text)) problems.push(`${rel}: ${lines} lines and no '// Long: <reason>' first line`);
  if (rel.startsWith('web/') && /\buseLazyLoadQuery\b/.test(text)) problems.push(`${rel}: useLazyLoadQuery (prepare the query in the route's loader)`);
}

const perFolder = new Map();
for (const file of [...roots, path.join(root, 'api/test')].flatMap((r) => walk(r))) {
  const dir = path.relative(root, path.dirname(file)).split(path.sep).join('/');
  perFolder.set(dir, (perFolder.get(dir) ?? 0) + 1);
}
for (const [dir, n] of perFolder) if (n > MAX_FILES) problems.push(`${dir}: ${n} source files (at most ${MAX_FILES}: split the wing by sub-domain)`);

if (problems.length) {
  console.error(`source files: ${problems.length} problem(s)\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log('source files: ok');
