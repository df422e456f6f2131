// A reviewer's first dashboard right after what they see
// changed, and the first one of a new day. A change of what reviewers see
// (an assignment created over REST or GraphQL, deleted, items moved) sends
// the dashboard figures' job in its own transaction (services/review/assignments.ts
// changingWhatTheySee, jobs/dashboard-figures.ts): the reviewer's new scope
// has its figures kept before anyone reads them; a change that fails sends
// nothing. The job also runs daily just before midnight UTC and keeps the new
// day's figures ('new high-risk users' are counted over the last 30 days);
// the trend's loads per day and week do not depend on the day, so their keys
// do not carry it. The job also refreshes the shared items the change made
// stale. The daily run is called with a chosen time: no waiting.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, adminClient, dashboardJobsDone, startServer, userClients, type TestServer, type UserClient } from '../helpers/server.js';
import { loadExport } from '../helpers/upload.js';
import { decide } from '../helpers/items.js';
import { NEXT_DAY_AHEAD_MS, figuresNotKept, forgetCachedFigures, keysOf } from '../../src/services/kept/index.js';
import { changingWhatTheySee } from '../../src/services/review/assignments.js';
import { criteriaSetsFor } from '../../src/services/holds.js';
import { scopeKey } from '../../src/services/visibility.js';
import { JOBS } from '../../src/db/queue.js';
import { DASHBOARD_FIGURES_CRON, runDashboardFigures } from '../../src/jobs/dashboard-figures.js';
import { HEADER, dataVersions, readerCounts, row } from '../helpers/figures.js';

const DAY = 86_400_000;
let server: TestServer;
let admin: Client;
let a: UserClient;
let b: UserClient;
let c: UserClient;
const statements: string[] = [];

const countsRun = () => readerCounts(statements);

const db = () => server.app.deps.prisma;
const versions = () => dataVersions(db());
const gid = (type: string, id: string) => Buffer.from(`${type}:${id}`).toString('base64');
const jobsSent = async () =>
  Number((await db().$queryRawUnsafe<{ n: bigint }[]>(`SELECT count(*) AS n FROM pgboss.job WHERE name = $1`, JOBS.dashboardFigures))[0]!.n);

/** The keys of a reviewer's figures (or the administrator's) as of `at`, not kept at the current data version. */
async function notKept(who: UserClient | 'admin', at = new Date()) {
  const { v, c: categoryVersion } = await versions();
  const key = who === 'admin' ? 'admin' : scopeKey(await criteriaSetsFor(db(), who.user.id));
  const keys = keysOf(key, categoryVersion, at);
  const missing = await figuresNotKept(db(), v, Object.values(keys));
  return Object.entries(keys)
    .filter(([, k]) => missing.has(k))
    .map(([figure]) => figure);
}

/** Waits (no reader asking) until the reviewer's figures are kept; what is still missing at the deadline fails. */
async function keptWithoutReading(who: UserClient) {
  for (const deadline = Date.now() + 20_000; ; await new Promise((r) => setTimeout(r, 100))) {
    const missing = await notKept(who);
    if (!missing.length) return;
    if (Date.now() > deadline) expect(missing, 'figures not kept after the change').toEqual([]);
  }
}

/** The reviewer's dashboard (stats, trends, categories), with how many of the readers' counts it ran. */
async function dashboardCounts(who: UserClient) {
  forgetCachedFigures();
  statements.length = 0;
  for (const path of ['/api/dashboard/stats', '/api/dashboard/trend?range=30d', '/api/dashboard/trend?range=6m', '/api/dashboard/categories']) {
    expect((await who.client.get(path)).status, path).toBe(200);
  }
  return countsRun();
}

beforeAll(async () => {
  server = await startServer({}, { onQuery: (sql) => void statements.push(sql) });
  admin = await adminClient(server);
  [a, b, c] = (await userClients(server, admin, 3)) as [UserClient, UserClient, UserClient];
  await loadExport(
    server,
    admin,
    HEADER +
      row('U1', 'Finance', 'R01', 'High', 'SAP ERP', 'Z_AP') +
      row('U2', 'Finance', 'R02', 'Low', 'Workday', 'HR') +
      row('U3', 'Sales', 'R03', 'High', 'AD', 'DOM') +
      row('U4', 'IT', 'R04', 'High', 'SAP ERP', 'BASIS'),
    { mode: 'replace' },
  );
  // U1 loaded long ago: not a new high-risk user.
  await db().$executeRawUnsafe(`UPDATE risk_rows SET created_at = now() - interval '40 days' WHERE user_id = 'U1'`);
});
afterAll(async () => server?.close());

describe('a change of what a reviewer sees sends the dashboard figures job in its transaction', () => {
  it('an assignment created over REST: the reviewer’s figures are kept without anyone reading them', async () => {
    expect(await notKept(a)).not.toEqual([]);
    statements.length = 0;
    expect((await admin.post('/api/assignment-criteria', { reviewerId: a.user.id, criteriaType: 'system', criteriaValue: 'SAP ERP' })).status).toBe(201);
    await keptWithoutReading(a);
    expect(countsRun()).toBe(0);
    // Their dashboard then reads them: none of the readers' counts runs.
    expect(await dashboardCounts(a)).toBe(0);
  });

  it('an assignment created over GraphQL, and one deleted: the same', async () => {
    const g = await admin.gql(
      `mutation ($id: ID!) { createAssignment(input: { reviewerId: $id, criteriaType: USER_GROUP, criteriaValue: "Sales" }) { __typename } }`,
      { id: gid('User', b.user.id) },
    );
    expect(g.body.errors).toBeUndefined();
    expect(g.body.data.createAssignment.__typename).toBe('MutationCreateAssignmentSuccess');
    await keptWithoutReading(b);
    expect(await dashboardCounts(b)).toBe(0);
    // b gets a second criterion (a new scope), then it is deleted again over GraphQL: back to the first.
    expect((await admin.post('/api/assignment-criteria', { reviewerId: b.user.id, criteriaType: 'system', criteriaValue: 'Workday' })).status).toBe(201);
    await keptWithoutReading(b);
    await db().$executeRawUnsafe(`DELETE FROM kept_figures`);
    forgetCachedFigures();
    const workday = (await admin.get('/api/assignment-criteria')).body.find((x: any) => x.reviewerId === b.user.id && x.criteriaValue === 'Workday');
    const d = await admin.gql(`mutation ($id: ID!) { deleteAssignment(id: $id) { __typename } }`, { id: gid('AssignmentCriteria', workday.id) });
    expect(d.body.errors).toBeUndefined();
    expect(d.body.data.deleteAssignment.__typename).toBe('MutationDeleteAssignmentSuccess');
    await keptWithoutReading(b);
    expect(await dashboardCounts(b)).toBe(0);
  });

  it("the active period's shared items (pending, All Reviews) are brought up to the new criteria with nobody reading; a closed period's by the All Reviews read", async () => {
    const opened = await admin.post('/api/review-periods', { name: 'Earlier period' });
    expect(opened.status).toBe(201);
    await decide(server, a, 'U1', 'Z_AP');
    expect((await admin.put(`/api/review-periods/${opened.body.id}/close`)).status).toBe(200);
    expect((await admin.post('/api/review-periods', { name: 'Job period' })).status).toBe(201);
    await decide(server, a, 'U1', 'Z_AP');
    const fresh = async (period: string) =>
      (
        await db().$queryRawUnsafe<{ fresh: boolean }[]>(
          `SELECT s.data_version = v.version AND s.criteria_version = v.criteria_version AS fresh
           FROM shared_item_periods s CROSS JOIN risk_data_version v WHERE v.id = 1 AND s.period_id = ${period}`,
        )
      )[0]?.fresh ?? false;
    const active = () => fresh(`(SELECT id FROM review_periods WHERE status = 'active')`);
    const earlier = () => fresh(`'${opened.body.id}'::uuid`);
    // From before the change: the job may have refreshed them by the time its answer is read.
    statements.length = 0;
    expect((await admin.post('/api/assignment-criteria', { reviewerId: a.user.id, criteriaType: 'user_id', criteriaValue: 'U2' })).status).toBe(201);
    for (const deadline = Date.now() + 20_000; !(await active()); await new Promise((r) => setTimeout(r, 100))) {
      if (Date.now() > deadline) expect(await active(), 'shared items refreshed after the change').toBe(true);
    }
    expect(statements.some((x) => /INSERT INTO shared_items /.test(x))).toBe(true);
    // One refresh, not one per period: the closed period's items wait for a reader that needs them.
    await dashboardJobsDone(server);
    expect(await earlier()).toBe(false);
    const all = await admin.get('/api/reviews/all');
    expect(all.status).toBe(200);
    expect(await earlier()).toBe(true);
  });

  it('a change that fails sends nothing; the same change committed sends one job', async () => {
    await dashboardJobsDone(server);
    const sent = await jobsSent();
    const change = (fail: boolean) =>
      db().$transaction(async (tx) => {
        await changingWhatTheySee(tx, server.app.deps.jobs, [c.user.id], () =>
          tx.assignmentCriteria.create({ data: { name: 'AD', reviewerId: c.user.id, criteriaType: 'system', criteriaValue: 'AD' } }),
        );
        if (fail) throw new Error('a later step of the change fails');
      });
    await expect(change(true)).rejects.toThrow('a later step of the change fails');
    expect(await db().assignmentCriteria.count({ where: { reviewerId: c.user.id } })).toBe(0);
    expect(await jobsSent()).toBe(sent);
    await change(false);
    expect(await jobsSent()).toBe(sent + 1);
    await keptWithoutReading(c);
  });
});

describe('a reviewer who becomes active again', () => {
  it('made active again over REST, or an administrator made a reviewer over GraphQL: their figures are kept without anyone reading them', async () => {
    // c holds work (the AD assignment above). While c is inactive, nothing keeps their scope's figures.
    expect((await admin.put(`/api/users/${c.user.id}/deactivate`)).status).toBe(200);
    await dashboardJobsDone(server);
    await db().$executeRawUnsafe(`DELETE FROM kept_figures`);
    forgetCachedFigures();
    expect(await notKept(c)).not.toEqual([]);
    expect((await admin.put(`/api/users/${c.user.id}/activate`)).status).toBe(200);
    await keptWithoutReading(c);

    // c, holding work, cannot be made an administrator; one who is (made so before that rule)
    // and is made a reviewer again: the same.
    const role = (r: string) =>
      admin.gql(`mutation ($id: ID!, $role: Role!) { updateUser(id: $id, input: { role: $role }) { __typename } }`, { id: gid('User', c.user.id), role: r });
    expect((await admin.put(`/api/users/${c.user.id}`, { role: 'admin' })).status).toBe(409);
    await db().user.update({ where: { id: c.user.id }, data: { role: 'admin' } });
    await dashboardJobsDone(server);
    await db().$executeRawUnsafe(`DELETE FROM kept_figures`);
    forgetCachedFigures();
    expect(await notKept(c)).not.toEqual([]);
    const back = await role('REVIEWER');
    expect(back.body.errors).toBeUndefined();
    expect(back.body.data.updateUser.__typename).toBe('MutationUpdateUserSuccess');
    await keptWithoutReading(c);
  });
});

describe('the daily run', () => {
  it('is scheduled in the database a few minutes before midnight UTC', async () => {
    const schedules = await server.app.deps.jobs.boss.getSchedules();
    const mine = schedules.find((s) => s.name === JOBS.dashboardFigures);
    expect(mine).toMatchObject({ cron: DASHBOARD_FIGURES_CRON, timezone: 'UTC' });
    const [minute, hour] = DASHBOARD_FIGURES_CRON.split(' ').map(Number);
    expect(hour).toBe(23);
    expect((60 - minute!) * 60_000).toBeLessThanOrEqual(NEXT_DAY_AHEAD_MS);
  });

  it('the run before midnight keeps the coming day’s new high-risk users, so the first read after midnight counts nothing', async () => {
    // A day later than the other test's, with nothing kept for it yet.
    const midnight = new Date(Math.floor(Date.now() / DAY + 3) * DAY);
    const scheduled = new Date(midnight.getTime() - 5 * 60_000);
    for (const who of ['admin', a, b, c] as const) expect(await notKept(who, midnight)).toEqual(['highTrend']);
    await runDashboardFigures(server.app.deps, scheduled);
    for (const who of ['admin', a, b, c] as const) expect(await notKept(who, midnight)).toEqual([]);
  });

  it('the trend’s keys do not change with the day; a later day’s new high-risk users are kept by the run of that day', async () => {
    // Noon five days on: never a day the runs sent by the changes above kept ahead (they keep the next
    // day's too when they start within NEXT_DAY_AHEAD_MS of midnight, as CI's clock may be).
    const later = new Date(Math.floor(Date.now() / DAY + 5) * DAY + DAY / 2);
    for (const who of ['admin', a, b, c] as const) {
      expect(await notKept(who)).toEqual([]);
      // That day, only 'new high-risk users' (their window moved) is not kept yet: the loads per day and week are.
      expect(await notKept(who, later)).toEqual(['highTrend']);
    }
    await runDashboardFigures(server.app.deps, later);
    for (const who of ['admin', a, b, c] as const) expect(await notKept(who, later)).toEqual([]);
  });
});
