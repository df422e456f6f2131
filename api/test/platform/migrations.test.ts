// Migrations are applied by the app at start-up, recorded the way Prisma
// Migrate records them, once, even when two instances start together.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate, readMigrations } from '../../src/db/migrate.js';
import { onPostgres, twoInstancesOnOneDatabase } from '../helpers/db.js';
import { migratedDatabase } from '../helpers/database.js';

const cleanups: (() => Promise<void>)[] = [];

/** A folder holding the app's migrations (their migration.sql), to add one to. */
function copyOfMigrations(): string {
  const dir = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'grc-mig-'));
  for (const f of readMigrations()) {
    fs.mkdirSync(path.join(dir, f.name));
    fs.writeFileSync(path.join(dir, f.name, 'migration.sql'), f.sql);
  }
  return dir;
}
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

describe('migrations', () => {
  it('apply once, record name and checksum in _prisma_migrations, and apply nothing the second time', async () => {
    const h = await migratedDatabase();
    cleanups.push(h.close);
    const files = readMigrations();
    const rows = await h.db.sql.query<{ migration_name: string; checksum: string; finished_at: Date | null; applied_steps_count: number }>(
      'SELECT migration_name, checksum, finished_at, applied_steps_count FROM "_prisma_migrations" ORDER BY migration_name',
    );
    expect(rows.map((r) => r.migration_name)).toEqual(files.map((f) => f.name));
    for (const r of rows) {
      const sql = fs.readFileSync(path.resolve(import.meta.dirname, '../../../prisma/migrations', r.migration_name, 'migration.sql'));
      expect(r.checksum).toBe(crypto.createHash('sha256').update(sql).digest('hex'));
      expect(r.finished_at).not.toBeNull();
      expect(r.applied_steps_count).toBe(1);
    }
    expect(await migrate(h.db.sql)).toEqual({ applied: [], scripts: [] });
  });

  it('roll back a failing migration completely and record nothing for it', async () => {
    const h = await migratedDatabase();
    cleanups.push(h.close);
    const dir = copyOfMigrations();
    fs.mkdirSync(path.join(dir, '29990101000000_broken'));
    fs.writeFileSync(path.join(dir, '29990101000000_broken', 'migration.sql'), 'CREATE TABLE half_done (id int);\nSELECT * FROM no_such_table;\n');
    await expect(migrate(h.db.sql, { migrations: dir })).rejects.toThrow(/29990101000000_broken failed/);
    const t = await h.db.sql.query(`SELECT 1 FROM information_schema.tables WHERE table_name = 'half_done'`);
    expect(t).toHaveLength(0);
    const rec = await h.db.sql.query(`SELECT 1 FROM "_prisma_migrations" WHERE migration_name = '29990101000000_broken'`);
    expect(rec).toHaveLength(0);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('run after.sql once the migration has committed (VACUUM cannot run in its transaction)', async () => {
    const h = await migratedDatabase();
    cleanups.push(h.close);
    const dir = copyOfMigrations();
    const name = '29990101000000_rewrite';
    fs.mkdirSync(path.join(dir, name));
    fs.writeFileSync(path.join(dir, name, 'migration.sql'), 'CREATE TABLE after_check (id int);\nINSERT INTO after_check SELECT generate_series(1, 5000);\n');
    fs.writeFileSync(path.join(dir, name, 'after.sql'), '-- the visibility map and the statistics of the new table\nVACUUM (ANALYZE) after_check;\n');
    expect(await migrate(h.db.sql, { migrations: dir })).toEqual({ applied: [name], scripts: [] });
    const [t] = await h.db.sql.query<{ visible: number; tuples: number }>(
      `SELECT relallvisible::int AS visible, reltuples::int AS tuples FROM pg_class WHERE relname = 'after_check'`,
    );
    expect(t!.visible).toBeGreaterThan(0);
    expect(t!.tuples).toBe(5000);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it.runIf(onPostgres)('do not race when two instances start together', async () => {
    const { a, b, cleanup } = await twoInstancesOnOneDatabase();
    cleanups.push(cleanup);
    const [ra, rb] = await Promise.all([migrate(a.sql), migrate(b.sql)]);
    const all = [...ra.applied, ...rb.applied].sort();
    expect(all).toEqual(readMigrations().map((m) => m.name));
    const rows = await a.sql.query('SELECT migration_name FROM "_prisma_migrations"');
    expect(rows).toHaveLength(readMigrations().length);
  });
});

describe('rules the database itself enforces', () => {
  it('at most one active review period', async () => {
    const h = await migratedDatabase();
    cleanups.push(h.close);
    const p = h.db.prisma;
    await p.reviewPeriod.create({ data: { name: 'Q1', startDate: new Date(), status: 'active' } });
    await expect(p.reviewPeriod.create({ data: { name: 'Q2', startDate: new Date(), status: 'active' } })).rejects.toThrow();
    // Closed ones may be many.
    await p.reviewPeriod.create({ data: { name: 'Q0', startDate: new Date(), status: 'closed' } });
    await p.reviewPeriod.create({ data: { name: 'Q-1', startDate: new Date(), status: 'closed' } });
    expect(await p.reviewPeriod.count({ where: { status: 'active' } })).toBe(1);
  });

  it('the audit trail is append-only: UPDATE, DELETE and TRUNCATE are refused', async () => {
    const h = await migratedDatabase();
    cleanups.push(h.close);
    const p = h.db.prisma;
    const e = await p.auditEvent.create({ data: { action: 'test.event', entityType: 'Test' } });
    await expect(p.auditEvent.update({ where: { id: e.id }, data: { action: 'tampered' } })).rejects.toThrow(/append-only/);
    await expect(p.auditEvent.delete({ where: { id: e.id } })).rejects.toThrow(/append-only/);
    await expect(h.db.sql.query('TRUNCATE audit_events')).rejects.toThrow(/append-only/);
    expect((await p.auditEvent.findUniqueOrThrow({ where: { id: e.id } })).action).toBe('test.event');
  });
});
