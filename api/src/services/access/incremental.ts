// Incremental re-analysis. A run whose rule set version, date and systems are
// those of the previous completed run of that version, and whose extracts
// differ from it in at most one system, recomputes only the users that
// differ and shares every other user's conflicts and rows with that run:
// what a user's conflicts are depends only on that user's rows and the roles
// they hold, so what it shares equals what a full run would compute.
//
// Touched users, found set-based between the old and new extract of the
// changed system:
// - users whose USR02, USER_ADDR, AGR_USERS (as UNAME) or USAGE rows differ;
// - holders (in either extract, directly or through a composite of either)
//   of roles whose AGR_1251, AGR_AGRS (as the composite) or AGR_TEXTS rows
//   differ.
// Rows are compared per key as multisets by a count and a sum of 64-bit
// hashes of each row (a different seed per table), one scan of each table,
// without sorting either extract. A touched user is recomputed on every
// system, as a cross-system risk reads them all.
//
// Sharing, not copying: a run's users (access_run_users) name, per user with
// conflicts, the run that holds that user's conflicts and rows. A full run
// holds all of its own; an incremental run holds only the touched users'
// and takes every other user's entry from its base, which already names the
// run holding them, so a chain of incremental runs resolves in one lookup
// and its cost does not grow with the chain. Every reader of a run's
// conflicts or rows goes through its users (RUN_CONFLICTS, RUN_ROWS).
//
// Row numbers stay those of a full run without rewriting a stored row: rows
// are ordered by user first, so a user's rows are consecutive in every run;
// the run's users say where each user's rows start in this run (the rows of
// the users before them, counted) and by how much the numbers the holding
// run stored move (row_shift), and a reader adds it.
import { Prisma } from '../../generated/prisma/client.js';
import { UUID } from './rule-sets.js';

export interface RunShape {
  id: string;
  systems: string[];
  extractIds: string[];
  asOf: Date;
}

/** The changed system's old and new extract when `run` can build on `previous`; null when it must be full. */
export function incrementalBase(run: RunShape, previous: RunShape | null): { baseRunId: string; oldExtract: string | null; newExtract: string | null } | null {
  if (!previous || previous.asOf.getTime() !== run.asOf.getTime()) return null;
  const before = new Map(previous.systems.map((s, i) => [s, previous.extractIds[i]!]));
  const after = new Map(run.systems.map((s, i) => [s, run.extractIds[i]!]));
  if (before.size !== after.size || [...after.keys()].some((s) => !before.has(s))) return null;
  const changed = [...after].filter(([s, id]) => before.get(s) !== id);
  if (changed.length > 1) return null;
  const [system, newExtract] = changed[0] ?? [null, null];
  return { baseRunId: previous.id, oldExtract: system ? before.get(system)! : null, newExtract };
}

function checked(id: string): string {
  if (!UUID.test(id)) throw new Error(`Not an id: ${id}`);
  return id;
}

/** access_t_touched(bname): the users to recompute; none when no extract changed. */
export function touchedUsersSql(oldExtract: string | null, newExtract: string | null): string {
  if (!oldExtract || !newExtract) return `CREATE TEMP TABLE access_t_touched ON COMMIT DROP AS SELECT ''::text COLLATE "C" AS bname WHERE false`;
  const o = checked(oldExtract);
  const n = checked(newExtract);
  const side = `CASE WHEN extract_id = '${n}'::uuid THEN 1 ELSE -1 END`;
  const rows = (table: string, key: string, cols: string, seed: number) =>
    `SELECT ${key} AS k, ${seed} AS t, ${side} AS s, ${side} * hashtextextended(ROW(${cols})::text, ${seed})::numeric AS h FROM ${table} WHERE extract_id IN ('${o}'::uuid, '${n}'::uuid)`;
  return `CREATE TEMP TABLE access_t_touched ON COMMIT DROP AS
WITH user_rows AS (
  ${rows('access_x_usr02', 'bname', 'class, ustyp, uflag, gltgv, gltgb', 1)}
  UNION ALL ${rows('access_x_user_addr', 'bname', 'name_first, name_last', 2)}
  UNION ALL ${rows('access_x_agr_users', 'uname', 'agr_name, from_dat, to_dat, col_flag', 3)}
  UNION ALL ${rows('access_x_usage', 'bname', 'tcode, count, last_used', 4)}
),
role_rows AS (
  ${rows('access_x_agr_1251', 'agr_name', 'object, auth, field, low, high, deleted', 5)}
  UNION ALL ${rows('access_x_agr_agrs', 'agr_name', 'child_agr', 6)}
  UNION ALL ${rows('access_x_agr_texts', 'agr_name', 'text', 7)}
),
changed_roles AS (
  SELECT DISTINCT k AS role FROM role_rows GROUP BY k, t HAVING sum(s) <> 0 OR sum(h) <> 0
),
held_through AS (
  SELECT role FROM changed_roles
  UNION SELECT k.agr_name FROM access_x_agr_agrs k JOIN changed_roles c ON c.role = k.child_agr WHERE k.extract_id IN ('${o}'::uuid, '${n}'::uuid)
)
SELECT DISTINCT bname COLLATE "C" AS bname FROM (
  SELECT k AS bname FROM user_rows GROUP BY k, t HAVING sum(s) <> 0 OR sum(h) <> 0
  UNION ALL
  SELECT a.uname FROM access_x_agr_users a JOIN held_through r ON r.role = a.agr_name WHERE a.extract_id IN ('${o}'::uuid, '${n}'::uuid)
) u`;
}

/**
 * After the touched users' rows are in (numbered 1, 2, … among themselves,
 * in full-run order) with their conflicts and their entries in the run's
 * users (ANALYSIS_CONFLICTS_SQL): adds the base run's entry of every other
 * user (the run holding them, their counts), then numbers all the users'
 * rows in user order: each user's first row is one after the rows of the
 * users before them, and their stored rows move by as much as their first
 * one did. Values: $1 run id, $2 base run id.
 */
export const INCREMENTAL_MERGE_SQL = [
  `INSERT INTO access_run_users (run_id, user_id, source_run_id, first_row, row_shift, rows, conflicts, exercised)
SELECT $1::uuid, b.user_id, b.source_run_id, b.first_row, b.row_shift, b.rows, b.conflicts, b.exercised
  FROM access_run_users b
 WHERE b.run_id = $2::uuid AND NOT EXISTS (SELECT 1 FROM access_t_touched t WHERE t.bname = b.user_id)`,
  `UPDATE access_run_users m SET first_row = p.first_row, row_shift = m.row_shift + p.first_row - m.first_row
  FROM (SELECT user_id, (sum(rows) OVER (ORDER BY user_id ROWS UNBOUNDED PRECEDING) - rows + 1)::int AS first_row
          FROM access_run_users WHERE run_id = $1::uuid) p
 WHERE m.run_id = $1::uuid AND m.user_id = p.user_id AND m.first_row <> p.first_row`,
];

/** Users recomputed by an incremental run: touched users analysed now or with conflicts in the base run. $1 base run id. */
export const RECOMPUTED_TOUCHED_SQL = `SELECT count(*)::int AS n FROM access_t_touched t
 WHERE EXISTS (SELECT 1 FROM access_t_usr u WHERE u.bname = t.bname)
    OR EXISTS (SELECT 1 FROM access_run_users m WHERE m.run_id = $1::uuid AND m.user_id = t.bname)`;

/** Users recomputed by a full run: every analysed user. */
export const RECOMPUTED_ALL_SQL = `SELECT count(DISTINCT bname)::int AS n FROM access_t_usr`;

/** A run's conflicts (FROM text): `m` its users, `c` each user's conflicts in the run holding them (c.run_id). */
export const RUN_CONFLICTS = 'access_run_users m JOIN access_conflicts c ON c.run_id = m.source_run_id AND c.user_id = m.user_id';

/** A run's rows (FROM text): `m` its users, `r` each user's rows in the run holding them; this run's number is r.row_no + m.row_shift. */
export const RUN_ROWS = 'access_run_users m JOIN access_conflict_rows r ON r.run_id = m.source_run_id AND r.user_id = m.user_id';

/**
 * The conflict `c` (of RUN_CONFLICTS) is one of run `runId`'s too: that run
 * holds the user's conflicts where this one does (the same conflict), or
 * has the user and the risk.
 */
export const alsoInRun = (runId: string) =>
  Prisma.sql`EXISTS (SELECT 1 FROM access_run_users om WHERE om.run_id = ${runId}::uuid AND om.user_id = c.user_id
     AND (om.source_run_id = c.run_id OR EXISTS (SELECT 1 FROM access_conflicts o WHERE o.run_id = om.source_run_id AND o.user_id = c.user_id AND o.risk_id = c.risk_id)))`;

/**
 * Run $1's conflicts that run $2 does not have (added) and the reverse
 * (removed), compared user by user only where the two runs read a user
 * from different runs: a user both read from the same run has the same
 * conflicts in both. $2 null: every conflict added.
 */
export const ADDED_REMOVED_SQL = `WITH a AS (SELECT user_id, source_run_id FROM access_run_users WHERE run_id = $1::uuid),
b AS (SELECT user_id, source_run_id FROM access_run_users WHERE run_id = $2::uuid),
d AS MATERIALIZED (
  SELECT coalesce(a.user_id, b.user_id) AS user_id, a.source_run_id AS a_src, b.source_run_id AS b_src
    FROM a FULL JOIN b ON b.user_id = a.user_id
   WHERE a.source_run_id IS DISTINCT FROM b.source_run_id
)
SELECT (SELECT count(*) FROM d JOIN access_conflicts n ON n.run_id = d.a_src AND n.user_id = d.user_id
         WHERE NOT EXISTS (SELECT 1 FROM access_conflicts o WHERE o.run_id = d.b_src AND o.user_id = d.user_id AND o.risk_id = n.risk_id))::int AS added,
       (SELECT count(*) FROM d JOIN access_conflicts o ON o.run_id = d.b_src AND o.user_id = d.user_id
         WHERE NOT EXISTS (SELECT 1 FROM access_conflicts n WHERE n.run_id = d.a_src AND n.user_id = d.user_id AND n.risk_id = o.risk_id))::int AS removed`;
