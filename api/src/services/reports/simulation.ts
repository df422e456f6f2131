// Risk simulation (SPEC §2 'Risk Simulation', §4, §5, §7 /api/simulation/run)
// on the loaded data. Semantics (README 'Risk simulation'):
// - a risk row is one permission of one function of one access risk, granted
//   to a user through a role (a role profile, possibly inside a composite role);
// - the functions a user's risk needs are the distinct `function` values of
//   their rows of that risk (an SoD risk: both sides of the conflict);
// - a scenario removes a role from the user: every row granted through it
//   (its composite role, or when not limited to composite roles, its role profile);
// - the risk persists only while every needed function is still granted by a
//   row of a kept role; the simulated access is then the kept rows, otherwise
//   nothing (the risk is resolved);
// - MATCH when the original and simulated counts are equal.
// When a loaded system extract holds the user, the engine answers instead
// (access/simulate.ts): the user's roles there, less the removed and plus the
// added ones, analysed with the active rule set version as of today; the
// items are then the engine's rows of the risk before and after, and
// `engine` lists the conflicts that would appear or go with their paths.
// Adding a role needs that system data: on imported rows only it is refused.
// Original access is the user's rows of the risk the viewer may see (with
// 'composite roles only', those granted through a composite role; the
// function check still counts every row). Runs are stored with who ran them.
import { z } from 'zod';
import { Prisma, type PrismaClient } from '../../generated/prisma/client.js';
import { NotFoundError, ValidationError } from '../../core/errors.js';
import { parseOrThrow } from '../../core/validation.js';
import { likeContains } from '../risk-rules.js';
import { isUuid, type Actor } from '../../core/types.js';
import type { Caller } from '../caller.js';
import { MAX_ID_LENGTH } from './risk-analysis.js';
import {
  engineRisks,
  engineRoles,
  engineUsers,
  mergeOptions,
  engineSimulation,
  type EngineAnswer,
  type EnginePath,
  type EngineSimulation,
} from '../access/simulate.js';

export const SIMULATION_INCOMPLETE = 'Please select user, risk, and configure scenarios';
export const MAX_SCENARIOS = 500;
/** Rows sent per table at most (the counts are always complete). */
export const TABLE_LIMIT = 500;
/** Options returned by a picker search at most. */
export const MAX_OPTIONS = 50;
export const SCENARIO_ACTIONS = ['retain', 'remove', 'add'] as const;
export const ADD_NEEDS_EXTRACT = 'Adding a role needs the user’s system data: load an extract of their system on the Access Analysis screen';

const id = (label: string) =>
  z
    .string({ error: SIMULATION_INCOMPLETE })
    .trim()
    .min(1, SIMULATION_INCOMPLETE)
    .max(MAX_ID_LENGTH, `${label} is too long (${MAX_ID_LENGTH} characters at most)`);

export const simulationInputSchema = z.object({
  userId: id('userId'),
  riskId: id('riskId'),
  roleScenarios: z
    .array(
      z.object({
        riskId: z.string().max(MAX_ID_LENGTH).nullish(),
        roleProfile: id('roleProfile'),
        action: z.enum(SCENARIO_ACTIONS, { error: 'A scenario action must be retain, remove or add' }),
        system: z.string().trim().min(1).max(40, 'system is too long (40 characters at most)').nullish(),
      }),
      { error: SIMULATION_INCOMPLETE },
    )
    .min(1, SIMULATION_INCOMPLETE)
    .max(MAX_SCENARIOS, `At most ${MAX_SCENARIOS} scenarios`),
  compositeRolesOnly: z.boolean({ error: 'compositeRolesOnly must be true or false' }).nullish(),
});
export type SimulationInput = z.input<typeof simulationInputSchema>;

export interface AccessItem {
  id: string;
  roleProfile: string;
  compositeBusinessRole: string;
  function: string;
  functionDescription: string;
  ruleId: string;
  authObject: string;
  field: string;
  valueFrom: string;
  valueTo: string;
  system: string;
  /** The item is gone in the simulation (its role removed, or the risk resolved). */
  removed: boolean;
}

export interface SimulationResult {
  simulationId: string;
  userId: string;
  riskId: string;
  compositeRolesOnly: boolean;
  match: boolean;
  originalCount: number;
  simulatedCount: number;
  /** The risk no longer arises: a needed function is granted by no kept role. */
  riskResolved: boolean;
  neededFunctions: string[];
  missingFunctions: string[];
  removedRoles: string[];
  tableComparison: { originalData: AccessItem[]; simulationData: AccessItem[] };
  createdAt: Date;
  /** The engine's answer when a loaded extract holds the user; null on imported rows. */
  engine: EngineSimulation | null;
}

type RowRaw = {
  id: bigint;
  role_profile: string;
  composite_business_role: string;
  function: string;
  function_description: string;
  rule_id: string;
  resource: string;
  resource_extn: string;
  action: string;
  value_from: string;
  value_to: string;
  system: string;
};

/** Runs one simulation (semantics above) and stores it with who ran it. */
export async function runSimulation(caller: Caller, raw: unknown): Promise<SimulationResult> {
  const { actor, viewer } = caller;
  const { prisma } = caller.deps;
  const input = parseOrThrow(simulationInputSchema, raw);
  const compositeOnly = input.compositeRolesOnly ?? false;
  const engine = await engineSimulation(prisma, input.userId, input.riskId, input.roleScenarios);
  if (engine) return store(prisma, actor, input, compositeOnly, fromEngine(engine, compositeOnly, removedRolesOf(input)), engine);
  if (input.roleScenarios.some((s) => s.action === 'add')) throw new ValidationError(ADD_NEEDS_EXTRACT, 'roleScenarios');
  const { visible } = await viewer.scope();
  const rows = await prisma.$queryRaw<RowRaw[]>`
    SELECT r.id, r.role_profile, r.composite_business_role, r.function, r.function_description, r.rule_id,
           r.resource, r.resource_extn, r.action, r.value_from, r.value_to, r.system
      FROM risk_rows r
     WHERE r.user_id = ${input.userId} AND r.access_risk_id = ${input.riskId} AND ${visible}
     ORDER BY r.id`;
  if (!rows.length) throw new NotFoundError('This user has no access producing this risk');

  const removedRoles = removedRolesOf(input);
  const removed = new Set(removedRoles);
  const isRemoved = (r: RowRaw) =>
    (r.composite_business_role !== '' && removed.has(r.composite_business_role)) || (!compositeOnly && removed.has(r.role_profile));
  const needed = [...new Set(rows.map((r) => r.function))].sort();
  const granted = new Set(rows.filter((r) => !isRemoved(r)).map((r) => r.function));
  const missingFunctions = needed.filter((f) => !granted.has(f));
  const riskResolved = missingFunctions.length > 0;

  const original = compositeOnly ? rows.filter((r) => r.composite_business_role !== '') : rows;
  const gone = (r: RowRaw) => riskResolved || isRemoved(r);
  const simulated = original.filter((r) => !gone(r));
  const item = (r: RowRaw): AccessItem => ({
    id: String(r.id),
    roleProfile: r.role_profile,
    compositeBusinessRole: r.composite_business_role,
    function: r.function,
    functionDescription: r.function_description,
    ruleId: r.rule_id,
    authObject: r.resource,
    field: r.resource_extn || r.action,
    valueFrom: r.value_from,
    valueTo: r.value_to,
    system: r.system,
    removed: gone(r),
  });
  const match = original.length === simulated.length;
  const summary = {
    match,
    originalCount: original.length,
    simulatedCount: simulated.length,
    riskResolved,
    neededFunctions: needed,
    missingFunctions,
    removedRoles,
  };
  return store(prisma, actor, input, compositeOnly, { summary, originalData: original.map(item), simulationData: simulated.map(item) }, null);
}

function removedRolesOf(input: z.output<typeof simulationInputSchema>): string[] {
  return [...new Set(input.roleScenarios.filter((s) => s.action === 'remove').map((s) => s.roleProfile))];
}

type Answer = {
  summary: Omit<SimulationResult, 'simulationId' | 'userId' | 'riskId' | 'compositeRolesOnly' | 'tableComparison' | 'createdAt' | 'engine'>;
  originalData: AccessItem[];
  simulationData: AccessItem[];
};

/** The engine's rows of the risk as the simulation's items (with 'composite roles only', those held through a composite). */
function fromEngine(e: EngineAnswer, compositeOnly: boolean, removedRoles: string[]): Answer {
  const key = (p: EnginePath) => [p.system, p.functionId, p.action, p.role, p.composite, p.resource, p.resourceExtn].join('\u0000');
  const kept = new Set(e.after.map(key));
  const shown = (paths: EnginePath[]) => (compositeOnly ? paths.filter((p) => p.composite !== '') : paths);
  const item = (p: EnginePath, removed: boolean): AccessItem => ({
    id: key(p).replaceAll('\u0000', '/'),
    roleProfile: p.role,
    compositeBusinessRole: p.composite,
    function: p.functionId,
    functionDescription: '',
    ruleId: p.ruleId,
    authObject: p.resource,
    field: p.resourceExtn || p.action,
    valueFrom: p.valueFrom,
    valueTo: p.valueTo,
    system: p.system,
    removed,
  });
  const original = shown(e.before);
  const simulated = shown(e.after);
  const missingFunctions = e.neededFunctions.filter((f) => !e.heldAfter.includes(f));
  return {
    summary: {
      match: original.length === simulated.length,
      originalCount: original.length,
      simulatedCount: simulated.length,
      riskResolved: e.before.length > 0 && e.after.length === 0,
      neededFunctions: e.neededFunctions,
      missingFunctions,
      removedRoles,
    },
    originalData: original.map((p) => item(p, !kept.has(key(p)))),
    simulationData: simulated.map((p) => item(p, false)),
  };
}

/** Stores the run with who ran it and returns the answer (tables cut at TABLE_LIMIT rows; the counts are complete). */
async function store(
  prisma: PrismaClient,
  actor: Actor,
  input: z.output<typeof simulationInputSchema>,
  compositeOnly: boolean,
  answer: Answer,
  engine: EngineAnswer | null,
): Promise<SimulationResult> {
  const summary = answer.summary;
  const stored = await prisma.simulation.create({
    data: {
      subjectUserId: input.userId,
      accessRiskId: input.riskId,
      scenarios: input.roleScenarios.map((s) => ({ roleProfile: s.roleProfile, action: s.action, ...(s.system ? { system: s.system } : {}) })),
      result: summary,
      compositeRolesOnly: compositeOnly,
      matched: summary.match,
      createdById: actor.user?.id ?? null,
    },
  });
  return {
    simulationId: stored.id,
    userId: input.userId,
    riskId: input.riskId,
    compositeRolesOnly: compositeOnly,
    ...summary,
    tableComparison: { originalData: answer.originalData.slice(0, TABLE_LIMIT), simulationData: answer.simulationData.slice(0, TABLE_LIMIT) },
    createdAt: stored.createdAt,
    engine: engine && {
      ruleSetId: engine.ruleSetId,
      ruleSetName: engine.ruleSetName,
      ruleSetVersion: engine.ruleSetVersion,
      asOf: engine.asOf,
      systems: engine.systems,
      appear: engine.appear,
      go: engine.go,
      remain: engine.remain,
    },
  };
}

/** simulationRuns' largest list: a bounded list, not a connection. */
export const MAX_RECENT_RUNS = 100;

export interface SimulationRun {
  id: string;
  userId: string;
  riskId: string;
  compositeRolesOnly: boolean;
  match: boolean | null;
  scenarioCount: number;
  runBy: string;
  createdAt: Date;
}

/** Stored runs matching `where` (alias s), newest first, with who ran them. */
async function storedRuns(prisma: PrismaClient, where: Prisma.Sql, limit: number): Promise<SimulationRun[]> {
  const runs = await prisma.$queryRaw<
    {
      id: string;
      subject_user_id: string;
      access_risk_id: string;
      composite_roles_only: boolean;
      matched: boolean | null;
      scenarios: unknown;
      run_by: string | null;
      created_at: Date;
    }[]
  >`SELECT s.id, s.subject_user_id, s.access_risk_id, s.composite_roles_only, s.matched, s.scenarios, s.created_at,
           nullif(trim(u.first_name || ' ' || u.last_name), '') AS run_by
      FROM simulations s LEFT JOIN users u ON u.id = s.created_by_id
     WHERE ${where}
     ORDER BY s.created_at DESC, s.id DESC LIMIT ${limit}`;
  return runs.map((r) => ({
    id: r.id,
    userId: r.subject_user_id,
    riskId: r.access_risk_id,
    compositeRolesOnly: r.composite_roles_only,
    match: r.matched,
    scenarioCount: Array.isArray(r.scenarios) ? r.scenarios.length : 0,
    runBy: r.run_by ?? 'Unknown',
    createdAt: r.created_at,
  }));
}

/** The latest stored runs, newest first, with who ran them (at most MAX_RECENT_RUNS). */
export function recentSimulations(caller: Caller, limit: number): Promise<SimulationRun[]> {
  return storedRuns(caller.deps.prisma, Prisma.sql`true`, Math.min(Math.max(Math.trunc(limit) || 0, 1), MAX_RECENT_RUNS));
}

/** The stored runs with these ids, in the same order (null for an id of no run). */
export async function simulationsById(caller: Caller, ids: readonly string[]): Promise<(SimulationRun | null)[]> {
  const wanted = ids.filter(isUuid);
  if (!wanted.length) return ids.map(() => null);
  const byId = new Map((await storedRuns(caller.deps.prisma, Prisma.sql`s.id = ANY(${wanted}::uuid[])`, wanted.length)).map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id) ?? null);
}

export interface PickerOption {
  value: string;
  label: string;
}

const bounded = (search: string | null | undefined) => {
  const s = (search ?? '').trim();
  if (s.length > MAX_ID_LENGTH) throw new ValidationError(`The search is too long (${MAX_ID_LENGTH} characters at most)`, 'search');
  return s;
};
const optionLimit = (limit: number | null | undefined) => Math.min(Math.max(Math.trunc(limit ?? 20) || 1, 1), MAX_OPTIONS);

/** The access risks of one user (id and description) whose id or description contains `search`. */
export async function userRisks(caller: Caller, userId: string, search?: string | null, limit?: number | null): Promise<PickerOption[]> {
  const { viewer } = caller;
  const { prisma } = caller.deps;
  const s = bounded(search);
  const { visible } = await viewer.scope();
  const like = Prisma.sql`AND (r.access_risk_id ILIKE ${likeContains(s)} OR r.risk_description ILIKE ${likeContains(s)})`;
  const rows = await prisma.$queryRaw<{ value: string; label: string }[]>`
    SELECT r.access_risk_id AS value, max(r.risk_description) AS label
      FROM risk_rows r
     WHERE r.user_id = ${bounded(userId)} AND ${visible} ${s ? like : Prisma.empty}
     GROUP BY r.access_risk_id ORDER BY r.access_risk_id LIMIT ${optionLimit(limit)}`;
  // A user of a loaded extract may also be simulated on any risk of the active rule sets.
  return mergeOptions(rows, await engineRisks(prisma, bounded(userId), s, optionLimit(limit)), optionLimit(limit));
}

/**
 * The roles of one user a scenario may name: their composite roles and, unless
 * `compositeOnly`, their role profiles (label: the description), by name.
 */
export async function userRoles(
  caller: Caller,
  userId: string,
  opts: { compositeOnly?: boolean | null; search?: string | null; limit?: number | null },
): Promise<PickerOption[]> {
  const { viewer } = caller;
  const { prisma } = caller.deps;
  const s = bounded(opts.search);
  const { visible } = await viewer.scope();
  const like = s ? Prisma.sql`WHERE x.value ILIKE ${likeContains(s)}` : Prisma.empty;
  const profiles = opts.compositeOnly
    ? Prisma.empty
    : Prisma.sql`UNION SELECT r.role_profile, r.role_profile_description FROM risk_rows r WHERE r.user_id = ${userId} AND r.role_profile <> '' AND ${visible}`;
  const rows = await prisma.$queryRaw<PickerOption[]>`
    SELECT x.value, max(x.label) AS label FROM (
      SELECT r.composite_business_role AS value, r.composite_role_description AS label
        FROM risk_rows r WHERE r.user_id = ${bounded(userId)} AND r.composite_business_role <> '' AND ${visible}
      ${profiles}
    ) x ${like}
     GROUP BY x.value ORDER BY x.value LIMIT ${optionLimit(opts.limit)}`;
  // A user of a loaded extract: also the roles of their systems (one to add, or one they hold to remove).
  return mergeOptions(rows, await engineRoles(prisma, bounded(userId), Boolean(opts.compositeOnly), s, optionLimit(opts.limit)), optionLimit(opts.limit));
}

/** Users of the systems' loaded extracts whose id or name contains `search`, by id: the engine answers simulations of them. */
export function extractUsers(caller: Caller, search?: string | null, limit?: number | null): Promise<PickerOption[]> {
  return engineUsers(caller.deps.prisma, bounded(search), optionLimit(limit));
}
