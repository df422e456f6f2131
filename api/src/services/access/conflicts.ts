// A run's conflicts as people read them: a page of (user, risk) conflicts
// with filters (risk, system, user, exercised or latent), and the run's rows
// as CSV in the columns of an Access Risk Analysis export (ingest/columns.ts),
// the same columns the risk report writes and Data Upload reads, so the file
// loads back unchanged. The rows carry ids; names and descriptions come from
// the run's extracts and rule set: the user's name and group from the row's
// system, the action's description from its system's row or else the
// every-system one. A run's conflicts and rows are read through its users
// (incremental.ts: RUN_CONFLICTS, RUN_ROWS), which name the run holding each
// user's, and its row numbers are the stored ones moved by the user's shift.
import { Prisma, type PrismaClient } from '../../generated/prisma/client.js';
import type { Caller } from '../caller.js';
import { copyCsvLines, csvLine, sqlCsvText } from '../../core/csv.js';
import { EXPORT_FIELDS } from '../../ingest/columns.js';
import { ConflictError, ValidationError } from '../../core/errors.js';
import { getAnalysis } from './analysis.js';
import { RUN_CONFLICTS, RUN_ROWS, alsoInRun } from './incremental.js';

export interface ConflictFilter {
  riskId?: string | null;
  system?: string | null;
  userId?: string | null;
  /** true: exercised only; false: latent only; unset: both. */
  exercised?: boolean | null;
  /** Only (user, risk) pairs that this run does not have (services/access/changes.ts). */
  absentFrom?: string | null;
  /** Only (user, risk) pairs that this run has too. */
  presentIn?: string | null;
}

export interface ConflictSummary {
  runId: string;
  userId: string;
  riskId: string;
  exercised: boolean;
  riskDescription: string;
  riskLevel: string;
  businessProcess: string;
  /** The systems the conflict's rows show, in code point order. */
  systems: string[];
}

/** One page of a keyset over (user, risk): `after`/`before` are keys; `limit` may count the extra row that tells a next page is there; `inverted` reads backwards from `before`. */
export interface ConflictPage {
  after?: [string, string] | null;
  before?: [string, string] | null;
  limit: number;
  inverted?: boolean;
}

const MAX_FILTER = 200;

function filterSql(runId: string, f: ConflictFilter): Prisma.Sql {
  for (const [field, v] of [
    ['riskId', f.riskId],
    ['system', f.system],
    ['userId', f.userId],
  ] as const) {
    if (v != null && v.length > MAX_FILTER) throw new ValidationError(`${field}: at most ${MAX_FILTER} characters`, field);
  }
  const parts = [Prisma.sql`m.run_id = ${runId}::uuid`];
  if (f.riskId) parts.push(Prisma.sql`c.risk_id = ${f.riskId}`);
  if (f.userId) parts.push(Prisma.sql`c.user_id = ${f.userId}`);
  if (f.exercised != null) parts.push(Prisma.sql`c.exercised = ${f.exercised}`);
  if (f.absentFrom) parts.push(Prisma.sql`NOT ${alsoInRun(f.absentFrom)}`);
  if (f.presentIn) parts.push(alsoInRun(f.presentIn));
  // A user's rows are held by the run holding their conflicts (c.run_id).
  if (f.system) {
    parts.push(
      Prisma.sql`EXISTS (SELECT 1 FROM access_conflict_rows w WHERE w.run_id = c.run_id AND w.user_id = c.user_id AND w.risk_id = c.risk_id AND w.system = ${f.system})`,
    );
  }
  return Prisma.join(parts, ' AND ');
}

/** The conflicts of a run matching the filter, by user then risk (code point order). */
export async function listConflicts(caller: Caller, runId: string, filter: ConflictFilter, page: ConflictPage): Promise<ConflictSummary[]> {
  // The bound on the user alone lets the run's users be read from the key on.
  const keys: Prisma.Sql[] = [];
  if (page.after) keys.push(Prisma.sql`m.user_id >= ${page.after[0]} AND (c.user_id, c.risk_id) > (${page.after[0]}, ${page.after[1]})`);
  if (page.before) keys.push(Prisma.sql`m.user_id <= ${page.before[0]} AND (c.user_id, c.risk_id) < (${page.before[0]}, ${page.before[1]})`);
  const dir = Prisma.raw(page.inverted ? 'DESC' : 'ASC');
  // Read backwards (`inverted`), the rows stay in that order: the connection turns them round.
  return caller.deps.prisma.$queryRaw<ConflictSummary[]>`
    SELECT m.run_id::text AS "runId", c.user_id AS "userId", c.risk_id AS "riskId", c.exercised,
           coalesce(k.description, '') AS "riskDescription", coalesce(k.level, '') AS "riskLevel", coalesce(k.business_process, '') AS "businessProcess",
           ARRAY(SELECT DISTINCT w.system FROM access_conflict_rows w WHERE w.run_id = c.run_id AND w.user_id = c.user_id AND w.risk_id = c.risk_id ORDER BY 1)::text[] AS systems
      FROM ${Prisma.raw(RUN_CONFLICTS)}
      JOIN access_analysis_runs run ON run.id = m.run_id
      LEFT JOIN access_risks k ON k.rule_set_id = run.rule_set_id AND k.risk_id = c.risk_id
     WHERE ${filterSql(runId, filter)} ${keys.length ? Prisma.sql`AND ${Prisma.join(keys, ' AND ')}` : Prisma.empty}
     ORDER BY c.user_id ${dir}, c.risk_id ${dir}
     LIMIT ${Math.max(1, Math.trunc(page.limit))}`;
}

export type ConflictKey = Pick<ConflictSummary, 'runId' | 'userId' | 'riskId'>;
export type ConflictRow = Awaited<ReturnType<PrismaClient['accessConflictRow']['findFirstOrThrow']>>;

/** The rows of each conflict (at most `max` each, in row order, numbered as in its run), for many conflicts in one query. */
export async function rowsOfConflicts(caller: Caller, keys: readonly ConflictKey[], max: number): Promise<ConflictRow[][]> {
  if (!keys.length) return [];
  const found = await caller.deps.prisma.$queryRaw<(ConflictRow & { n: bigint })[]>`
    SELECT k.n, k.run_id::text AS "runId", r.row_no + m.row_shift AS "rowNo", r.user_id AS "userId", r.risk_id AS "riskId", r.rule_id AS "ruleId", r.function_id AS "functionId",
           r.system, r.action, r.role, r.composite, r.resource, r.resource_extn AS "resourceExtn", r.value_from AS "valueFrom", r.value_to AS "valueTo",
           r.execution_count AS "executionCount", r.last_executed_on AS "lastExecutedOn"
      FROM unnest(${keys.map((k) => k.runId)}::uuid[], ${keys.map((k) => k.userId)}::text[], ${keys.map((k) => k.riskId)}::text[]) WITH ORDINALITY AS k(run_id, user_id, risk_id, n)
      JOIN access_run_users m ON m.run_id = k.run_id AND m.user_id = k.user_id
     CROSS JOIN LATERAL (SELECT * FROM access_conflict_rows r WHERE r.run_id = m.source_run_id AND r.user_id = k.user_id AND r.risk_id = k.risk_id ORDER BY r.row_no LIMIT ${max}) r
     ORDER BY k.n, r.row_no`;
  const out: ConflictRow[][] = keys.map(() => []);
  for (const { n, ...row } of found) out[Number(n) - 1]!.push(row);
  return out;
}

export async function countConflicts(caller: Caller, runId: string, filter: ConflictFilter): Promise<number> {
  const [r] = await caller.deps.prisma.$queryRaw<
    { n: number }[]
  >`SELECT count(*)::int AS n FROM ${Prisma.raw(RUN_CONFLICTS)} WHERE ${filterSql(runId, filter)}`;
  return r!.n;
}

/** What a run's conflicts are counted by in its breakdown. */
export type BreakdownBy = 'risk' | 'businessProcess' | 'system' | 'user';

export interface BreakdownEntry {
  key: string;
  conflicts: number;
  exercised: number;
}

/**
 * A run's (user, risk) conflicts counted by risk, business process, system or
 * user, most first (then by key, code point order), at most `limit` groups:
 * the figures people compare, counted whole by the database rather than from
 * a page of conflicts. By system, a conflict counts once on every system its
 * rows show (a cross-system conflict counts on each).
 */
export async function conflictBreakdown(caller: Caller, runId: string, by: BreakdownBy, limit: number): Promise<BreakdownEntry[]> {
  const groups: Record<BreakdownBy, { key: Prisma.Sql; from: Prisma.Sql }> = {
    risk: { key: Prisma.sql`c.risk_id`, from: Prisma.empty },
    user: { key: Prisma.sql`c.user_id`, from: Prisma.empty },
    businessProcess: {
      key: Prisma.sql`coalesce(k.business_process, '')`,
      from: Prisma.sql`JOIN access_analysis_runs run ON run.id = m.run_id LEFT JOIN access_risks k ON k.rule_set_id = run.rule_set_id AND k.risk_id = c.risk_id`,
    },
    system: {
      key: Prisma.sql`w.system`,
      from: Prisma.sql`JOIN (SELECT DISTINCT r.user_id, r.risk_id, r.system FROM ${Prisma.raw(RUN_ROWS)} WHERE m.run_id = ${runId}::uuid) w ON w.user_id = c.user_id AND w.risk_id = c.risk_id`,
    },
  };
  const g = groups[by];
  return caller.deps.prisma.$queryRaw<BreakdownEntry[]>`
    SELECT ${g.key} AS key, count(*)::int AS conflicts, (count(*) FILTER (WHERE c.exercised))::int AS exercised
      FROM ${Prisma.raw(RUN_CONFLICTS)} ${g.from}
     WHERE m.run_id = ${runId}::uuid
     GROUP BY 1
     ORDER BY 2 DESC, ${g.key} COLLATE "C"
     LIMIT ${Math.max(1, Math.trunc(limit))}`;
}

const RISK_TYPES = `CASE k.type WHEN 'S' THEN 'Segregation of Duties' WHEN 'A' THEN 'Critical Action' WHEN 'P' THEN 'Critical Permission' ELSE k.type END`;

/** Each export column's cell over the aliases of CSV_FROM; columns the engine does not know are empty. */
const CELLS: Record<string, string> = {
  user_id: 'r.user_id',
  user_name: `trim(concat_ws(' ', ad.name_first, ad.name_last))`,
  user_group: 'u.class',
  access_risk_id: 'r.risk_id',
  risk_description: 'k.description',
  risk_level: 'k.level',
  risk_type: RISK_TYPES,
  rule_id: 'r.rule_id',
  business_process: 'k.business_process',
  business_process_description: 'bp.description',
  function: 'r.function_id',
  function_description: 'f.description',
  system: 'r.system',
  action: 'r.action',
  // Its system's row, else the every-system one.
  action_description: 'coalesce(fa.description, fe.description)',
  resource: 'r.resource',
  resource_extn: 'r.resource_extn',
  value_from: 'r.value_from',
  value_to: 'r.value_to',
  role_profile: 'r.role',
  role_profile_description: 'rt.text',
  composite_business_role: 'r.composite',
  composite_role_description: 'ct.text',
  execution_count: 'r.execution_count',
  last_executed_on: `to_char(r.last_executed_on, 'YYYY-MM-DD')`,
};

/** The header line of conflicts.csv: the export's columns, in SAP GRC's order. */
export const CONFLICT_CSV_HEADERS = EXPORT_FIELDS.map((f) => f.header);

const CSV_SELECT = EXPORT_FIELDS.map((f, i) => `${sqlCsvText(CELLS[f.column] ?? 'NULL')} AS c${i}`).join(', ');
/** The same cells as text without the CSV formula guard: a workbook holds them as text cells, which a spreadsheet never runs. */
const TEXT_SELECT = EXPORT_FIELDS.map((f, i) => `coalesce((${CELLS[f.column] ?? 'NULL'})::text, '') AS c${i}`).join(', ');

/**
 * The run's rows with what the extracts and the rule set say of them, in
 * row order: by user, then by the number the holding run stored (a user's
 * rows keep their order there). `page` bounds the rows after a key (user,
 * stored number: $2, $3). The lookups are read once per extract (DISTINCT
 * ON, the first line of a key) and joined by hash, not looked up row by row.
 */
const csvQuery = (page: string, select = CSV_SELECT) => `
WITH run AS (SELECT id, rule_set_id, extract_ids FROM access_analysis_runs WHERE id = $1::uuid),
ext AS (SELECT x.id, x.system FROM access_extracts x JOIN run ON x.id = ANY(run.extract_ids)),
usr AS (SELECT DISTINCT ON (u.extract_id, u.bname) u.extract_id, u.bname, u.class FROM access_x_usr02 u JOIN ext ON ext.id = u.extract_id ORDER BY u.extract_id, u.bname, u.line),
addr AS (SELECT DISTINCT ON (a.extract_id, a.bname) a.extract_id, a.bname, a.name_first, a.name_last FROM access_x_user_addr a JOIN ext ON ext.id = a.extract_id ORDER BY a.extract_id, a.bname, a.line),
texts AS (SELECT DISTINCT ON (t.extract_id, t.agr_name) t.extract_id, t.agr_name, t.text FROM access_x_agr_texts t JOIN ext ON ext.id = t.extract_id ORDER BY t.extract_id, t.agr_name, t.line),
acts AS (SELECT a.function_id, a.system, a.action, a.description FROM access_function_actions a JOIN run ON a.rule_set_id = run.rule_set_id)
SELECT ${page === '' ? '' : 'm.user_id AS page_user, r.row_no AS page_row, '}${select}
  FROM ${RUN_ROWS}
  JOIN run ON run.id = m.run_id
  LEFT JOIN ext ON ext.system = r.system
  LEFT JOIN usr u ON u.extract_id = ext.id AND u.bname = r.user_id
  LEFT JOIN addr ad ON ad.extract_id = ext.id AND ad.bname = r.user_id
  LEFT JOIN access_risks k ON k.rule_set_id = run.rule_set_id AND k.risk_id = r.risk_id
  LEFT JOIN access_business_processes bp ON bp.rule_set_id = run.rule_set_id AND bp.process = k.business_process
  LEFT JOIN access_functions f ON f.rule_set_id = run.rule_set_id AND f.function_id = r.function_id
  LEFT JOIN acts fa ON fa.function_id = r.function_id AND fa.action = r.action AND fa.system = r.system
  LEFT JOIN acts fe ON fe.function_id = r.function_id AND fe.action = r.action AND fe.system = ''
  LEFT JOIN texts rt ON rt.extract_id = ext.id AND rt.agr_name = r.role
  LEFT JOIN texts ct ON ct.extract_id = ext.id AND ct.agr_name = r.composite AND r.composite <> ''
 WHERE m.run_id = $1::uuid ${page}
 ORDER BY m.user_id, r.row_no`;

/**
 * A completed run's rows as CSV (header line first), streamed: on PostgreSQL
 * written by the database (COPY), on PGlite in batches of 10,000 rows, so
 * memory stays flat either way. A run not completed has no file (409).
 */
export async function* conflictsCsv(caller: Caller, runId: string): AsyncGenerator<string | Buffer> {
  const { deps } = caller;
  yield csvLine(CONFLICT_CSV_HEADERS);
  if (deps.db.sql.copyOut) {
    yield* copyCsvLines(deps.db.sql.copyOut(csvQuery(''), [runId]));
    return;
  }
  for await (const batch of rowBatches(caller, runId, CSV_SELECT)) {
    let chunk = '';
    for (const row of batch) chunk += csvLine(EXPORT_FIELDS.map((_f, i) => row[`c${i}`]));
    yield chunk;
  }
}

/** The run's rows (csvQuery with `select`) in batches of 10,000, in row order, each from the key where the last ended. */
async function* rowBatches(caller: Caller, runId: string, select: string): AsyncGenerator<Record<string, string | number>[]> {
  const paged = csvQuery('AND m.user_id >= $2 AND (m.user_id, r.row_no) > ($2, $3)', select);
  let after: [string, number] = ['', 0];
  for (;;) {
    const batch = await caller.deps.db.sql.query<Record<string, string | number>>(`${paged} LIMIT 10000`, [runId, ...after]);
    if (!batch.length) return;
    yield batch;
    const last = batch[batch.length - 1]!;
    after = [String(last.page_user), Number(last.page_row)];
  }
}

/**
 * A completed run's rows in batches of 10,000 (row order), each row its
 * export cells as text (`c0`…, EXPORT_FIELDS' order), for files the server
 * writes itself (conflicts.xlsx).
 */
export async function* conflictTextRows(caller: Caller, runId: string): AsyncGenerator<string[][]> {
  for await (const batch of rowBatches(caller, runId, TEXT_SELECT)) yield batch.map((row) => EXPORT_FIELDS.map((_f, i) => String(row[`c${i}`] ?? '')));
}

/** The run whose file is asked for: it must exist (404) and be completed (409 otherwise). */
export async function completedAnalysis(caller: Caller, runId: string) {
  const run = await getAnalysis(caller, runId);
  if (run.status !== 'completed') {
    throw new ConflictError(
      run.status === 'failed'
        ? 'The analysis failed: it has no conflicts to download'
        : 'The analysis is still running: download its conflicts once it has completed',
    );
  }
  return run;
}
