// The analysis in SQL, set-based (one statement for a run's rows), so it
// scales with the estate instead of with the number of users. The rules it
// states, in order:
// - analysed users: a system's USR02 rows with UFLAG 0 valid on the date
//   (bounds inclusive; NULL, from 00000000 or empty, is unlimited);
// - their roles: AGR_USERS rows valid on the date, COL_FLAG 'X' rows left out
//   (SAP's copies of a composite's single roles), of users analysed there;
//   a composite (an AGR_NAME of AGR_AGRS) stands for its single roles, each
//   path (single role, composite or '') counting on its own;
// - grants: AGR_1251 rows of single roles (a composite's own are ignored),
//   DELETED 'X' left out; HIGH not empty is the range LOW..HIGH, else '*' is
//   anything, else 'P*' the prefix P, else exactly LOW; code point order;
// - an action is held through a single role granting it in S_TCODE / TCD;
// - a (function, system, action)'s requirement is its enabled permission rows
//   for that system ('' is every system), by object: one authorization of the
//   object (in any of the user's single roles there) must meet every field,
//   several rows of a field being alternatives;
// - a function is held on a system through any enabled action with its
//   requirement met; a risk is a conflict when every function is held: on one
//   system when all its functions are Single-scope, across the analysed
//   systems when any is Cross;
// - the rows: per shown system, function, action held, path granting the
//   action's transaction, and per required (object, field) the authorization
//   that met it (the path's own role first, then by role and authorization
//   name) with its first granted value meeting the field;
// - Rule ID: the risk id and the 1-based number of the combination of
//   actions (each function's enabled actions in code point order, functions
//   in code point order, the row's action for its function and the user's
//   first action shown for every other), at least four digits.
// Values: $1 run id, $2 rule set id, $3 extract ids, $4 analysis date.

import { planSettingsSql } from '../../db/plan-settings.js';

/** covers(g, v): the grant row g covers the value v. */
const covers = (g: string, v: string) => `(CASE WHEN ${g}.high <> '' THEN ${g}.low <= ${v} AND ${v} <= ${g}.high
  WHEN ${g}.low = '*' THEN true
  WHEN right(${g}.low, 1) = '*' THEN starts_with(${v}, left(${g}.low, -1))
  ELSE ${g}.low = ${v} END)`;

/** meets(g, r): the grant row g meets the requirement row r ('*'; a value; a range From..To). */
const meets = (g: string, r: string) => `(CASE WHEN ${r}.value_from = '*' THEN true
  WHEN ${r}.value_to = '' THEN ${covers(g, `${r}.value_from`)}
  WHEN ${g}.high <> '' THEN ${g}.low <= ${r}.value_to AND ${g}.high >= ${r}.value_from
  WHEN ${g}.low = '*' THEN true
  WHEN right(${g}.low, 1) = '*' THEN left(${g}.low, -1) <= ${r}.value_to AND (${r}.value_from <= left(${g}.low, -1) OR starts_with(${r}.value_from, left(${g}.low, -1)))
  ELSE ${g}.low >= ${r}.value_from AND ${g}.low <= ${r}.value_to END)`;

/**
 * The statements of a run, in order, in one transaction: each stage a
 * temporary table (dropped at commit) that is ANALYZEd before the next stage
 * reads it, so the planner joins what it has counted instead of guessing,
 * then the INSERT of the run's rows. The values are written into the text
 * (checked first: uuids and a date), as CREATE TABLE AS takes no parameters.
 */
export function analysisStatements(p: {
  runId: string;
  ruleSetId: string;
  extractIds: string[];
  asOf: string;
  touchedOnly?: boolean;
  assignments?: string;
}): string[] {
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
  for (const id of [p.runId, p.ruleSetId, ...p.extractIds]) if (!uuid.test(id)) throw new Error(`Not an id: ${id}`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(p.asOf)) throw new Error(`Not a date: ${p.asOf}`);
  const values: Record<string, string> = { '1': `'${p.runId}'`, '2': `'${p.ruleSetId}'`, '3': `'{${p.extractIds.join(',')}}'`, '4': `'${p.asOf}'` };
  // `assignments`: a temporary table shaped as AGR_USERS (extract_id, agr_name, uname, from_dat, to_dat,
  // col_flag) read in its place, so the same rules answer for a hypothetical set of role assignments.
  if (p.assignments !== undefined && !/^access_t_\w+$/.test(p.assignments)) throw new Error(`Not a temporary table: ${p.assignments}`);
  const agrUsers = (text: string) => (p.assignments ? text.replace(/\baccess_x_agr_users\b/g, p.assignments) : text);
  // Only some users analysed: an incremental run (incremental.ts) those of
  // access_t_touched, on every system, numbering their rows among
  // themselves in full-run order (the run's users then place them among the
  // rows it shares); a run on hypothetical assignments (a simulation) those
  // the assignments name. Either stages only those users' rows of USR02 and
  // USAGE and the authorizations of their single roles, so its cost follows
  // them, not the estate: no other user's rows or role's grants can reach
  // their conflicts.
  const users = p.touchedOnly ? 'SELECT bname FROM access_t_touched' : p.assignments ? `SELECT uname FROM ${p.assignments}` : null;
  const bind = (text: string) =>
    agrUsers(
      text
        .replace(/\$([1-4])(?=::)/g, (_m, n: string) => values[n]!)
        .replace('/*touched*/', users ? ` AND u.bname IN (${users})` : '')
        .replace('/*roles*/', users ? ' AND EXISTS (SELECT 1 FROM access_t_user_roles ur WHERE ur.xid = g.extract_id AND ur.role = g.agr_name)' : '')
        .replace('/*usage*/', users ? ' AND u.bname IN (SELECT bname FROM access_t_usr)' : ''),
    );
  // Every join here is a hash join over whole stages, on every key it has. A
  // nested loop chosen on an estimate of one row costs minutes; so does a
  // merge join, which keys on the leading column alone (the extract, one
  // value) and filters the rest: at 50,000 users a cross product of millions
  // of rows. Neither is taken. No JIT (compiling costs more than it saves on
  // these statements); sorts and hashes of a stage get 256 MB before spilling
  // (at 50,000 users the stages are millions of rows: at 64 MB they spill to
  // disk and take twice as long).
  const out = planSettingsSql({ hashJoinsOnly: true, jit: 'off', workMem: '256MB' });
  for (const stage of STAGES) {
    out.push(bind(stage));
    const table = /^CREATE TEMP TABLE (\w+)/.exec(stage)?.[1];
    if (table) out.push(`ANALYZE ${table}`);
  }
  return out;
}

const STAGES = [
  `CREATE TEMP TABLE access_t_ext ON COMMIT DROP AS
  SELECT id AS xid, system FROM access_extracts WHERE id = ANY($3::uuid[])`,
  `CREATE TEMP TABLE access_t_usr ON COMMIT DROP AS
  SELECT DISTINCT e.xid, e.system, u.bname
    FROM access_t_ext e JOIN access_x_usr02 u ON u.extract_id = e.xid
   WHERE u.uflag = 0 AND (u.gltgv IS NULL OR u.gltgv <= $4::date) AND (u.gltgb IS NULL OR u.gltgb >= $4::date)/*touched*/`,
  `CREATE TEMP TABLE access_t_comp ON COMMIT DROP AS
  SELECT DISTINCT k.extract_id AS xid, k.agr_name FROM access_x_agr_agrs k JOIN access_t_ext e ON e.xid = k.extract_id`,
  `CREATE TEMP TABLE access_t_paths ON COMMIT DROP AS
WITH asg AS (
  SELECT DISTINCT u.xid, u.system, u.bname, a.agr_name
    FROM access_t_usr u JOIN access_x_agr_users a ON a.extract_id = u.xid AND a.uname = u.bname
   WHERE a.col_flag <> 'X' AND (a.from_dat IS NULL OR a.from_dat <= $4::date) AND (a.to_dat IS NULL OR a.to_dat >= $4::date)
)
  SELECT a.xid, a.system, a.bname, a.agr_name AS role, ''::text COLLATE "C" AS composite FROM asg a
   WHERE NOT EXISTS (SELECT 1 FROM access_t_comp c WHERE c.xid = a.xid AND c.agr_name = a.agr_name)
  UNION
  SELECT a.xid, a.system, a.bname, k.child_agr, a.agr_name FROM asg a JOIN access_x_agr_agrs k ON k.extract_id = a.xid AND k.agr_name = a.agr_name
   WHERE NOT EXISTS (SELECT 1 FROM access_t_comp c WHERE c.xid = a.xid AND c.agr_name = k.child_agr)`,
  `CREATE TEMP TABLE access_t_user_roles ON COMMIT DROP AS
  SELECT DISTINCT xid, bname, role FROM access_t_paths`,
  `CREATE TEMP TABLE access_t_acts ON COMMIT DROP AS
  SELECT DISTINCT e.xid, e.system, a.function_id, a.action
    FROM access_t_ext e JOIN access_function_actions a ON a.rule_set_id = $2::uuid AND a.enabled AND (a.system = '' OR a.system = e.system)`,
  `CREATE TEMP TABLE access_t_reqs ON COMMIT DROP AS
  SELECT DISTINCT e.xid, p.function_id, p.action, p.object, p.field, p.value_from, p.value_to
    FROM access_t_ext e JOIN access_function_permissions p ON p.rule_set_id = $2::uuid AND p.enabled AND (p.system = '' OR p.system = e.system)
    JOIN access_t_acts a ON a.xid = e.xid AND a.function_id = p.function_id AND a.action = p.action`,
  // Only the grants a rule can read: S_TCODE / TCD and the (object, field)
  // pairs of the requirements; the other objects of a role are never compared.
  `CREATE TEMP TABLE access_t_grants ON COMMIT DROP AS
WITH wanted AS (
  SELECT DISTINCT xid, object, field FROM access_t_reqs
  UNION SELECT xid, 'S_TCODE', 'TCD' FROM access_t_ext
)
  SELECT g.extract_id AS xid, g.agr_name AS role, g.object, g.auth, g.field, g.low, g.high
    FROM access_x_agr_1251 g JOIN wanted w ON w.xid = g.extract_id AND w.object = g.object AND w.field = g.field
   WHERE g.deleted <> 'X' AND NOT EXISTS (SELECT 1 FROM access_t_comp c WHERE c.xid = g.extract_id AND c.agr_name = g.agr_name)/*roles*/`,
  // Exact transaction values (most of S_TCODE) join by equality; only
  // prefixes, ranges and '*' are compared with every action.
  `CREATE TEMP TABLE access_t_role_tcodes ON COMMIT DROP AS
  SELECT a.xid, g.role, a.function_id, a.action
    FROM access_t_acts a JOIN access_t_grants g ON g.xid = a.xid AND g.object = 'S_TCODE' AND g.field = 'TCD' AND g.low = a.action
   WHERE g.high = '' AND right(g.low, 1) <> '*'
  UNION
  SELECT a.xid, g.role, a.function_id, a.action
    FROM access_t_acts a JOIN access_t_grants g ON g.xid = a.xid AND g.object = 'S_TCODE' AND g.field = 'TCD' AND (g.high <> '' OR right(g.low, 1) = '*') AND ${covers('g', 'a.action')}`,
  // An object's requirement of a (function, action) is a set of (field,
  // From, To) rows; many actions share one set, so authorizations are checked
  // once per distinct set (its signature) instead of once per action.
  `CREATE TEMP TABLE access_t_req_sig ON COMMIT DROP AS
  SELECT xid, function_id, action, object, md5(string_agg(field || chr(1) || value_from || chr(1) || value_to, chr(2) ORDER BY field, value_from, value_to)) AS sig
    FROM (SELECT DISTINCT xid, function_id, action, object, field, value_from, value_to FROM access_t_reqs) r
   GROUP BY xid, function_id, action, object`,
  // access_t_auth_ok: the authorizations (role, auth) meeting every field of a signature.
  `CREATE TEMP TABLE access_t_auth_ok ON COMMIT DROP AS
WITH sig_rows AS (
  SELECT DISTINCT q.xid, q.object, q.sig, r.field, r.value_from, r.value_to
    FROM access_t_req_sig q JOIN access_t_reqs r ON r.xid = q.xid AND r.function_id = q.function_id AND r.action = q.action AND r.object = q.object
), sig_fields AS (
  SELECT xid, object, sig, count(DISTINCT field) AS n FROM sig_rows GROUP BY xid, object, sig
), req_values AS (
  SELECT DISTINCT xid, object, field, value_from, value_to FROM sig_rows
), grant_values AS (
  SELECT DISTINCT xid, object, field, low, high FROM access_t_grants
), value_met AS (
  SELECT g.xid, g.object, g.field, g.low, g.high, r.value_from, r.value_to
    FROM req_values r JOIN grant_values g ON g.xid = r.xid AND g.object = r.object AND g.field = r.field AND ${meets('g', 'r')}
), auth_fields AS (
  SELECT DISTINCT s.xid, s.object, s.sig, s.field, g.role, g.auth
    FROM value_met m
    JOIN sig_rows s ON s.xid = m.xid AND s.object = m.object AND s.field = m.field AND s.value_from = m.value_from AND s.value_to = m.value_to
    JOIN access_t_grants g ON g.xid = m.xid AND g.object = m.object AND g.field = m.field AND g.low = m.low AND g.high = m.high
)
  SELECT f.xid, f.object, f.sig, f.role, f.auth
    FROM auth_fields f JOIN sig_fields q ON q.xid = f.xid AND q.object = f.object AND q.sig = f.sig
   GROUP BY f.xid, f.object, f.sig, f.role, f.auth, q.n
  HAVING count(DISTINCT f.field) = q.n`,
  // The authorization that meets a signature in a role: its first by name.
  `CREATE TEMP TABLE access_t_role_sig ON COMMIT DROP AS
  SELECT DISTINCT ON (xid, role, object, sig) xid, role, object, sig, auth FROM access_t_auth_ok ORDER BY xid, role, object, sig, auth`,
  // The signatures each user meets through any of their roles there, with the
  // first (role, authorization) that meets each, by name.
  `CREATE TEMP TABLE access_t_user_sig ON COMMIT DROP AS
  SELECT DISTINCT ON (ur.xid, ur.bname, o.object, o.sig) ur.xid, ur.bname, o.object, o.sig, o.role, o.auth
    FROM access_t_user_roles ur JOIN access_t_role_sig o ON o.xid = ur.xid AND o.role = ur.role
   ORDER BY ur.xid, ur.bname, o.object, o.sig, o.role, o.auth`,
  `CREATE TEMP TABLE access_t_user_tcode ON COMMIT DROP AS
  SELECT p.xid, p.system, p.bname, p.role, p.composite, t.function_id, t.action
    FROM access_t_paths p JOIN access_t_role_tcodes t ON t.xid = p.xid AND t.role = p.role`,
  // The objects met are counted only for the (user, action) pairs whose
  // transaction the user has: one row of access_t_req_sig per object.
  `CREATE TEMP TABLE access_t_held ON COMMIT DROP AS
WITH req_objects AS (
  SELECT xid, function_id, action, count(*) AS n FROM access_t_req_sig GROUP BY xid, function_id, action
), cand AS (
  SELECT DISTINCT xid, system, bname, function_id, action FROM access_t_user_tcode
), met AS (
  SELECT c.xid, c.bname, c.function_id, c.action, count(*) AS n
    FROM (SELECT DISTINCT xid, bname, function_id, action FROM cand) c
    JOIN access_t_req_sig q ON q.xid = c.xid AND q.function_id = c.function_id AND q.action = c.action
    JOIN access_t_user_sig us ON us.xid = c.xid AND us.bname = c.bname AND us.object = q.object AND us.sig = q.sig
   GROUP BY c.xid, c.bname, c.function_id, c.action
)
  SELECT c.xid, c.system, c.bname, c.function_id, c.action
    FROM cand c
    LEFT JOIN req_objects q ON q.xid = c.xid AND q.function_id = c.function_id AND q.action = c.action
    LEFT JOIN met m ON m.xid = c.xid AND m.bname = c.bname AND m.function_id = c.function_id AND m.action = c.action
   WHERE q.n IS NULL OR m.n = q.n`,
  `CREATE TEMP TABLE access_t_rf ON COMMIT DROP AS
SELECT r.risk_id, x.function_id, f.scope
    FROM access_risks r
    JOIN access_risk_functions x ON x.rule_set_id = r.rule_set_id AND x.risk_id = r.risk_id
    JOIN access_functions f ON f.rule_set_id = r.rule_set_id AND f.function_id = x.function_id
   WHERE r.rule_set_id = $2::uuid AND r.enabled`,
  `CREATE TEMP TABLE access_t_shown_held ON COMMIT DROP AS
WITH risk_n AS (
  SELECT risk_id, count(*) AS n, bool_or(scope = 'Cross') AS crossing FROM access_t_rf GROUP BY risk_id
),
held_fn AS (
  SELECT DISTINCT xid, system, bname, function_id FROM access_t_held
),
sys_fn AS (
  SELECT h.bname, rf.risk_id, h.xid, h.system, count(*) AS n
    FROM held_fn h JOIN access_t_rf rf ON rf.function_id = h.function_id
   GROUP BY h.bname, rf.risk_id, h.xid, h.system
),
cross_users AS (
  SELECT h.bname, rf.risk_id
    FROM (SELECT DISTINCT bname, function_id FROM held_fn) h JOIN access_t_rf rf ON rf.function_id = h.function_id JOIN risk_n r ON r.risk_id = rf.risk_id AND r.crossing
   GROUP BY h.bname, rf.risk_id, r.n
  HAVING count(*) = r.n
),
shown AS (
  SELECT s.bname, s.risk_id, s.xid, s.system FROM sys_fn s JOIN risk_n r ON r.risk_id = s.risk_id AND NOT r.crossing WHERE s.n = r.n
  UNION ALL
  SELECT s.bname, s.risk_id, s.xid, s.system FROM sys_fn s JOIN cross_users c ON c.bname = s.bname AND c.risk_id = s.risk_id
),
-- The shown (user, risk, system) with each function of the risk first, so
-- the held actions join on user and function at once.
shown_fn AS MATERIALIZED (
  SELECT s.bname, s.risk_id, s.xid, s.system, rf.function_id FROM shown s JOIN access_t_rf rf ON rf.risk_id = s.risk_id
)
SELECT s.bname, s.risk_id, s.xid, s.system, h.function_id, h.action
    FROM shown_fn s JOIN access_t_held h ON h.xid = s.xid AND h.bname = s.bname AND h.function_id = s.function_id`,
  // Per authorization that meets a signature, and per requirement of that
  // signature: each field's first granted value meeting it (by LOW, HIGH).
  // It depends on the authorization alone, not on who holds it.
  `CREATE TEMP TABLE access_t_auth_values ON COMMIT DROP AS
SELECT DISTINCT ON (o.xid, o.role, o.auth, q.function_id, q.action, q.object, r.field)
         o.xid, o.role, o.auth, q.function_id, q.action, q.object, r.field, g.low, g.high
    FROM access_t_auth_ok o
    JOIN access_t_req_sig q ON q.xid = o.xid AND q.object = o.object AND q.sig = o.sig
    JOIN access_t_reqs r ON r.xid = q.xid AND r.function_id = q.function_id AND r.action = q.action AND r.object = q.object
    JOIN access_t_grants g ON g.xid = o.xid AND g.role = o.role AND g.object = o.object AND g.auth = o.auth AND g.field = r.field AND ${meets('g', 'r')}
   ORDER BY o.xid, o.role, o.auth, q.function_id, q.action, q.object, r.field, g.low, g.high`,
  // Per shown path and required object, the authorization its rows show: the
  // path's own role's when it meets the object's signature, else the user's
  // first role's that does.
  `CREATE TEMP TABLE access_t_picked ON COMMIT DROP AS
SELECT t.xid, t.bname, t.function_id, t.action, t.role AS path_role, q.object,
       coalesce(own.role, us.role) AS auth_role, coalesce(own.auth, us.auth) AS auth
    FROM (SELECT DISTINCT u.xid, u.bname, u.function_id, u.action, u.role FROM access_t_user_tcode u
           WHERE EXISTS (SELECT 1 FROM access_t_shown_held sh WHERE sh.xid = u.xid AND sh.bname = u.bname AND sh.function_id = u.function_id AND sh.action = u.action)) t
    JOIN access_t_req_sig q ON q.xid = t.xid AND q.function_id = t.function_id AND q.action = t.action
    JOIN access_t_user_sig us ON us.xid = t.xid AND us.bname = t.bname AND us.object = q.object AND us.sig = q.sig
    LEFT JOIN access_t_role_sig own ON own.xid = t.xid AND own.role = t.role AND own.object = q.object AND own.sig = q.sig`,
  `CREATE TEMP TABLE access_t_granted ON COMMIT DROP AS
SELECT p.xid, p.bname, p.function_id, p.action, p.path_role, p.object, v.field, v.low, v.high
    FROM access_t_picked p
    JOIN access_t_auth_values v ON v.xid = p.xid AND v.role = p.auth_role AND v.auth = p.auth AND v.function_id = p.function_id AND v.action = p.action AND v.object = p.object`,
  // Rule IDs: each action's position among its function's enabled actions,
  // each function's weight within its risk, and per shown action the number
  // of its combination. Staged and counted one by one: inlined, the planner
  // guessed a few hundred rows for millions and joined the paths to them on
  // the user alone (hundreds of millions of rows).
  `CREATE TEMP TABLE access_t_positions ON COMMIT DROP AS
  SELECT function_id, action, (row_number() OVER (PARTITION BY function_id ORDER BY action) - 1)::numeric AS pos
    FROM (SELECT DISTINCT function_id, action FROM access_function_actions WHERE rule_set_id = $2::uuid AND enabled) a`,
  `CREATE TEMP TABLE access_t_weights ON COMMIT DROP AS
  SELECT rf.risk_id, rf.function_id,
         round(exp(coalesce(sum(ln(c.n)) OVER (PARTITION BY rf.risk_id ORDER BY rf.function_id ROWS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING), 0))) AS w
    FROM access_t_rf rf JOIN (SELECT function_id, count(*)::numeric AS n FROM access_t_positions GROUP BY function_id) c ON c.function_id = rf.function_id`,
  `CREATE TEMP TABLE access_t_first_pos ON COMMIT DROP AS
  SELECT sh.bname, sh.risk_id, sh.function_id, min(p.pos) AS pos
    FROM access_t_shown_held sh JOIN access_t_positions p ON p.function_id = sh.function_id AND p.action = sh.action
   GROUP BY sh.bname, sh.risk_id, sh.function_id`,
  `CREATE TEMP TABLE access_t_base ON COMMIT DROP AS
  SELECT f.bname, f.risk_id, sum(f.pos * w.w) AS n
    FROM access_t_first_pos f JOIN access_t_weights w ON w.risk_id = f.risk_id AND w.function_id = f.function_id
   GROUP BY f.bname, f.risk_id`,
  `CREATE TEMP TABLE access_t_combination ON COMMIT DROP AS
  SELECT sh.xid, sh.bname, sh.risk_id, sh.function_id, sh.system, sh.action, (1 + b.n - fp.pos * w.w + p.pos * w.w)::bigint AS combination
    FROM access_t_shown_held sh
    JOIN access_t_positions p ON p.function_id = sh.function_id AND p.action = sh.action
    JOIN access_t_weights w ON w.risk_id = sh.risk_id AND w.function_id = sh.function_id
    JOIN access_t_first_pos fp ON fp.bname = sh.bname AND fp.risk_id = sh.risk_id AND fp.function_id = sh.function_id
    JOIN access_t_base b ON b.bname = sh.bname AND b.risk_id = sh.risk_id`,
  `WITH usage AS (
  SELECT u.extract_id AS xid, u.bname, u.tcode, sum(u.count) AS count, max(u.last_used) AS last_used
    FROM access_x_usage u JOIN access_t_ext e ON e.xid = u.extract_id/*usage*/
   GROUP BY u.extract_id, u.bname, u.tcode
),
out AS (
  SELECT c.bname, c.risk_id, c.function_id, c.system, c.action, t.role, t.composite,
         coalesce(v.object, '') AS resource, coalesce(v.field, '') AS resource_extn, coalesce(v.low, '') AS value_from, coalesce(v.high, '') AS value_to,
         c.combination, us.count AS execution_count, us.last_used
    FROM access_t_combination c
    JOIN access_t_user_tcode t ON t.xid = c.xid AND t.bname = c.bname AND t.function_id = c.function_id AND t.action = c.action
    LEFT JOIN access_t_granted v ON v.xid = t.xid AND v.bname = t.bname AND v.function_id = t.function_id AND v.action = t.action AND v.path_role = t.role
    LEFT JOIN usage us ON us.xid = c.xid AND us.bname = c.bname AND us.tcode = c.action
)
INSERT INTO access_conflict_rows (run_id, row_no, user_id, risk_id, rule_id, function_id, system, action, role, composite, resource, resource_extn, value_from, value_to, execution_count, last_executed_on)
SELECT $1::uuid, row_number() OVER (ORDER BY bname, risk_id, function_id, system, action, role, composite, resource, resource_extn),
       bname, risk_id, risk_id || CASE WHEN combination < 10000 THEN lpad(combination::text, 4, '0') ELSE combination::text END,
       function_id, system, action, role, composite, resource, resource_extn, value_from, value_to, execution_count, last_used
  FROM out`,
];

/**
 * The run's conflicts from the rows it wrote: exercised when every function
 * shows a shown action the user ran (COUNT > 0); and the run's users
 * (access_run_users) as holding their own rows, with their counts, read in
 * the same pass over the rows. A full run's are final; an incremental run
 * then adds the users it shares and places them all (incremental.ts).
 */
export const ANALYSIS_CONFLICTS_SQL = `
WITH g AS MATERIALIZED (
  SELECT user_id, risk_id, bool_and(ran) AS exercised, sum(n)::int AS rows, min(lo) AS lo
    FROM (SELECT user_id, risk_id, function_id, bool_or(coalesce(execution_count, 0) > 0) AS ran, count(*) AS n, min(row_no) AS lo
            FROM access_conflict_rows WHERE run_id = $1::uuid GROUP BY user_id, risk_id, function_id) f
   GROUP BY user_id, risk_id
), conflicts AS (
  INSERT INTO access_conflicts (run_id, user_id, risk_id, exercised) SELECT $1::uuid, user_id, risk_id, exercised FROM g
)
INSERT INTO access_run_users (run_id, user_id, source_run_id, first_row, row_shift, rows, conflicts, exercised)
SELECT $1::uuid, user_id, $1::uuid, min(lo), 0, sum(rows), count(*), count(*) FILTER (WHERE exercised)
  FROM g GROUP BY user_id`;
