// All Reviews searched: the total comes from the counts
// kept per item for what the search matches by user or role, plus counted
// decisions for the rest (a user name its user id does not always carry, a
// matching reviewer on rows that do not match). Whatever the split, the set
// and the total are the search's rule itself: user id, user name or role of
// the row, or the reviewer's name or e-mail, contains the text.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Prisma } from '../../src/generated/prisma/client.js';
import { Client, adminClient, startServer, userClient, type TestServer } from '../helpers/server.js';
import { seedRows } from '../helpers/seed.js';
import { decideRow, line, load } from '../helpers/items.js';

let server: TestServer;
let admin: Client;
type U = Awaited<ReturnType<typeof userClient>>;
let a: U;
let b: U;
let c: U;
let rows: bigint[];
const statements: string[] = [];

const decide = (u: U, id: bigint, decision: string) => decideRow(u, id, decision);

beforeAll(async () => {
  server = await startServer({}, { onQuery: (sql) => void statements.push(sql) });
  admin = await adminClient(server);
  a = await userClient(server, admin);
  b = await userClient(server, admin);
  c = await userClient(server, admin);
  const prisma = server.app.deps.prisma;
  // A reviewer whose name matches what the rows are searched by.
  await prisma.user.update({ where: { id: a.user.id }, data: { firstName: 'Maria', lastName: 'Martin' } });
  // Reviewers searched by name (as the bench's 'Rev 3' finds rev3 and rev30…39).
  await prisma.user.update({ where: { id: b.user.id }, data: { firstName: 'Rev', lastName: 'Three' } });
  await prisma.user.update({ where: { id: c.user.id }, data: { firstName: 'Rev', lastName: 'Thirty' } });
  rows = await seedRows(prisma, [
    { userId: 'U1', userName: 'Karin Martin', accessRiskId: 'R01', roleProfile: 'Z_AP' },
    { userId: 'U1', userName: 'Karin Martin', accessRiskId: 'R02', roleProfile: 'Z_AP' },
    // One user id, two names: only the row with the matching name matches.
    { userId: 'U2', userName: 'Dana Martin', accessRiskId: 'R01', roleProfile: 'Z_GL' },
    { userId: 'U2', userName: 'Dana Smith', accessRiskId: 'R02', roleProfile: 'Z_GL' },
    { userId: 'U3', userName: 'Bob Stone', accessRiskId: 'R01', roleProfile: 'Z_MARTINI' },
    { userId: 'U4', userName: 'Eve Young', accessRiskId: 'R01', roleProfile: 'Z_HR' },
    { userId: 'MARTIN01', userName: 'Service account', accessRiskId: 'R01', roleProfile: 'Z_SVC' },
    { userId: 'U6', userName: 'Ann Lee', accessRiskId: 'R01', roleProfile: 'Z_X', system: 'Workday' },
  ]);
  for (const u of [a, b, c]) {
    expect((await admin.post('/api/assignment-criteria', { reviewerId: u.user.id, criteriaType: 'system', criteriaValue: 'SAP ERP' })).status).toBe(201);
  }
  expect((await admin.post('/api/assignment-criteria', { reviewerId: b.user.id, criteriaType: 'system', criteriaValue: 'Workday' })).status).toBe(201);
  expect((await admin.post('/api/review-periods', { name: 'Search' })).status).toBe(201);
  await decide(a, rows[3]!, 'remove'); // Dana Smith's row, by Maria Martin
  await decide(a, rows[5]!, 'retain'); // Eve Young, by Maria Martin
  await decide(a, rows[2]!, 'retain'); // Dana Martin, by Maria Martin: matched by the row's name and by the reviewer's
  await decide(c, rows[0]!, 'remove'); // Karin Martin, by Rev Thirty
  await decide(c, rows[4]!, 'retain'); // Bob Stone (role Z_MARTINI), by Rev Thirty
  for (const [i, d] of [
    [0, 'retain'],
    [1, 'remove'],
    [2, 'remove'],
    [3, 'retain'],
    [4, 'retain'],
    [6, 'remove'],
    [7, 'retain'],
  ] as const) {
    await decide(b, rows[i]!, d);
  }
});
afterAll(async () => server?.close());

/** The rule itself, as SQL over every decision (an administrator sees every live row). */
async function byTheRule(search: string, decision: string | null, shared: string | null): Promise<string[]> {
  const like = `%${search.replace(/[\\%_]/g, (c) => '\\' + c)}%`;
  const rows = await server.app.deps.prisma.$queryRaw<{ id: string }[]>`
    SELECT d.id::text AS id FROM decisions d JOIN risk_rows r ON r.id = d.risk_row_id JOIN users u ON u.id = d.reviewer_id
      LEFT JOIN shared_items si ON si.period_id = d.period_id AND si.user_id = r.user_id AND si.role_profile = r.role_profile
     WHERE (r.user_id ILIKE ${like} OR r.user_name ILIKE ${like} OR r.role_profile ILIKE ${like}
            OR coalesce(nullif(trim(u.first_name || ' ' || u.last_name), ''), u.email) ILIKE ${like} OR u.email ILIKE ${like})
       ${decision === 'remove' ? Prisma.sql`AND d.decision = 'remove'` : decision === 'retain' ? Prisma.sql`AND d.decision <> 'remove'` : Prisma.empty}
       ${shared === 'shared' ? Prisma.sql`AND coalesce(si.shared, false)` : shared === 'unique' ? Prisma.sql`AND NOT coalesce(si.shared, false)` : Prisma.empty}`;
  return rows.map((r) => r.id).sort();
}

/** Every search and filter combination: the listed set and the total are the rule's. */
async function expectEveryCombinationByTheRule(atLeast = 30) {
  let nonEmpty = 0;
  for (const search of [
    'martin',
    'Smith',
    'dana',
    'z_',
    'MARTIN01',
    'maria',
    a.email.slice(0, 12),
    'reviewer',
    'nobody',
    'rev',
    'Rev T',
    'thirty',
    'rev three',
    'ar',
    'in',
    'e',
  ]) {
    for (const decision of [null, 'retain', 'remove']) {
      for (const shared of [null, 'shared', 'unique']) {
        const qs = new URLSearchParams({ search, limit: '500', ...(decision ? { decision } : {}), ...(shared ? { shared } : {}) });
        const r = await admin.get(`/api/reviews/all?${qs}`);
        expect(r.status).toBe(200);
        const want = await byTheRule(search, decision, shared);
        const what = `${qs}`;
        expect(r.body.total, what).toBe(want.length);
        expect(r.body.reviews.map((x: any) => x.id).sort(), what).toEqual(want);
        if (want.length) nonEmpty++;
      }
    }
  }
  expect(nonEmpty).toBeGreaterThanOrEqual(atLeast);
}

// Each case checks every combination of filters against the rule: minutes on a busy embedded database.
describe('All Reviews searched', { timeout: 120_000 }, () => {
  it('lists and counts exactly what the search rule matches, by user, name, role or reviewer, with every filter', async () => {
    await expectEveryCombinationByTheRule();
    // 'martin' (10): Karin's two rows (b) and one (Rev Thirty), Dana Martin's row (b, and Maria Martin), the role
    // Z_MARTINI (b, Rev Thirty), the user id MARTIN01, and Maria Martin's decisions on Dana Smith and Eve Young;
    // not Ann Lee's.
    expect((await admin.get('/api/reviews/all?search=martin')).body.total).toBe(10);
    expect((await admin.get('/api/reviews/all?search=smith')).body.total).toBe(2);
    // 'Rev T': Rev Three's seven decisions and Rev Thirty's two.
    expect((await admin.get('/api/reviews/all?search=Rev%20T')).body.total).toBe(9);
  });

  it('a search that matches nothing answers from its count, without walking the decisions for a page', async () => {
    const page = () => statements.filter((q) => q.includes('WITH cut AS MATERIALIZED')).length;
    statements.length = 0;
    const none = await admin.get('/api/reviews/all?search=nobody&page=2');
    expect(none.status).toBe(200);
    expect(none.body).toMatchObject({ reviews: [], total: 0, page: 2 });
    expect(page()).toBe(0);
    const some = await admin.get('/api/reviews/all?search=smith');
    expect(some.body.total).toBe(2);
    expect(page()).toBe(1);
  });

  it('after decisions change and new ones are made (the kept counts move with them)', async () => {
    await decide(c, rows[0]!, 'retain');
    await decide(c, rows[2]!, 'remove');
    await decide(c, rows[6]!, 'remove');
    await decide(a, rows[3]!, 'retain');
    await expectEveryCombinationByTheRule();
    expect((await admin.get('/api/reviews/all?search=Rev%20T')).body.total).toBe(11);
  });

  it('after an upload replaces the data (rows and their decisions go out of use, some carried over)', async () => {
    await load(server, admin, line('U1', 'R01', 'SAP ERP', 'Z_AP') + line('U7', 'R01', 'SAP ERP', 'Z_REV'), 'replace');
    await decide(c, (await server.app.deps.prisma.$queryRawUnsafe<{ id: bigint }[]>(`SELECT id FROM risk_rows WHERE user_id = 'U7'`))[0]!.id, 'remove');
    await expectEveryCombinationByTheRule(0);
  });
});
