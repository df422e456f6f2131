// How long the set-based work-out of every scope's dashboard figures takes
// (services/kept/scope-figures.ts keepScopeFigures: what an upload adds before it
// is announced), against the figures counted per scope and a per-row CASE per
// scope. On a copy of a bench database (it writes kept_figures rows):
//   DATABASE_URL=postgresql://postgres@127.0.0.1:5432/<copy> npx tsx scripts/bench-scope-figures.ts [--runs 3] [--synthetic 50]
// --synthetic N: N made-up distinct scopes (a system, a user group, two roles
// and two users each, from the data) instead of the reviewers' own.
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { Prisma } from '../api/src/generated/prisma/client.js';
import { createDatabase } from '../api/src/db/client.js';
import { dashboardScopes, fewValued, keepScopeFigures, scopeFiguresSql, type FigureScope } from '../api/src/services/kept/scope-figures.js';
import { assignedRowsCondition, type CriteriaSets } from '../api/src/services/holds.js';
import { LIVE_ROWS, scopeKey } from '../api/src/services/visibility.js';

const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '3' }, synthetic: { type: 'string' }, explain: { type: 'boolean' } } });
const db = await createDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: '' });
const prisma = db.prisma;

async function distinct(col: string, n: number): Promise<string[]> {
  const rows = await prisma.$queryRawUnsafe<{ v: string }[]>(`SELECT DISTINCT ${col} AS v FROM risk_rows WHERE ${col} <> '' ORDER BY 1 LIMIT ${n}`);
  return rows.map((r) => r.v);
}

async function syntheticScopes(n: number): Promise<FigureScope[]> {
  const [systems, groups, roles, users] = await Promise.all([
    distinct('system', 10),
    distinct('user_group', 20),
    distinct('role_profile', 2 * n),
    distinct('user_id', 2 * n),
  ]);
  return Array.from({ length: n }, (_x, i) => {
    const sets: CriteriaSets = {
      risk_id: [],
      user_id: [users[(2 * i) % users.length]!, users[(2 * i + 1) % users.length]!].sort(),
      user_group: [groups[i % groups.length]!],
      system: [systems[i % systems.length]!],
      role_profile: [roles[(2 * i) % roles.length]!, roles[(2 * i + 1) % roles.length]!].sort(),
      held: [],
      released: [],
      own: [],
      fallback: null,
    };
    return { key: `bench|${scopeKey(sets)}`, sets };
  });
}

const time = async (label: string, f: () => Promise<unknown>) => {
  const ms: number[] = [];
  for (let i = 0; i < Number(args.runs); i++) {
    const t = performance.now();
    await f();
    ms.push(performance.now() - t);
  }
  console.log(`${label}: ${ms.map((x) => x.toFixed(0)).join(', ')} ms`);
};

const load = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
const scopes = args.synthetic ? await syntheticScopes(Number(args.synthetic)) : await dashboardScopes(prisma);
const reviewers = scopes.filter((s) => s.sets);
console.log(`${scopes.length} scopes (${reviewers.length} reviewers' + ${scopes.length - reviewers.length} administrator's); load ${load()}`);
if (args.explain) {
  const sets = (process.env.SETTINGS ?? '')
    .split(';')
    .filter(Boolean)
    .map((x) => prisma.$executeRawUnsafe(`SET LOCAL ${x}`));
  const out = await prisma.$transaction([
    ...sets,
    prisma.$queryRaw<{ 'QUERY PLAN': string }[]>`EXPLAIN (ANALYZE, BUFFERS, VERBOSE) ${scopeFiguresSql(scopes, '2026-10-25', await fewValued(prisma))}`,
  ]);
  const plan = out[out.length - 1] as { 'QUERY PLAN': string }[];
  console.log(plan.map((p) => p['QUERY PLAN']).join('\n'));
  process.exit(0);
}
await time('keepScopeFigures, every scope in one statement', () => keepScopeFigures(prisma, scopes));
await time(
  "one reviewer's totals counted alone (scopeTotals' count)",
  () => prisma.$queryRaw`
  SELECT count(*) FROM risk_rows r WHERE ${LIVE_ROWS} AND ${assignedRowsCondition(reviewers[0]!.sets!)}`,
);
const which = Prisma.join(reviewers.map((s, i) => Prisma.sql`CASE WHEN ${assignedRowsCondition(s.sets!)} THEN ${i}::int END`));
await time(`a per-row CASE per scope (${reviewers.length}), rows counted per scope (totals only; without JIT)`, () =>
  prisma.$transaction([
    prisma.$executeRaw`SET LOCAL jit = off`,
    prisma.$queryRaw`SELECT k, count(*) FROM risk_rows r CROSS JOIN LATERAL unnest(ARRAY[${which}]::int[]) AS k WHERE ${LIVE_ROWS} AND k IS NOT NULL GROUP BY k`,
  ]),
);
console.log(`load ${load()}`);
await db.close();
