// ingest/ is a leaf (ARCHITECTURE.md 'Who may import whom'): it reads files
// into rows and COPY batches and imports only core/, db/ (and the generated
// Prisma client they stand on), never services/, context, pub/sub or jobs/.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const src = path.resolve(import.meta.dirname, '../../src');
const ingest = path.join(src, 'ingest');
const allowed = ['ingest', 'core', 'db', 'generated'].map((d) => path.join(src, d) + path.sep);

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? files(p) : /\.(ts|mjs|js)$/.test(e.name) ? [p] : [];
  });
}

describe('ingest/ is a leaf', () => {
  it('imports nothing of the app outside ingest/, core/ and db/', () => {
    const outside: string[] = [];
    for (const file of files(ingest)) {
      const text = fs.readFileSync(file, 'utf8');
      for (const m of text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)['"]([^'"]+)['"]/g)) {
        const spec = m[1]!;
        if (!spec.startsWith('.')) continue; // packages and node: built-ins
        const target = path.resolve(path.dirname(file), spec);
        if (!allowed.some((dir) => target.startsWith(dir))) outside.push(`${path.relative(src, file)} imports ${spec}`);
      }
    }
    expect(outside).toEqual([]);
  });
});
