// The bodies of the database's functions and triggers live once each in
// prisma/functions, applied after the migrations as repeatable scripts: run
// again when their text changes, not otherwise, once however many instances
// start together, and leaving the database exactly as the migrations do.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createDatabase, type Database, type Sql } from '../../src/db/client.js';
import { migrate, readMigrations } from '../../src/db/migrate.js';
import { defaultFunctionsDir, readRepeatableScripts } from '../../src/db/repeatable-scripts.js';
import { freshDatabase, onPostgres, twoInstancesOnOneDatabase } from '../helpers/db.js';
import { migratedDatabase } from '../helpers/database.js';

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

async function emptyDatabase(): Promise<Database> {
  const t = await freshDatabase();
  const db = await createDatabase({ databaseUrl: t.url, dataDir: '/nonexistent', inMemory: true });
  cleanups.push(async () => {
    await db.close();
    await t.drop();
  });
  return db;
}

/** Our functions of the public schema (not those of an extension such as pg_trgm). */
const OUR_FUNCTIONS = `FROM pg_proc p
  WHERE p.pronamespace = 'public'::regnamespace
    AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e')`;

/** Every function and trigger of the public schema, as the database itself prints it. */
async function definitions(sql: Sql): Promise<{ functions: Record<string, string>; triggers: Record<string, string> }> {
  const f = await sql.query<{ name: string; def: string }>(`SELECT p.oid::regprocedure::text AS name, pg_get_functiondef(p.oid) AS def ${OUR_FUNCTIONS}`);
  const t = await sql.query<{ name: string; def: string }>(
    `SELECT c.relname || '.' || t.tgname AS name, t.tgenabled::text || ' ' || pg_get_triggerdef(t.oid) AS def
       FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
      WHERE c.relnamespace = 'public'::regnamespace AND NOT t.tgisinternal`,
  );
  return { functions: Object.fromEntries(f.map((r) => [r.name, r.def])), triggers: Object.fromEntries(t.map((r) => [r.name, r.def])) };
}

/** A copy of prisma/functions, to change a script in. */
function copyOfFunctions(): string {
  const dir = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'grc-fn-'));
  fs.cpSync(defaultFunctionsDir(), dir, { recursive: true });
  cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const recorded = (sql: Sql) =>
  sql.query<{ name: string; checksum: string; applied_at: Date }>('SELECT name, checksum, applied_at FROM "_repeatable_scripts" ORDER BY name');

describe('database functions and triggers (prisma/functions)', () => {
  it('end as the migrations leave them: a database migrated before the scripts existed is unchanged by them, and the scripts alone rebuild every one', async () => {
    const db = await emptyDatabase();
    // A deployment migrated before the scripts existed: the migrations' own definitions.
    expect(await migrate(db.sql, { functions: null })).toMatchObject({ scripts: [] });
    const byMigrations = await definitions(db.sql);
    expect(Object.keys(byMigrations.functions).length).toBeGreaterThan(0);
    expect(Object.keys(byMigrations.triggers).length).toBeGreaterThan(0);

    // Its next start applies every script; nothing changes (a body edited in a migration but not in its script would).
    const names = readRepeatableScripts().map((s) => s.name);
    expect(await migrate(db.sql)).toEqual({ applied: [], scripts: names });
    expect(await definitions(db.sql), 'a definition in a migration differs from its script in prisma/functions').toEqual(byMigrations);

    // Every function and trigger has its script: dropped, the scripts alone make them all again.
    const [drop] = await db.sql.query<{ statements: string }>(
      `SELECT string_agg(format('DROP FUNCTION %s CASCADE;', p.oid::regprocedure), E'\\n') AS statements ${OUR_FUNCTIONS}`,
    );
    await db.sql.exec(drop!.statements);
    expect(await definitions(db.sql)).toEqual({ functions: {}, triggers: {} });
    await db.sql.exec('DELETE FROM "_repeatable_scripts"');
    expect(await migrate(db.sql)).toEqual({ applied: [], scripts: names });
    expect(await definitions(db.sql), 'a function or trigger of the migrations has no script in prisma/functions').toEqual(byMigrations);
  });

  it('re-apply a changed script on the next start, and only that one; an unchanged one is not run again', async () => {
    const h = await migratedDatabase();
    cleanups.push(h.close);
    const sql = h.db.sql;
    const before = await recorded(sql);
    expect(before.map((r) => r.name)).toEqual(readRepeatableScripts().map((s) => s.name));
    for (const r of before) {
      expect(r.checksum).toBe(
        crypto
          .createHash('sha256')
          .update(fs.readFileSync(path.join(defaultFunctionsDir(), r.name)))
          .digest('hex'),
      );
    }
    const dir = copyOfFunctions();
    // Nothing changed: nothing runs (a body changed by hand in the database stays as it is).
    await sql.exec(`CREATE OR REPLACE FUNCTION "risk_data_changed"() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$`);
    expect(await migrate(sql, { functions: dir })).toEqual({ applied: [], scripts: [] });
    expect((await definitions(sql)).functions['risk_data_changed()']).toContain('BEGIN RETURN NULL; END');

    const file = path.join(dir, 'risk_data_changed.sql');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('"version" = "version" + 1', '"version" = "version" + 2'));
    expect(await migrate(sql, { functions: dir })).toEqual({ applied: [], scripts: ['risk_data_changed.sql'] });
    expect((await definitions(sql)).functions['risk_data_changed()']).toContain('"version" = "version" + 2');
    // The trigger of that script is there again, and runs the new body.
    const [v0] = await sql.query<{ v: string }>('SELECT version::text AS v FROM risk_data_version WHERE id = 1');
    await sql.query(`INSERT INTO uploads (original_name, file_name) VALUES ('a.csv', 'a.csv')`);
    await sql.query('UPDATE uploads SET live = true');
    const [v1] = await sql.query<{ v: string }>('SELECT version::text AS v FROM risk_data_version WHERE id = 1');
    expect(BigInt(v1!.v) - BigInt(v0!.v)).toBe(2n);

    const after = await recorded(sql);
    for (const r of after) {
      const was = before.find((b) => b.name === r.name)!;
      if (r.name === 'risk_data_changed.sql') {
        expect(r.checksum).toBe(crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex'));
        expect(r.applied_at.getTime()).toBeGreaterThan(was.applied_at.getTime());
      } else {
        expect(r).toEqual(was);
      }
    }
    expect(await migrate(sql, { functions: dir })).toEqual({ applied: [], scripts: [] });
  });

  it('apply the changed scripts in one transaction: one failing leaves the others unapplied and unrecorded', async () => {
    const h = await migratedDatabase();
    cleanups.push(h.close);
    const sql = h.db.sql;
    const dir = copyOfFunctions();
    const good = path.join(dir, 'risk_data_changed.sql');
    fs.writeFileSync(good, fs.readFileSync(good, 'utf8').replace('"version" = "version" + 1', '"version" = "version" + 2'));
    fs.appendFileSync(
      path.join(dir, 'trend_days_move.sql'),
      '\nCREATE TRIGGER "nowhere" AFTER INSERT ON "no_such_table" FOR EACH ROW EXECUTE FUNCTION "risk_data_changed"();\n',
    );
    const before = await recorded(sql);
    await expect(migrate(sql, { functions: dir })).rejects.toThrow(/trend_days_move\.sql failed: .*no_such_table/);
    expect((await definitions(sql)).functions['risk_data_changed()']).toContain('"version" = "version" + 1');
    expect(await recorded(sql)).toEqual(before);
  });

  it.runIf(onPostgres)('are applied once when two instances start together', async () => {
    const { a, b, cleanup } = await twoInstancesOnOneDatabase();
    cleanups.push(cleanup);
    const [ra, rb] = await Promise.all([migrate(a.sql), migrate(b.sql)]);
    expect([...ra.applied, ...rb.applied].sort()).toEqual(readMigrations().map((m) => m.name));
    expect([...ra.scripts, ...rb.scripts].sort()).toEqual(readRepeatableScripts().map((s) => s.name));
    expect(await recorded(a.sql)).toHaveLength(readRepeatableScripts().length);
  });
});
