// A rule set version read as an administrator browses it: its risks a page
// at a time (by risk id, code point order), each risk's functions (in the
// order of risk_functions), each function's actions (file order) and each
// action's permission rows (file order). Disabled rows are listed too, marked:
// the version is shown as it was uploaded. Every list below the risks is read
// for many parents in one query (the GraphQL fields batch them).
import { Prisma, type PrismaClient } from '../../generated/prisma/client.js';
import type { Caller } from '../caller.js';

export type RuleRisk = Awaited<ReturnType<PrismaClient['accessRisk']['findFirstOrThrow']>>;
export type RuleFunction = Awaited<ReturnType<PrismaClient['accessFunction']['findFirstOrThrow']>>;
export type RuleAction = Awaited<ReturnType<PrismaClient['accessFunctionAction']['findFirstOrThrow']>>;
export type RulePermission = Awaited<ReturnType<PrismaClient['accessFunctionPermission']['findFirstOrThrow']>>;

/** A page of a version's risks by risk id: after / before are risk ids; `inverted` reads backwards from `before`. */
export async function listRisks(
  caller: Caller,
  ruleSetId: string,
  page: { after?: string | null; before?: string | null; limit: number; inverted?: boolean },
): Promise<RuleRisk[]> {
  const keys: Prisma.Sql[] = [Prisma.sql`rule_set_id = ${ruleSetId}::uuid`];
  if (page.after != null) keys.push(Prisma.sql`risk_id COLLATE "C" > ${page.after}`);
  if (page.before != null) keys.push(Prisma.sql`risk_id COLLATE "C" < ${page.before}`);
  const dir = Prisma.raw(page.inverted ? 'DESC' : 'ASC');
  return caller.deps.prisma.$queryRaw<RuleRisk[]>`
    SELECT rule_set_id AS "ruleSetId", risk_id AS "riskId", description, level, type, business_process AS "businessProcess", enabled, line
      FROM access_risks WHERE ${Prisma.join(keys, ' AND ')}
     ORDER BY risk_id COLLATE "C" ${dir}
     LIMIT ${Math.max(1, Math.trunc(page.limit))}`;
}

export const countRisks = (caller: Caller, ruleSetId: string) => caller.deps.prisma.accessRisk.count({ where: { ruleSetId } });

type Key = { ruleSetId: string };
/** The keys grouped by version (a page's rows almost always share one). */
function byVersion<K extends Key>(keys: readonly K[]): Map<string, K[]> {
  const m = new Map<string, K[]>();
  for (const k of keys) m.set(k.ruleSetId, [...(m.get(k.ruleSetId) ?? []), k]);
  return m;
}

/** Each risk's functions, in risk_functions' order. */
export async function functionsOfRisks(caller: Caller, keys: readonly Pick<RuleRisk, 'ruleSetId' | 'riskId'>[]): Promise<RuleFunction[][]> {
  const { prisma } = caller.deps;
  const found = new Map<string, RuleFunction[]>();
  for (const [ruleSetId, ks] of byVersion(keys)) {
    const links = await prisma.accessRiskFunction.findMany({ where: { ruleSetId, riskId: { in: ks.map((k) => k.riskId) } }, orderBy: { line: 'asc' } });
    const fns = await prisma.accessFunction.findMany({ where: { ruleSetId, functionId: { in: [...new Set(links.map((l) => l.functionId))] } } });
    const fn = new Map(fns.map((f) => [f.functionId, f]));
    for (const l of links) {
      const f = fn.get(l.functionId);
      const k = JSON.stringify([ruleSetId, l.riskId]);
      if (f) found.set(k, [...(found.get(k) ?? []), f]);
    }
  }
  return keys.map((k) => found.get(JSON.stringify([k.ruleSetId, k.riskId])) ?? []);
}

/** Each function's actions, in file order. */
export async function actionsOfFunctions(caller: Caller, keys: readonly Pick<RuleFunction, 'ruleSetId' | 'functionId'>[]): Promise<RuleAction[][]> {
  const { prisma } = caller.deps;
  const found = new Map<string, RuleAction[]>();
  for (const [ruleSetId, ks] of byVersion(keys)) {
    for (const a of await prisma.accessFunctionAction.findMany({
      where: { ruleSetId, functionId: { in: ks.map((k) => k.functionId) } },
      orderBy: { line: 'asc' },
    })) {
      const k = JSON.stringify([ruleSetId, a.functionId]);
      found.set(k, [...(found.get(k) ?? []), a]);
    }
  }
  return keys.map((k) => found.get(JSON.stringify([k.ruleSetId, k.functionId])) ?? []);
}

/**
 * Each action's permission rows, in file order: the rows of its function and
 * action whose system is the action's or empty (every system); for an action
 * of every system, the rows of any system.
 */
export async function permissionsOfActions(
  caller: Caller,
  keys: readonly Pick<RuleAction, 'ruleSetId' | 'functionId' | 'system' | 'action'>[],
): Promise<RulePermission[][]> {
  const { prisma } = caller.deps;
  const rows = new Map<string, RulePermission[]>();
  for (const [ruleSetId, ks] of byVersion(keys)) {
    const found = await prisma.accessFunctionPermission.findMany({
      where: { ruleSetId, functionId: { in: [...new Set(ks.map((k) => k.functionId))] }, action: { in: [...new Set(ks.map((k) => k.action))] } },
      orderBy: { line: 'asc' },
    });
    for (const p of found) {
      const k = JSON.stringify([ruleSetId, p.functionId, p.action]);
      rows.set(k, [...(rows.get(k) ?? []), p]);
    }
  }
  return keys.map((k) =>
    (rows.get(JSON.stringify([k.ruleSetId, k.functionId, k.action])) ?? []).filter((p) => k.system === '' || p.system === '' || p.system === k.system),
  );
}
