// The bodies of the database's functions and triggers, one script each under
// prisma/functions, applied after the migrations as repeatable scripts: a
// script runs again whenever its text changes (its checksum differs from the
// one recorded in _repeatable_scripts) and not otherwise. Each script is
// idempotent (CREATE OR REPLACE FUNCTION; DROP TRIGGER IF EXISTS, then CREATE
// TRIGGER), so the current body of a function lives in one file, not in
// whichever migration last redefined it. The migrations keep their own
// definitions: they are history, already applied by deployments.
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import type { SqlConn } from './client.js';

export interface RepeatableScript {
  /** The file name, e.g. risk_rows_after_insert.sql. */
  name: string;
  sql: string;
  checksum: string;
}

export function defaultFunctionsDir(): string {
  return path.resolve(import.meta.dirname, '../../../prisma/functions');
}

/** The *.sql files of dir, in name order (the order they are applied in). */
export function readRepeatableScripts(dir = defaultFunctionsDir()): RepeatableScript[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isFile() && d.name.endsWith('.sql'))
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const sql = fs.readFileSync(path.join(dir, name), 'utf8');
      return { name, sql, checksum: crypto.createHash('sha256').update(sql).digest('hex') };
    });
}

const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS "_repeatable_scripts" (
    "name"       TEXT PRIMARY KEY,
    "checksum"   VARCHAR(64) NOT NULL,
    "applied_at" TIMESTAMPTZ NOT NULL DEFAULT now()
)`;

/**
 * Applies the scripts whose checksum differs from the one recorded (or that
 * were never applied), all in one transaction: a change spanning several
 * functions is applied whole or not at all. A script no longer there loses
 * its record (dropping its function is a migration's work). The caller holds
 * the migration lock, so instances starting together apply each script once.
 * Returns the names of the scripts applied.
 */
export async function applyRepeatableScripts(conn: SqlConn, scripts: RepeatableScript[]): Promise<string[]> {
  await conn.exec(CREATE_TABLE);
  const recorded = await conn.query<{ name: string; checksum: string }>('SELECT name, checksum FROM "_repeatable_scripts"');
  const checksumOf = new Map(recorded.map((r) => [r.name, r.checksum]));
  const changed = scripts.filter((s) => checksumOf.get(s.name) !== s.checksum);
  const gone = recorded.map((r) => r.name).filter((name) => !scripts.some((s) => s.name === name));
  if (changed.length === 0 && gone.length === 0) return [];
  await conn.exec('BEGIN');
  try {
    for (const s of changed) {
      try {
        await conn.exec(s.sql);
      } catch (err) {
        throw new Error(`database function script ${s.name} failed: ${(err as Error).message}`);
      }
      await conn.query(
        `INSERT INTO "_repeatable_scripts" (name, checksum, applied_at) VALUES ($1, $2, now())
         ON CONFLICT (name) DO UPDATE SET checksum = EXCLUDED.checksum, applied_at = EXCLUDED.applied_at`,
        [s.name, s.checksum],
      );
    }
    for (const name of gone) await conn.query('DELETE FROM "_repeatable_scripts" WHERE name = $1', [name]);
    await conn.exec('COMMIT');
  } catch (err) {
    await conn.exec('ROLLBACK');
    throw err;
  }
  return changed.map((s) => s.name);
}
