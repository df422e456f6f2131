// A fresh database per test file: in-memory PGlite by default, or a new
// database on the PostgreSQL server named by DATABASE_URL (dropped afterwards).
import crypto from 'node:crypto';
import pg from 'pg';

export const onPostgres = Boolean(process.env.DATABASE_URL);

export interface TestDatabase {
  /** undefined on PGlite */
  url?: string;
  drop(): Promise<void>;
}

export async function freshDatabase(base = process.env.DATABASE_URL): Promise<TestDatabase> {
  if (!base) return { drop: async () => {} };
  const name = `grc_test_${process.pid}_${crypto.randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
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
