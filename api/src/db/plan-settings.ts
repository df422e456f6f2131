// One statement run with planner settings of its own: SET LOCAL in a
// transaction of its own, so the settings end with it. For statements whose
// default plan was measured worse; each caller says why.
import { Prisma, type PrismaClient } from '../generated/prisma/client.js';

export interface PlanSettings {
  /** JIT off: compiling a plan costed by its thousands of lookups took longer than running it. */
  jit?: 'off';
  /** Memory for sorts and hashes, e.g. '64MB'. */
  workMem?: `${number}MB`;
  /** Parallel workers per Gather (0: none). */
  parallelWorkers?: number;
  /** Hash joins only: no nested loop chosen on an estimate of one row, no merge join keyed on a leading column alone. */
  hashJoinsOnly?: true;
}

/** The SET LOCAL statements of the settings, for a transaction that runs them first. */
export function planSettingsSql(s: PlanSettings): string[] {
  const sets: string[] = [];
  if (s.hashJoinsOnly) sets.push('SET LOCAL enable_nestloop = off', 'SET LOCAL enable_mergejoin = off');
  if (s.jit === 'off') sets.push('SET LOCAL jit = off');
  if (s.workMem !== undefined) {
    if (!/^\d{1,5}MB$/.test(s.workMem)) throw new Error(`work_mem ${s.workMem}?`);
    sets.push(`SET LOCAL work_mem = '${s.workMem}'`);
  }
  if (s.parallelWorkers !== undefined) {
    if (!Number.isInteger(s.parallelWorkers) || s.parallelWorkers < 0) throw new Error(`parallel workers ${s.parallelWorkers}?`);
    sets.push(`SET LOCAL max_parallel_workers_per_gather = ${s.parallelWorkers}`);
  }
  return sets;
}

export async function withPlanSettings<T>(prisma: PrismaClient, s: PlanSettings, query: Prisma.PrismaPromise<T>): Promise<T> {
  const sets = planSettingsSql(s).map((q) => prisma.$executeRaw(Prisma.raw(q)));
  const results = await prisma.$transaction([...sets, query]);
  return results[results.length - 1] as T;
}
