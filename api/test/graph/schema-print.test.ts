// schema.graphql is printed from Pothos and committed; Relay compiles against it.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lexicographicSortSchema, printSchema } from 'graphql';
import { schema } from '../../src/schema/index.js';

describe('schema.graphql', () => {
  it('is the schema the server runs (run `npm run schema:print` when this fails)', () => {
    const committed = fs.readFileSync(path.resolve(import.meta.dirname, '../../../schema.graphql'), 'utf8');
    expect(committed).toBe(printSchema(lexicographicSortSchema(schema)) + '\n');
  });
});
