// Risk Simulation from the engine: when a loaded system extract (a system's
// current one) holds the user, adding or removing roles of that user is
// answered by the analysis itself (analysis-sql.ts, one home for the rules),
// run on a hypothetical AGR_USERS: the user's rows of the current extracts,
// less the removed roles, plus the added ones (valid without limit). It runs
// as today on the active rule set version (the one holding the risk asked
// about, else the latest uploaded active one), inside a transaction that is
// rolled back, so nothing of it is kept: the conflicts with the user's roles
// as they are and as they would be, compared by (user, risk).
import type { PrismaClient } from '../../generated/prisma/client.js';
import { ValidationError } from '../../core/errors.js';
import { analysisStatements } from './analysis-sql.js';
import { currentExtracts } from './extracts.js';
import { likeContains } from '../risk-rules.js';

/** One path of a conflict: the function held on a system through an action and a role (a composite's single role, or a role held directly). */
export interface EnginePath {
  riskId: string;
  ruleId: string;
  functionId: string;
  system: string;
  action: string;
  role: string;
  composite: string;
  resource: string;
  resourceExtn: string;
  valueFrom: string;
  valueTo: string;
}

export interface EngineConflict {
  riskId: string;
  riskDescription: string;
  riskLevel: string;
  paths: EnginePath[];
}

export interface EngineSimulation {
  ruleSetId: string;
  ruleSetName: string;
  ruleSetVersion: number;
  asOf: string;
  /** The systems whose current extract holds the user. */
  systems: string[];
  /** Conflicts that would appear (their paths with the changed roles). */
  appear: EngineConflict[];
  /** Conflicts that would go (their paths with the roles as they are). */
  go: EngineConflict[];
  /** Conflicts the user holds either way (their paths with the changed roles). */
  remain: EngineConflict[];
}

export interface RoleChange {
  roleProfile: string;
  action: 'retain' | 'remove' | 'add';
  /** The system the change applies to; left out, every system of the user (for an addition: where the role exists). */
  system?: string | null;
}

/** The engine's answer for one risk, on top of the conflicts: its paths before and after, the functions it needs and those held after. */
export interface EngineAnswer extends EngineSimulation {
  before: EnginePath[];
  after: EnginePath[];
  neededFunctions: string[];
  heldAfter: string[];
}

const SIM_TABLE = 'access_t_sim_agr_users';

class Discard {
  constructor(readonly value: { paths: EnginePath[]; held: string[] }) {}
}

type Scope = { ruleSet: { id: string; name: string; version: number }; extracts: { id: string; system: string }[]; asOf: string };

/** The current extracts holding the user in USR02, and the active rule set version to run (null: the engine cannot answer). */
async function scopeOf(prisma: PrismaClient, userId: string, riskId: string): Promise<Scope | null> {
  const extracts = await currentExtracts({ prisma });
  if (!extracts.length) return null;
  const holding = await prisma.$queryRawUnsafe<{ extract_id: string }[]>(
    'SELECT DISTINCT extract_id::text FROM access_x_usr02 WHERE extract_id = ANY($1::uuid[]) AND bname = $2',
    extracts.map((x) => x.id),
    userId,
  );
  const held = new Set(holding.map((h) => h.extract_id));
  const mine = extracts.filter((x) => held.has(x.id)).map((x) => ({ id: x.id, system: x.system }));
  if (!mine.length) return null;
  const active = await prisma.accessRuleSet.findMany({
    where: { active: true },
    orderBy: [{ uploadedAt: 'desc' }, { id: 'asc' }],
    select: { id: true, name: true, version: true },
  });
  if (!active.length) return null;
  const withRisk = await prisma.accessRisk.findFirst({ where: { riskId, ruleSetId: { in: active.map((a) => a.id) } }, select: { ruleSetId: true } });
  const ruleSet = active.find((a) => a.id === withRisk?.ruleSetId) ?? active[0]!;
  return { ruleSet, extracts: mine, asOf: new Date().toISOString().slice(0, 10) };
}

/** The user's conflict rows and held functions on the hypothetical assignments (changes applied), computed and rolled back. */
async function engineRows(prisma: PrismaClient, scope: Scope, userId: string, changes: RoleChange[]) {
  const extractIds = scope.extracts.map((x) => x.id);
  try {
    await prisma.$transaction(
      async (tx) => {
        const run = await tx.accessAnalysisRun.create({
          data: {
            ruleSetId: scope.ruleSet.id,
            systems: scope.extracts.map((x) => x.system),
            extractIds,
            asOf: new Date(`${scope.asOf}T00:00:00Z`),
            test: true,
            startedBy: 'Risk Simulation',
          },
          select: { id: true },
        });
        await tx.$executeRawUnsafe(
          `CREATE TEMP TABLE ${SIM_TABLE} ON COMMIT DROP AS
           SELECT extract_id, agr_name, uname, from_dat, to_dat, col_flag FROM access_x_agr_users WHERE extract_id = ANY($1::uuid[]) AND uname = $2`,
          extractIds,
          userId,
        );
        for (const c of changes) {
          const ids = scope.extracts.filter((x) => c.system == null || x.system === c.system).map((x) => x.id);
          if (c.action === 'remove') {
            const n = await tx.$executeRawUnsafe(`DELETE FROM ${SIM_TABLE} WHERE extract_id = ANY($1::uuid[]) AND agr_name = $2`, ids, c.roleProfile);
            if (!n)
              throw new ValidationError(
                `roleScenarios: ${userId} is assigned no role ${c.roleProfile}${c.system ? ` on ${c.system}` : ''} to remove`,
                'roleScenarios',
              );
          } else if (c.action === 'add') {
            // A role exists on a system when its extract grants through it (AGR_1251) or has it as a composite (AGR_AGRS).
            const n = await tx.$executeRawUnsafe(
              `INSERT INTO ${SIM_TABLE} (extract_id, agr_name, uname, from_dat, to_dat, col_flag)
               SELECT u.x, $2::text, $3::text, NULL::date, NULL::date, ''::text FROM unnest($1::uuid[]) AS u(x)
                WHERE EXISTS (SELECT 1 FROM access_x_agr_1251 g WHERE g.extract_id = u.x AND g.agr_name = $2::text)
                   OR EXISTS (SELECT 1 FROM access_x_agr_agrs k WHERE k.extract_id = u.x AND k.agr_name = $2::text)`,
              ids,
              c.roleProfile,
              userId,
            );
            if (!n)
              throw new ValidationError(
                `roleScenarios: no role ${c.roleProfile} on ${c.system ?? scope.extracts.map((x) => x.system).join(', ')}`,
                'roleScenarios',
              );
          }
        }
        await tx.$executeRawUnsafe(`ANALYZE ${SIM_TABLE}`);
        for (const statement of analysisStatements({ runId: run.id, ruleSetId: scope.ruleSet.id, extractIds, asOf: scope.asOf, assignments: SIM_TABLE }))
          await tx.$executeRawUnsafe(statement);
        const paths = await tx.accessConflictRow.findMany({
          where: { runId: run.id },
          orderBy: { rowNo: 'asc' },
          select: {
            riskId: true,
            ruleId: true,
            functionId: true,
            system: true,
            action: true,
            role: true,
            composite: true,
            resource: true,
            resourceExtn: true,
            valueFrom: true,
            valueTo: true,
          },
        });
        const held = await tx.$queryRawUnsafe<{ function_id: string }[]>('SELECT DISTINCT function_id FROM access_t_held ORDER BY 1');
        // Nothing of it is kept: the run, its rows and the temporary tables go with the rollback.
        throw new Discard({ paths, held: held.map((h) => h.function_id) });
      },
      { timeout: 5 * 60_000, maxWait: 60_000 },
    );
  } catch (e) {
    if (e instanceof Discard) return e.value;
    throw e;
  }
  throw new Error('The simulation was not rolled back');
}

/**
 * The engine's answer to a simulation of `userId`, or null when no current
 * extract holds the user or no rule set version is active (then the
 * simulation answers from the imported rows, as it always has).
 */
export async function engineSimulation(prisma: PrismaClient, userId: string, riskId: string, changes: RoleChange[]): Promise<EngineAnswer | null> {
  const scope = await scopeOf(prisma, userId, riskId);
  if (!scope) return null;
  for (const c of changes) {
    if (c.system != null && !scope.extracts.some((x) => x.system === c.system)) {
      throw new ValidationError(`roleScenarios: ${userId} is not in the loaded extract of ${c.system}`, 'roleScenarios');
    }
  }
  const before = await engineRows(prisma, scope, userId, []);
  const after = await engineRows(
    prisma,
    scope,
    userId,
    changes.filter((c) => c.action !== 'retain'),
  );
  const risks = await prisma.accessRisk.findMany({ where: { ruleSetId: scope.ruleSet.id }, select: { riskId: true, description: true, level: true } });
  const riskOf = new Map(risks.map((r) => [r.riskId, r]));
  const byRisk = (paths: EnginePath[]) => {
    const m = new Map<string, EnginePath[]>();
    for (const p of paths) m.set(p.riskId, [...(m.get(p.riskId) ?? []), p]);
    return m;
  };
  const [was, will] = [byRisk(before.paths), byRisk(after.paths)];
  const conflict = (id: string, paths: EnginePath[]): EngineConflict => ({
    riskId: id,
    riskDescription: riskOf.get(id)?.description ?? '',
    riskLevel: riskOf.get(id)?.level ?? '',
    paths,
  });
  const needed = await prisma.accessRiskFunction.findMany({
    where: { ruleSetId: scope.ruleSet.id, riskId },
    orderBy: { functionId: 'asc' },
    select: { functionId: true },
  });
  return {
    ruleSetId: scope.ruleSet.id,
    ruleSetName: scope.ruleSet.name,
    ruleSetVersion: scope.ruleSet.version,
    asOf: scope.asOf,
    systems: scope.extracts.map((x) => x.system),
    appear: [...will].filter(([id]) => !was.has(id)).map(([id, p]) => conflict(id, p)),
    go: [...was].filter(([id]) => !will.has(id)).map(([id, p]) => conflict(id, p)),
    remain: [...will].filter(([id]) => was.has(id)).map(([id, p]) => conflict(id, p)),
    before: was.get(riskId) ?? [],
    after: will.get(riskId) ?? [],
    neededFunctions: needed.map((n) => n.functionId),
    heldAfter: after.held,
  };
}

/** The current extracts whose USR02 holds the user (none: the pickers answer from the imported rows only). */
async function extractsOf(prisma: PrismaClient, userId: string): Promise<string[]> {
  const rows = await prisma.$queryRawUnsafe<{ id: string }[]>(
    `SELECT x.id::text FROM access_extracts x
      WHERE x.status = 'completed' AND x.superseded_at IS NULL
        AND EXISTS (SELECT 1 FROM access_x_usr02 u WHERE u.extract_id = x.id AND u.bname = $1)`,
    userId,
  );
  return rows.map((r) => r.id);
}

export interface EngineOption {
  value: string;
  label: string;
}

/** Users of the systems' current extracts (BNAME; the name from USER_ADDR) containing `search`, by id: the simulation's user picker. */
export async function engineUsers(prisma: PrismaClient, search: string, limit: number): Promise<EngineOption[]> {
  return prisma.$queryRawUnsafe<EngineOption[]>(
    `SELECT u.bname AS value, coalesce(max(nullif(trim(a.name_first || ' ' || a.name_last), '')), u.bname) AS label
       FROM access_extracts x
       JOIN access_x_usr02 u ON u.extract_id = x.id
       LEFT JOIN access_x_user_addr a ON a.extract_id = x.id AND a.bname = u.bname
      WHERE x.status = 'completed' AND x.superseded_at IS NULL AND (u.bname ILIKE $1 OR a.name_last ILIKE $1 OR a.name_first ILIKE $1)
      GROUP BY u.bname ORDER BY u.bname LIMIT $2`,
    likeContains(search),
    limit,
  );
}

/** The enabled risks of the active rule set versions, for a user a current extract holds (a role added may bring any of them). */
export async function engineRisks(prisma: PrismaClient, userId: string, search: string, limit: number): Promise<EngineOption[]> {
  if (!(await extractsOf(prisma, userId)).length) return [];
  return prisma.$queryRawUnsafe<EngineOption[]>(
    `SELECT k.risk_id AS value, max(k.description) AS label
       FROM access_risks k JOIN access_rule_sets s ON s.id = k.rule_set_id AND s.active
      WHERE k.enabled AND (k.risk_id ILIKE $1 OR k.description ILIKE $1)
      GROUP BY k.risk_id ORDER BY k.risk_id LIMIT $2`,
    likeContains(search),
    limit,
  );
}

/** The roles of the user's systems (those with authorizations, and composites; only composites when asked), AGR_TEXTS as label. */
export async function engineRoles(prisma: PrismaClient, userId: string, compositeOnly: boolean, search: string, limit: number): Promise<EngineOption[]> {
  const ids = await extractsOf(prisma, userId);
  if (!ids.length) return [];
  const singles = compositeOnly ? '' : 'UNION SELECT extract_id, agr_name FROM access_x_agr_1251 WHERE extract_id = ANY($1::uuid[])';
  return prisma.$queryRawUnsafe<EngineOption[]>(
    `SELECT r.agr_name AS value, coalesce(max(nullif(t.text, '')), r.agr_name) AS label
       FROM (SELECT extract_id, agr_name FROM access_x_agr_agrs WHERE extract_id = ANY($1::uuid[]) ${singles}) r
       LEFT JOIN access_x_agr_texts t ON t.extract_id = r.extract_id AND t.agr_name = r.agr_name
      WHERE r.agr_name ILIKE $2
      GROUP BY r.agr_name ORDER BY r.agr_name LIMIT $3`,
    ids,
    likeContains(search),
    limit,
  );
}

/** Picker options of two sources, by value without repeats, at most `limit`; the first as it is when the second is empty. */
export function mergeOptions(a: EngineOption[], b: EngineOption[], limit: number): EngineOption[] {
  if (!b.length) return a;
  const seen = new Map<string, EngineOption>();
  for (const o of [...a, ...b]) if (!seen.has(o.value)) seen.set(o.value, o);
  return [...seen.values()].sort((x, y) => (x.value < y.value ? -1 : x.value > y.value ? 1 : 0)).slice(0, limit);
}
