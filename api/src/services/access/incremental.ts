// Incremental re-analysis. A run whose rule set version, date and systems are
// those of the previous completed run of that version, and whose extracts
// differ from it in at most one system, recomputes only the users that
// differ and copies every other user's conflicts and rows from that run:
// what a user's conflicts are depends only on that user's rows and the roles
// they hold, so the copy equals what a full run would compute.
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
// Row numbers stay those of a full run: rows are ordered by user first, so
// each copied row moves by the rows the touched users before it gained or
// lost, and a touched user's rows start after the copied rows before them.
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
 * After the touched users' rows are in (numbered -1, -2, … in full-run
 * order) with their conflicts: renumbers them, copies every other user's
 * rows and conflicts from the base run, and says how many users were
 * recomputed (touched users analysed now or with conflicts before).
 * Values: $1 run id, $2 base run id.
 */
export const INCREMENTAL_MERGE_SQL = [
  `CREATE TEMP TABLE access_t_shift ON COMMIT DROP AS
WITH counted AS (
  SELECT t.bname,
         (SELECT count(*) FROM access_conflict_rows r WHERE r.run_id = $2::uuid AND r.user_id = t.bname) AS old_n,
         (SELECT count(*) FROM access_conflict_rows r WHERE r.run_id = $1::uuid AND r.user_id = t.bname) AS new_n,
         coalesce((SELECT max(r.row_no) FROM access_conflict_rows r WHERE r.run_id = $2::uuid
                     AND r.user_id = (SELECT max(p.user_id) FROM access_conflict_rows p WHERE p.run_id = $2::uuid AND p.user_id < t.bname)), 0) AS old_lo
    FROM access_t_touched t
)
SELECT bname, old_n, new_n, old_lo,
       coalesce(sum(old_n) OVER w, 0) AS old_before,
       coalesce(sum(new_n - old_n) OVER w, 0) + new_n - old_n AS delta_through
  FROM counted WHERE old_n > 0 OR new_n > 0
WINDOW w AS (ORDER BY bname ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)`,
  `UPDATE access_conflict_rows r SET row_no = -r.row_no + (s.old_lo - s.old_before)
    FROM access_t_shift s WHERE r.run_id = $1::uuid AND r.user_id = s.bname`,
  // width_bucket counts the touched users whose rows lay before the copied row
  // (binary search over their first positions); cum[k + 1] is what they moved it by.
  `WITH b AS (
  SELECT coalesce(array_agg(old_lo ORDER BY bname), '{}')::bigint[] AS lo,
         ('{0}'::bigint[] || coalesce(array_agg(delta_through ORDER BY bname), '{}')::bigint[]) AS cum
    FROM access_t_shift
)
INSERT INTO access_conflict_rows (run_id, row_no, user_id, risk_id, rule_id, function_id, system, action, role, composite, resource, resource_extn, value_from, value_to, execution_count, last_executed_on)
SELECT $1::uuid, r.row_no + b.cum[width_bucket((r.row_no - 1)::bigint, b.lo) + 1], r.user_id, r.risk_id, r.rule_id, r.function_id, r.system, r.action, r.role, r.composite,
       r.resource, r.resource_extn, r.value_from, r.value_to, r.execution_count, r.last_executed_on
  FROM access_conflict_rows r CROSS JOIN b
 WHERE r.run_id = $2::uuid AND NOT EXISTS (SELECT 1 FROM access_t_touched t WHERE t.bname = r.user_id)`,
  `INSERT INTO access_conflicts (run_id, user_id, risk_id, exercised)
SELECT $1::uuid, c.user_id, c.risk_id, c.exercised FROM access_conflicts c
 WHERE c.run_id = $2::uuid AND NOT EXISTS (SELECT 1 FROM access_t_touched t WHERE t.bname = c.user_id)`,
];

/** Users recomputed by an incremental run: touched users analysed now or with conflicts in the base run. $1 base run id. */
export const RECOMPUTED_TOUCHED_SQL = `SELECT count(*)::int AS n FROM access_t_touched t
 WHERE EXISTS (SELECT 1 FROM access_t_usr u WHERE u.bname = t.bname)
    OR EXISTS (SELECT 1 FROM access_conflicts c WHERE c.run_id = $1::uuid AND c.user_id = t.bname)`;

/** Users recomputed by a full run: every analysed user. */
export const RECOMPUTED_ALL_SQL = `SELECT count(DISTINCT bname)::int AS n FROM access_t_usr`;
