// `npm run check:files`: what an import graph cannot see (the import rules
// themselves are dependency-cruiser's, `npm run lint:layers`):
// - no source file in api/src or web/src over 450 lines without a one-line
//   reason at its top ('// Long: <reason>');
// - web screens read prepared queries: no useLazyLoadQuery in web/src.
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const roots = ['api/src', 'web/src'].map((d) => path.join(root, d));
const MAX_LINES = 450;

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

if (problems.length) {
  console.error(`source files: ${problems.length} problem(s)\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log('source files: ok');
