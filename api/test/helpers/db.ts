// A fresh database per test file: in-memory PGlite by default, or a new
// database on the PostgreSQL server named by DATABASE_URL (dropped afterwards).
import crypto from 'node:crypto';
import fs from 'node:fs';
import pg from 'pg';
import { inject } from 'vitest';
import { createDatabase, type Database } from '../../src/db/client.js';

export const onPostgres = Boolean(process.env.DATABASE_URL);

export interface TestDatabase {
  /** undefined on PGlite */
  url?: string;
  drop(): Promise<void>;
}

export async function freshDatabase(base = process.env.DATABASE_URL, template?: string): Promise<TestDatabase> {
  if (!base) return { drop: async () => {} };
  const name = `grc_test_${process.pid}_${crypto.randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ''}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
    },
  };
}

// What global-setup.ts provides to every test file.
declare module 'vitest' {
  export interface ProvidedContext {
    /** PostgreSQL: the migrated template database's name. */
    templateDatabase: string;
    /** PGlite: the file holding the migrated data folder (a tar). */
    templateDump: string;
  }
}

let templateDump: Blob | undefined;

/**
 * A fresh database already migrated, cloned from the run's one migrated copy
 * (global-setup.ts): on PostgreSQL a database made from the template, on
 * PGlite the data folder to start an in-memory database from.
 */
export async function migratedCopy(base = process.env.DATABASE_URL): Promise<TestDatabase & { loadDataDir?: Blob }> {
  if (!base) {
    templateDump ??= new Blob([fs.readFileSync(inject('templateDump'))]);
    return { drop: async () => {}, loadDataDir: templateDump };
  }
  return freshDatabase(base, inject('templateDatabase'));
}

/**
 * Two app instances' connections to one fresh PostgreSQL database, as two
 * processes starting together see it; `cleanup` closes both and drops it.
 */
export async function twoInstancesOnOneDatabase(): Promise<{ a: Database; b: Database; cleanup(): Promise<void> }> {
  const t = await freshDatabase();
  const a = await createDatabase({ databaseUrl: t.url, dataDir: '/nonexistent' });
  const b = await createDatabase({ databaseUrl: t.url, dataDir: '/nonexistent' });
  return {
    a,
    b,
    async cleanup() {
      await a.close();
      await b.close();
      await t.drop();
    },
  };
}
