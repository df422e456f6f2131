// Applies the SQL migrations under prisma/migrations at start-up, the way
// Prisma Migrate would: each in its own transaction, under an advisory lock so
// two instances starting together do not race, recorded in _prisma_migrations
// with the same name and checksum, so `prisma migrate status` agrees. Then,
// under the same lock, the repeatable scripts of prisma/functions whose text
// changed (repeatable-scripts.ts): the current bodies of the functions and
// triggers, which the migrations' older definitions are replaced by.
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import type { Sql } from './client.js';
import type { Warn } from '../core/types.js';
import { applyRepeatableScripts, readRepeatableScripts } from './repeatable-scripts.js';

/** Arbitrary, fixed: the advisory lock key shared by every instance. */
const MIGRATION_LOCK_KEY = 72707369;

export interface MigrationFile {
  name: string;
  sql: string;
  checksum: string;
  /**
   * Statements of its optional after.sql, run one by one once the migration
   * has committed, outside a transaction: upkeep that cannot run inside one
   * (VACUUM, e.g. the visibility map of a table the migration rewrote, which
   * index-only scans need). Not part of the checksum; a failure is reported,
   * not fatal (autovacuum does the same later).
   */
  after: string[];
}

export function defaultMigrationsDir(): string {
  return path.resolve(import.meta.dirname, '../../../prisma/migrations');
}

export function readMigrations(dir = defaultMigrationsDir()): MigrationFile[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && fs.existsSync(path.join(dir, d.name, 'migration.sql')))
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const sql = fs.readFileSync(path.join(dir, name, 'migration.sql'), 'utf8');
      const afterFile = path.join(dir, name, 'after.sql');
      const after = fs.existsSync(afterFile)
        ? fs
            .readFileSync(afterFile, 'utf8')
            .split(/;\s*(?:\n|$)/)
            .map((x) => x.replace(/^\s*--.*$/gm, '').trim())
            .filter(Boolean)
        : [];
      return { name, sql, checksum: crypto.createHash('sha256').update(sql).digest('hex'), after };
    });
}

const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

export interface MigrateResult {
  /** The migrations applied. */
  applied: string[];
  /** The repeatable scripts (prisma/functions) applied because their text changed. */
  scripts: string[];
}

export interface MigrateDirs {
  /** Default: prisma/migrations. */
  migrations?: string;
  /**
   * Default: prisma/functions. null applies the migrations only: the scripts
   * define functions and triggers on the tables of the last migration, so a
   * database migrated part of the way (a test of one migration's data change)
   * cannot take them.
   */
  functions?: string | null;
}

export async function migrate(sql: Sql, dirs: MigrateDirs = {}, warn: Warn = (m) => console.warn(m)): Promise<MigrateResult> {
  const migrations = readMigrations(dirs.migrations);
  const scripts = dirs.functions === null ? [] : readRepeatableScripts(dirs.functions);
  return sql.session(async (conn) => {
    await conn.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      await conn.exec(CREATE_TABLE);
      const done = await conn.query<{ migration_name: string; checksum: string }>(
        'SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
      );
      const doneByName = new Map(done.map((r) => [r.migration_name, r.checksum]));
      const applied: string[] = [];
      for (const m of migrations) {
        const previous = doneByName.get(m.name);
        if (previous !== undefined) {
          if (previous !== m.checksum) {
            warn(`migration ${m.name} was modified after it was applied (checksum differs)`);
          }
          continue;
        }
        await conn.exec('BEGIN');
        try {
          await conn.exec(m.sql);
          await conn.query(
            `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, applied_steps_count)
             VALUES ($1, $2, now(), $3, 1)`,
            [crypto.randomUUID(), m.checksum, m.name],
          );
          await conn.exec('COMMIT');
        } catch (err) {
          await conn.exec('ROLLBACK');
          throw new Error(`migration ${m.name} failed: ${(err as Error).message}`);
        }
        for (const statement of m.after) {
          await conn.exec(statement).catch((err: Error) => warn(`migration ${m.name}: after.sql: ${err.message}`));
        }
        applied.push(m.name);
      }
      const scriptsApplied = dirs.functions === null ? [] : await applyRepeatableScripts(conn, scripts);
      return { applied, scripts: scriptsApplied };
    } finally {
      await conn.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  });
}
