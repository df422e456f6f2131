// The risk queue on many rows: search through the term table, paging by
// seeking (Next/Previous cursors, the last page read from the end) and totals
// that are cached per data version yet never stale.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, adminClient, startServer, userClient, type TestServer } from '../helpers/server.js';
import { seedRows, type SeedRow } from '../helpers/seed.js';
import { riskRowData } from '../../src/db/seed-rows.js';
import { dataVersion } from '../../src/services/kept/index.js';

let server: TestServer;
let admin: Client;
const N = 240; // 10 pages of 24 (limit 24 keeps page edges away from round numbers)

function row(i: number): SeedRow {
  return {
    userId: `P${String(i).padStart(4, '0')}`,
    userName: i % 40 === 0 ? `Zoë Quintero ${i}` : `Person ${i}`,
    userGroup: i % 2 ? 'ODD' : 'EVEN',
    accessRiskId: `PR${i % 7}`,
    riskDescription: i % 7 === 3 ? 'Maintain vendor master and post payments' : `Risk number ${i % 7}`,
    riskLevel: i % 3 === 0 ? 'low' : 'high',
    system: i % 5 === 0 ? 'Workday' : 'SAP ERP',
    roleProfile: i % 11 === 0 ? 'Z_TREASURY_RELEASE' : `Z_ROLE_${i % 4}`,
  };
}

beforeAll(async () => {
  server = await startServer();
  admin = await adminClient(server);
  await seedRows(
    server.app.deps.prisma,
    Array.from({ length: N }, (_, i) => row(i)),
  );
});
afterAll(async () => server?.close());

type Page = { risks: { id: number; userId: string }[]; total: number; page: number };
const list = async (c: Client, q: string) => {
  const r = await c.get(`/api/risks?limit=24&${q}`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body as Page;
};
const ids = (p: Page) => p.risks.map((r) => r.id);

describe('risk queue search', () => {
  it('finds rows by user name, user id, role, risk id and risk description, case-insensitively', async () => {
    expect((await list(admin, 'search=zoë quint')).total).toBe(6); // names of i = 0, 40, ..., 200
    expect((await list(admin, 'search=p0007')).risks.map((r) => r.userId)).toEqual(['P0007']);
    expect((await list(admin, 'search=TREASURY')).total).toBe(22); // i % 11 === 0
    expect((await list(admin, 'search=PR3')).total).toBe(Math.ceil((N - 3) / 7));
    expect((await list(admin, 'search=vendor master')).total).toBe(Math.ceil((N - 3) / 7));
    expect((await list(admin, 'search=no such thing')).total).toBe(0);
    // LIKE wildcards are taken literally.
    expect((await list(admin, `search=${encodeURIComponent('%')}`)).total).toBe(0);
  });

  it('finds rows loaded after the first search (the term table follows every insert)', async () => {
    expect((await list(admin, 'search=Yannick')).total).toBe(0);
    await seedRows(server.app.deps.prisma, [{ userId: 'LATE1', userName: 'Yannick Late', accessRiskId: 'PR_LATE', system: 'SAP ERP' }]);
    const found = await list(admin, 'search=Yannick');
    expect(found.total).toBe(1);
    expect(found.risks[0]!.userId).toBe('LATE1');
  });
});

describe('risk queue paging', () => {
  it('Next and Previous by cursor, the last page from the end and a middle page by number all agree with one ordered list', async () => {
    const q = 'system=SAP%20ERP&riskLevel=high';
    const first = await list(admin, `${q}&page=1`);
    const total = first.total;
    expect(total).toBeGreaterThan(24 * 4);
    // The whole filtered list in order, read by walking Next.
    const all: number[] = [...ids(first)];
    let page = first;
    for (let p = 2; all.length < total; p++) {
      page = await list(admin, `${q}&page=${p}&after=${page.risks[page.risks.length - 1]!.id}`);
      expect(page.page).toBe(p);
      expect(page.total).toBe(total);
      all.push(...ids(page));
    }
    expect(all.length).toBe(total);
    expect([...all].sort((x, y) => x - y)).toEqual(all);
    const pages = Math.ceil(total / 24);
    // The last page, asked for by number, is read from the end.
    const last = await list(admin, `${q}&page=${pages}`);
    expect(ids(last)).toEqual(all.slice((pages - 1) * 24));
    // Previous from the last page, by cursor.
    const prev = await list(admin, `${q}&page=${pages - 1}&before=${last.risks[0]!.id}`);
    expect(ids(prev)).toEqual(all.slice((pages - 2) * 24, (pages - 1) * 24));
    // Any page by number alone (the second half is read backwards).
    for (const p of [2, Math.ceil(pages / 2), pages - 1]) {
      expect(ids(await list(admin, `${q}&page=${p}`))).toEqual(all.slice((p - 1) * 24, p * 24));
    }
    // Past the end: empty, with the total.
    const beyond = await list(admin, `${q}&page=${pages + 3}`);
    expect(beyond.risks).toEqual([]);
    expect(beyond.total).toBe(total);
  });

  it('refuses a cursor that is not a row id', async () => {
    const r = await admin.get('/api/risks?after=abc');
    expect(r.status).toBe(400);
    expect(r.body.message).toBe("'after' must be the id of a risk row");
  });

  it('GraphQL gives the cursors of the page and seeks with them', async () => {
    const query = `query($after: String, $page: Int) { riskQueue(filter: { system: "Workday" }, page: $page, first: 24, after: $after) {
      totalCount pageNumber pageInfo { startCursor endCursor } edges { node { userId } } } }`;
    const one = (await admin.gql(query, { page: 1 })).body.data.riskQueue;
    expect(one.edges).toHaveLength(24);
    const two = (await admin.gql(query, { after: one.pageInfo.endCursor })).body.data.riskQueue;
    expect(two.pageNumber).toBe(2);
    expect(two.edges.length).toBe(Math.min(24, one.totalCount - 24));
    expect(two.pageInfo.startCursor).not.toBe(one.pageInfo.endCursor);
    expect(two.edges.map((e: { node: { userId: string } }) => e.node.userId)).not.toContain(one.edges[23].node.userId);
  });
});

describe('totals', () => {
  it('are exact after rows are added or removed, for administrators and for a reviewer', async () => {
    const rev = await userClient(server, admin);
    expect((await admin.post('/api/assignment-criteria', { reviewerId: rev.user.id, criteriaType: 'user_group', criteriaValue: 'ODD' })).status).toBe(201);
    const before = await list(admin, 'system=Workday');
    const unfiltered = await list(admin, '');
    const assigned = (await rev.client.get('/api/assigned-risks?limit=24')).body;
    // Cached now; add rows that match all three.
    await seedRows(server.app.deps.prisma, [
      { userId: 'T1', accessRiskId: 'PRX', system: 'Workday', userGroup: 'ODD' },
      { userId: 'T2', accessRiskId: 'PRX', system: 'Workday', userGroup: 'ODD' },
    ]);
    expect((await list(admin, 'system=Workday')).total).toBe(before.total + 2);
    expect((await list(admin, '')).total).toBe(unfiltered.total + 2);
    const after = (await rev.client.get('/api/assigned-risks?limit=24')).body;
    expect(after.total).toBe(assigned.total + 2);
    expect(after.totalAssigned).toBe(assigned.totalAssigned + 2);
    // A new assignment changes the reviewer's totals at once.
    await admin.post('/api/assignment-criteria', { reviewerId: rev.user.id, criteriaType: 'user_id', criteriaValue: 'P0002' });
    expect((await rev.client.get('/api/assigned-risks?limit=24')).body.totalAssigned).toBe(after.totalAssigned + 1);
    // Rows removed: the totals follow.
    await server.app.deps.prisma.riskRow.deleteMany({ where: { userId: { in: ['T1', 'T2'] } } });
    expect((await list(admin, 'system=Workday')).total).toBe(before.total);
    expect((await list(admin, '')).total).toBe(unfiltered.total);
  });
  it('stay cached while a file loads: its rows change nothing until the upload goes live', async () => {
    const prisma = server.app.deps.prisma;
    const before = await list(admin, 'system=Workday');
    const v0 = await dataVersion(prisma);
    const up = await prisma.upload.create({ data: { originalName: 'loading.csv', fileName: 'loading.csv', status: 'processing', heartbeatAt: new Date() } });
    await prisma.riskRow.createMany({
      data: [1, 2, 3].map((i) => ({ ...riskRowData({ userId: `L${i}`, accessRiskId: 'PRL', system: 'Workday' }), uploadId: up.id })),
    });
    // Rows still loading: the counts of every page stay valid (no recount per batch).
    expect(await dataVersion(prisma)).toBe(v0);
    expect((await list(admin, 'system=Workday')).total).toBe(before.total);
    // Live, as the loader makes it: counted.
    const max = await prisma.riskRow.aggregate({ where: { uploadId: up.id }, _max: { id: true } });
    await prisma.upload.update({ where: { id: up.id }, data: { live: true, status: 'completed', recordCount: 3, maxRowId: max._max.id } });
    expect((await list(admin, 'system=Workday')).total).toBe(before.total + 3);
    // Superseded, then its rows purged: the purge changes nothing visible.
    await prisma.upload.update({ where: { id: up.id }, data: { live: false } });
    expect((await list(admin, 'system=Workday')).total).toBe(before.total);
    const v1 = await dataVersion(prisma);
    await prisma.riskRow.deleteMany({ where: { uploadId: up.id } });
    expect(await dataVersion(prisma)).toBe(v1);
  });
});
