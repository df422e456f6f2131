// schema.prisma and prisma/migrations must describe the same database. The
// Prisma CLI's diff needs a native engine we do not have, so this compares
// the full DMMF (written by scripts/prisma-dmmf-generator.cjs at generate
// time) with the catalog of a database built by our migrations.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratedDatabase } from '../helpers/database.js';
import type { Database } from '../../src/db/client.js';

/** What the migrations add beyond what schema.prisma can express, on purpose. */
const EXTRA_INDEXES = new Set([
  'review_periods_one_active_key',
  'ai_bulk_runs_one_running',
  'shared_items_totals',
  'shared_items_user_counts',
  'shared_items_role_counts',
  'shared_item_decisions_sums',
]);

type Field = {
  name: string;
  dbName?: string | null;
  kind: string;
  type: string;
  isList: boolean;
  isRequired: boolean;
  isId: boolean;
  isUnique: boolean;
  hasDefaultValue: boolean;
  nativeType?: [string, string[]] | null;
  relationFromFields?: string[];
  relationToFields?: string[];
  relationOnDelete?: string;
};
type Model = { name: string; dbName: string | null; fields: Field[] };
type Index = {
  model: string;
  type: 'id' | 'unique' | 'normal' | 'fulltext';
  dbName?: string | null;
  algorithm?: string;
  fields: { name: string; sortOrder?: string }[];
};
const dmmf = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../src/generated/dmmf.json'), 'utf8')) as {
  models: Model[];
  enums: { name: string; values: { name: string }[] }[];
  indexes: Index[];
};

const table = (m: Model) => m.dbName ?? m.name;
const column = (f: Field) => f.dbName ?? f.name;
const modelByName = new Map(dmmf.models.map((m) => [m.name, m]));

function expectedUdt(f: Field): string {
  const native = f.nativeType?.[0];
  let t: string;
  switch (f.type) {
    case 'String':
      t = native === 'Uuid' ? 'uuid' : 'text';
      break;
    case 'Int':
      t = 'int4';
      break;
    case 'BigInt':
      t = 'int8';
      break;
    case 'Boolean':
      t = 'bool';
      break;
    case 'Float':
      t = 'float8';
      break;
    case 'Decimal':
      t = 'numeric';
      break;
    case 'Json':
      t = 'jsonb';
      break;
    case 'DateTime':
      t = native === 'Timestamptz' ? 'timestamptz' : native === 'Date' ? 'date' : 'timestamp';
      break;
    default:
      t = f.kind === 'enum' ? f.type : `?${f.type}`;
  }
  return f.isList ? `_${t}` : t;
}

let handle: Awaited<ReturnType<typeof migratedDatabase>>;
let db: Database;

beforeAll(async () => {
  handle = await migratedDatabase();
  db = handle.db;
});
afterAll(async () => handle?.close());

describe('schema.prisma and the migrations agree', () => {
  it('on the tables', async () => {
    const rows = await db.sql.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name NOT IN ('_prisma_migrations', '_repeatable_scripts')`,
    );
    expect(rows.map((r) => r.table_name).sort()).toEqual(dmmf.models.map(table).sort());
  });

  it('on the enums and their values', async () => {
    const rows = await db.sql.query<{ typname: string; label: string }>(
      `SELECT t.typname, e.enumlabel AS label FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid ORDER BY t.typname, e.enumsortorder`,
    );
    const actual: Record<string, string[]> = {};
    for (const r of rows) (actual[r.typname] ??= []).push(r.label);
    const expected = Object.fromEntries(dmmf.enums.map((e) => [e.name, e.values.map((v) => v.name)]));
    expect(actual).toEqual(expected);
  });

  it('on every column: type, nullability and whether it has a default', async () => {
    const rows = await db.sql.query<{
      table_name: string;
      column_name: string;
      udt_name: string;
      is_nullable: string;
      column_default: string | null;
      is_generated: string;
    }>(
      `SELECT table_name, column_name, udt_name, is_nullable, column_default, is_generated FROM information_schema.columns WHERE table_schema = 'public' AND table_name NOT IN ('_prisma_migrations', '_repeatable_scripts')`,
    );
    // A generated column (shared_items.shared) is filled by the database, as a default is: @default(dbgenerated(...)).
    const filled = (r: { column_default: string | null; is_generated: string }) => r.column_default !== null || r.is_generated === 'ALWAYS';
    const actual = Object.fromEntries(
      rows.map((r) => [`${r.table_name}.${r.column_name}`, `${r.udt_name} ${r.is_nullable === 'YES' ? 'null' : 'not null'}${filled(r) ? ' default' : ''}`]),
    );
    const expected: Record<string, string> = {};
    for (const m of dmmf.models) {
      for (const f of m.fields) {
        if (f.kind === 'object') continue;
        // Prisma creates scalar lists as nullable columns.
        const nullable = f.isList || !f.isRequired;
        expected[`${table(m)}.${column(f)}`] = `${expectedUdt(f)} ${nullable ? 'null' : 'not null'}${f.hasDefaultValue ? ' default' : ''}`;
      }
    }
    expect(actual).toEqual(expected);
  });

  it('on the indexes, unique constraints and primary keys', async () => {
    const rows = await db.sql.query<{ table: string; name: string; is_unique: boolean; is_primary: boolean; method: string; columns: string[] }>(
      `SELECT t.relname AS table, i.relname AS name, ix.indisunique AS is_unique, ix.indisprimary AS is_primary, am.amname AS method,
              array_agg(a.attname ORDER BY k.ord)::text[] AS columns
         FROM pg_index ix
         JOIN pg_class t ON t.oid = ix.indrelid
         JOIN pg_class i ON i.oid = ix.indexrelid
         JOIN pg_am am ON am.oid = i.relam
         JOIN pg_namespace n ON n.oid = t.relnamespace AND n.nspname = 'public'
         JOIN LATERAL unnest(ix.indkey) WITH ORDINALITY AS k(attnum, ord) ON true
         JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
        WHERE t.relname NOT IN ('_prisma_migrations', '_repeatable_scripts')
        GROUP BY t.relname, i.relname, ix.indisunique, ix.indisprimary, am.amname`,
    );
    const describe = (table: string, kind: string, method: string, cols: string[]) => `${table} ${kind} ${method} (${cols.join(', ')})`;
    const actual = rows
      .filter((r) => !EXTRA_INDEXES.has(r.name))
      .map((r) => describe(r.table, r.is_primary ? 'primary' : r.is_unique ? 'unique' : 'index', r.method, r.columns))
      .sort();
    const expected: string[] = [];
    for (const ix of dmmf.indexes) {
      const m = modelByName.get(ix.model)!;
      const cols = ix.fields.map((f) => column(m.fields.find((x) => x.name === f.name)!));
      const kind = ix.type === 'id' ? 'primary' : ix.type === 'unique' ? 'unique' : 'index';
      expected.push(describe(table(m), kind, (ix.algorithm ?? 'BTree').toLowerCase(), cols));
    }
    expect(actual).toEqual(expected.sort());
    // The extras the migrations add on purpose are really there.
    for (const name of EXTRA_INDEXES) expect(rows.map((r) => r.name)).toContain(name);
  });

  it('on the foreign keys and what deleting does', async () => {
    const rows = await db.sql.query<{ table: string; columns: string[]; ref_table: string; ref_columns: string[]; on_delete: string }>(
      `SELECT c.conrelid::regclass::text AS table, c.confrelid::regclass::text AS ref_table, c.confdeltype::text AS on_delete,
              (SELECT array_agg(a.attname ORDER BY k.ord)::text[] FROM unnest(c.conkey) WITH ORDINALITY k(attnum, ord)
                 JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum) AS columns,
              (SELECT array_agg(a.attname ORDER BY k.ord)::text[] FROM unnest(c.confkey) WITH ORDINALITY k(attnum, ord)
                 JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.attnum) AS ref_columns
         FROM pg_constraint c WHERE c.contype = 'f'`,
    );
    const action: Record<string, string> = { c: 'Cascade', n: 'SetNull', r: 'Restrict', a: 'NoAction', d: 'SetDefault' };
    const actual = rows
      .map((r) => `${r.table.replace(/"/g, '')}(${r.columns.join(',')}) -> ${r.ref_table.replace(/"/g, '')}(${r.ref_columns.join(',')}) ${action[r.on_delete]}`)
      .sort();
    const expected: string[] = [];
    for (const m of dmmf.models) {
      for (const f of m.fields) {
        if (f.kind !== 'object' || !f.relationFromFields?.length) continue;
        const target = modelByName.get(f.type)!;
        const from = f.relationFromFields.map((n) => column(m.fields.find((x) => x.name === n)!));
        const to = f.relationToFields!.map((n) => column(target.fields.find((x) => x.name === n)!));
        const onDelete = f.relationOnDelete ?? (f.isRequired ? 'Restrict' : 'SetNull');
        expected.push(`${table(m)}(${from.join(',')}) -> ${table(target)}(${to.join(',')}) ${onDelete}`);
      }
    }
    expect(actual).toEqual(expected.sort());
  });
});
