// A reviewer's first dashboard after an upload. The figures
// counted over the rows a scope sees (totals, new high-risk users, loads per
// day and per week, categories: services/kept/scope-figures.ts) are worked out for
// every reviewer's scope, set-based, after an upload went live and before it
// is announced, and kept in kept_figures at the new data version: nobody reads
// in between. They must be what each reader would count itself: the dashboards
// read from them without counting (REST and GraphQL), equal the dashboards
// counted afresh once they are deleted, and the kept values equal, figure for
// figure, those the readers keep when they count. Reviewers: a and b with the
// same criteria (one scope), c by user group and role, d by user id plus an
// item c handed to d (a row moved: the scopes' conditions read the row id).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, adminClient, startServer, userClients, type TestServer, type UserClient } from '../helpers/server.js';
import { loadExport } from '../helpers/upload.js';
import { rowId } from '../helpers/items.js';
import { forgetCachedFigures, keptFigure, keysOf } from '../../src/services/kept/index.js';
import { criteriaSetsFor } from '../../src/services/holds.js';
import { scopeKey } from '../../src/services/visibility.js';
import { HEADER, dataVersions, readerCounts, row } from '../helpers/figures.js';

let server: TestServer;
let admin: Client;
let a: UserClient;
let b: UserClient;
let c: UserClient;
let d: UserClient;
const statements: string[] = [];

const countsRun = () => readerCounts(statements);

const db = () => server.app.deps.prisma;
const versions = () => dataVersions(db());

/** Each reviewer's scope key and the keys of their figures at the current version. */
async function figureKeys() {
  const { c: categoryVersion } = await versions();
  const out = new Map<string, ReturnType<typeof keysOf>>();
  out.set('admin', keysOf('admin', categoryVersion));
  for (const [who, u] of [
    ['a', a],
    ['b', b],
    ['c', c],
    ['d', d],
  ] as const) {
    out.set(who, keysOf(scopeKey(await criteriaSetsFor(db(), u.user.id)), categoryVersion));
  }
  return out;
}

/** The figures kept at the current data version, per viewer and figure (arrays in a fixed order); undefined where none is kept. */
async function keptNow() {
  const { v } = await versions();
  const out: Record<string, unknown> = {};
  for (const [who, keys] of await figureKeys()) {
    for (const [figure, key] of Object.entries(keys)) {
      const value = await keptFigure<unknown>(db(), v, key);
      out[`${who} ${figure}`] = Array.isArray(value) ? [...value].sort((x, y) => String(x.b ?? x.category).localeCompare(String(y.b ?? y.category))) : value;
    }
  }
  return out;
}

/** Everything the dashboards show from these figures, for the administrator and each reviewer, over REST and GraphQL. */
async function dashboards() {
  const out: Record<string, unknown> = {};
  for (const [who, client] of [
    ['admin', admin],
    ['a', a.client],
    ['b', b.client],
    ['c', c.client],
    ['d', d.client],
  ] as const) {
    for (const path of ['/api/dashboard/stats', '/api/dashboard/trend?range=30d', '/api/dashboard/trend?range=6m', '/api/dashboard/categories']) {
      const r = await client.get(path);
      expect(r.status, `${who} ${path}`).toBe(200);
      // (activeReviewers is who is online, not a kept figure)
      out[`${who} ${path}`] = path.endsWith('stats') ? { ...r.body, activeReviewers: undefined } : r.body;
    }
    const g = await client.gql(`{ dashboardStats { totalConflicts highRiskUsers newHighRiskUsers pendingReviews }
      days: dashboardTrend(range: LAST_30_DAYS) { date loaded } weeks: dashboardTrend(range: LAST_6_MONTHS) { date loaded }
      riskCategories { category count } }`);
    expect(g.body.errors, who).toBeUndefined();
    out[`${who} graphql`] = g.body.data;
  }
  return out;
}

beforeAll(async () => {
  server = await startServer({}, { onQuery: (sql) => void statements.push(sql) });
  admin = await adminClient(server);
  [a, b, c, d] = (await userClients(server, admin, 4)) as [UserClient, UserClient, UserClient, UserClient];
  await loadExport(
    server,
    admin,
    HEADER +
      row('U1', 'Finance', 'R01', 'High', 'SAP ERP', 'Z_AP') +
      row('U1', 'Finance', 'R02', 'Low', 'SAP ERP', 'Z_GL') +
      row('U2', 'Finance', 'R03', 'High', 'Workday', 'HR') +
      row('U2', 'Finance', 'R04', 'Medium', 'AD', 'DOM') +
      row('U3', 'Sales', 'R05', 'High', 'SAP ERP', 'Z_AP') +
      row('U3', 'Sales', 'R06', 'High', 'AD', 'HR') +
      row('U4', 'Sales', 'R07', 'Low', 'Workday', 'PAY') +
      row('U5', 'IT', 'R08', 'High', 'AD', 'DOM') +
      row('U5', 'IT', 'R09', 'High', 'SAP ERP', 'BASIS'),
    { mode: 'replace' },
  );
  const criteria = [
    [a, 'system', 'SAP ERP'],
    [b, 'system', 'SAP ERP'],
    [c, 'user_group', 'Finance'],
    [c, 'role_profile', 'HR'],
    [d, 'user_id', 'U5'],
  ] as const;
  for (const [u, criteriaType, criteriaValue] of criteria) {
    expect((await admin.post('/api/assignment-criteria', { reviewerId: u.user.id, criteriaType, criteriaValue })).status).toBe(201);
  }
  expect((await admin.post('/api/review-periods', { name: 'Scope figures' })).status).toBe(201);
  // c hands U2's AD row to d.
  const moved = await rowId(server, 'U2', 'DOM');
  expect((await c.client.post('/api/reassignments', { riskDefinitionIds: [moved], toReviewerId: d.user.id, note: 'Yours' })).status).toBe(201);
  // Loaded on other days (U1 and U3 long ago: not new high-risk users; U2 ten days ago), some categories accepted.
  await db().$executeRawUnsafe(`UPDATE risk_rows SET created_at = now() - interval '40 days' WHERE user_id IN ('U1', 'U3')`);
  await db().$executeRawUnsafe(`UPDATE risk_rows SET created_at = now() - interval '10 days' WHERE user_id = 'U2'`);
  await db().$executeRawUnsafe(`UPDATE risk_rows SET ai_suggested_category = 'Financial', ai_category_accepted = TRUE WHERE access_risk_id IN ('R01', 'R03')`);
  await db().$executeRawUnsafe(`UPDATE risk_rows SET ai_suggested_category = 'Access Control', ai_category_accepted = TRUE WHERE access_risk_id = 'R08'`);
  await db().$executeRawUnsafe(`UPDATE risk_rows SET ai_suggested_category = 'Operational' WHERE access_risk_id = 'R05'`);
  // Statistics: the statement then groups the columns with few values (here all but the user id) by
  // their own values, and the others by the values the scopes name (kept-figures.test.ts has none).
  await db().$executeRawUnsafe(`ANALYZE risk_rows`);
  // The upload: a new data version (U1's first high row in HR is not new; U6 is a new high-risk user).
  await loadExport(
    server,
    admin,
    HEADER +
      row('U6', 'Finance', 'R10', 'High', 'SAP ERP', 'Z_AP') +
      row('U1', 'Finance', 'R11', 'High', 'Workday', 'HR') +
      row('U5', 'IT', 'R12', 'Low', 'AD', 'DOM'),
    { mode: 'append' },
  );
});
afterAll(async () => server?.close());

describe("every reviewer's dashboard figures are worked out when an upload goes live", () => {
  let warmed: Record<string, unknown>;

  it('kept at the new data version for each distinct scope before anyone reads (a and b share theirs)', async () => {
    const keys = await figureKeys();
    expect(keys.get('a')).toEqual(keys.get('b'));
    expect(new Set([...keys.values()].map((k) => k.totals)).size).toBe(4);
    // The upload is 'completed' in its status when it goes live; the figures follow before it is announced.
    for (const deadline = Date.now() + 20_000; ; await new Promise((r) => setTimeout(r, 100))) {
      warmed = await keptNow();
      if (Object.values(warmed).every((v) => v !== undefined)) break;
      if (Date.now() > deadline)
        throw new Error(
          `not kept: ${Object.keys(warmed)
            .filter((k) => warmed[k] === undefined)
            .join(', ')}`,
        );
    }
    // What they say, for the reviewers (by hand from the rows above).
    expect(warmed['a totals']).toEqual({ total: 5, high: 4, highUsers: 4 });
    // c: Finance's rows but U2's AD row (handed to d), and U3's HR row; medium counts as high.
    expect(warmed['c totals']).toEqual({ total: 6, high: 5, highUsers: 4 });
    expect(warmed['d totals']).toEqual({ total: 4, high: 3, highUsers: 2 }); // U5's rows and U2's AD row
    expect(warmed['a highTrend']).toBe(2); // U5 and U6 (U1 and U3 were loaded 40 days ago)
    expect(warmed['c highTrend']).toBe(2); // U2 (ten days ago) and U6
    expect(warmed['d highTrend']).toBe(2); // U2 and U5
    expect(warmed['c categories']).toEqual([
      { category: 'Financial', n: 2n },
      { category: 'Uncategorised', n: 4n },
    ]);
    expect((warmed['c day'] as unknown[]).length).toBe(3); // 40 days ago, 10 days ago, today
  });

  it('the dashboards answer from them without counting, and equal the dashboards counted afresh', async () => {
    forgetCachedFigures();
    statements.length = 0;
    const fromKept = await dashboards();
    expect(countsRun()).toBe(0);
    await db().$executeRawUnsafe(`DELETE FROM kept_figures`);
    forgetCachedFigures();
    statements.length = 0;
    expect(await dashboards()).toEqual(fromKept);
    expect(countsRun()).toBeGreaterThan(0);
    // And figure for figure, as the readers keep them when they count (bigints and dates as they were).
    expect(await keptNow()).toEqual(warmed);
  });
});
