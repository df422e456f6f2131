// The dashboard's figures counted over every live row a viewer sees (totals,
// new high-risk users, loads per day and week, categories) are kept in the
// database per data version (kept_figures), not only in the process: after a
// restart (here: the process's cache forgotten, as a restart or another
// instance starts without it) the dashboard answers from the kept figures
// without counting again, and they equal the figures counted afresh; an upload
// (a new data version) changes them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, adminClient, startServer, userClient, type TestServer } from '../helpers/server.js';
import { decide, line, load } from '../helpers/items.js';
import { forgetCachedFigures } from '../../src/services/kept/index.js';

let server: TestServer;
let admin: Client;
let reviewer: Awaited<ReturnType<typeof userClient>>;
const statements: string[] = [];

/** The counts over the live rows behind the kept figures (dashboard.ts, risks.ts scopeTotals). */
const COUNTS = [
  /count\(DISTINCT r\.user_id\) FILTER/,
  /HAVING min\(r\.created_at\)/,
  /r\.created_at AT TIME ZONE 'UTC'\) AS b, count\(\*\)/,
  /AS category, count\(\*\)/,
];
const countsRun = () => statements.filter((s) => COUNTS.some((c) => c.test(s))).length;

/** Everything the dashboard shows that comes from these figures, for the administrator and the reviewer. */
async function dashboards() {
  const out: Record<string, unknown> = {};
  for (const [who, client] of [
    ['admin', admin],
    ['reviewer', reviewer.client],
  ] as const) {
    for (const path of ['/api/dashboard/stats', '/api/dashboard/trend?range=30d', '/api/dashboard/trend?range=6m', '/api/dashboard/categories']) {
      const r = await client.get(path);
      expect(r.status, `${who} ${path}`).toBe(200);
      const body = r.body as Record<string, unknown>;
      // (activeReviewers is who is online, not a kept figure)
      out[`${who} ${path}`] = path.endsWith('stats') ? { ...body, activeReviewers: undefined } : body;
    }
  }
  return out;
}

const keptVersions = async () =>
  (await server.app.deps.prisma.$queryRawUnsafe<{ v: bigint }[]>(`SELECT DISTINCT data_version AS v FROM kept_figures ORDER BY 1`)).map((r) => r.v);
const dataVersion = async () =>
  (await server.app.deps.prisma.$queryRawUnsafe<{ v: bigint }[]>(`SELECT version AS v FROM risk_data_version WHERE id = 1`))[0]!.v;

beforeAll(async () => {
  server = await startServer({}, { onQuery: (sql) => void statements.push(sql) });
  admin = await adminClient(server);
  reviewer = await userClient(server, admin);
  await load(
    server,
    admin,
    line('K1', 'R01', 'SAP ERP', 'Z_AP') + line('K1', 'R02', 'Workday', 'HR') + line('K2', 'R03', 'SAP ERP', 'Z_AP') + line('K3', 'R04', 'AD', 'DOM'),
    'replace',
  );
  expect((await admin.post('/api/assignment-criteria', { reviewerId: reviewer.user.id, criteriaType: 'system', criteriaValue: 'SAP ERP' })).status).toBe(201);
  expect((await admin.post('/api/review-periods', { name: 'Kept figures' })).status).toBe(201);
  await decide(server, reviewer, 'K1', 'Z_AP', 'remove');
});
afterAll(async () => server?.close());

describe('dashboard figures kept in the database per data version', () => {
  let computed: Record<string, unknown>;

  it('a process without them in memory answers from the kept figures, without counting', async () => {
    computed = await dashboards();
    expect(await keptVersions()).toEqual([await dataVersion()]);
    forgetCachedFigures();
    statements.length = 0;
    expect(await dashboards()).toEqual(computed);
    expect(countsRun()).toBe(0);
  });

  it('the kept figures equal the ones counted afresh', async () => {
    await server.app.deps.prisma.$executeRawUnsafe(`DELETE FROM kept_figures`);
    forgetCachedFigures();
    statements.length = 0;
    expect(await dashboards()).toEqual(computed);
    expect(countsRun()).toBeGreaterThan(0);
  });

  it('an upload (a new data version) changes them: counted and kept at the new version only', async () => {
    await load(server, admin, line('K4', 'R05', 'SAP ERP', 'Z_GL') + line('K5', 'R06', 'AD', 'DOM'), 'append');
    const after = await dashboards();
    expect(after).not.toEqual(computed);
    expect((after['admin /api/dashboard/stats'] as { totalConflicts: number }).totalConflicts).toBe(6);
    expect((after['reviewer /api/dashboard/stats'] as { totalConflicts: number }).totalConflicts).toBe(3);
    expect(await keptVersions()).toEqual([await dataVersion()]);
    forgetCachedFigures();
    statements.length = 0;
    expect(await dashboards()).toEqual(after);
    expect(countsRun()).toBe(0);
  });
});
