// Prints the Pothos schema to schema.graphql (committed; Relay compiles against it).
// `--check` exits non-zero when the committed file is stale.
import fs from 'node:fs';
import path from 'node:path';
import { printSchema, lexicographicSortSchema } from 'graphql';
import { schema } from '../api/src/schema/index.js';

const file = path.resolve(import.meta.dirname, '../schema.graphql');
const printed = printSchema(lexicographicSortSchema(schema)) + '\n';
if (process.argv.includes('--check')) {
  const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  if (current !== printed) {
    console.error('schema.graphql is stale: run `npm run schema:print`');
    process.exit(1);
  }
  console.log('schema.graphql is up to date');
} else {
  fs.writeFileSync(file, printed);
  console.log(`wrote ${file}`);
}
