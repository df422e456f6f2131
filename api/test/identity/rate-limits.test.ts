// Per-user export limits shared through the database: with a limit of three a
// minute, the fourth export of a user is refused with 429 and Retry-After,
// whichever instance it reaches (two servers on one PostgreSQL database; one
// server on PGlite); another user is not affected.
import { afterAll, describe, expect, it } from 'vitest';
import { adminClient, startServer, userClient, type Client, type TestServer } from '../helpers/server.js';
import { onPostgres } from '../helpers/db.js';

const servers: TestServer[] = [];
afterAll(async () => {
  for (const s of servers.reverse()) await s.close();
});

async function exportStatus(c: Client) {
  const r = await c.get('/api/risks/export');
  return r;
}

describe('export rate limit', () => {
  it('refuses the fourth export of a user within a minute, across instances, with Retry-After', async () => {
    const env = { EXPORT_RATE_PER_MINUTE: '3' };
    const a = await startServer(env);
    servers.push(a);
    const b = onPostgres ? await startServer(env, { sameDatabaseAs: a }) : a;
    if (b !== a) servers.push(b);
    const admin = await adminClient(a);
    const { client: reviewerOnA } = await userClient(a, admin);
    // The same session used on the other instance.
    const reviewerOnB = Object.assign(Object.create(Object.getPrototypeOf(reviewerOnA)), reviewerOnA, { baseUrl: b.url }) as Client;
    // Stay inside one window.
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 50_000) await new Promise((r) => setTimeout(r, 60_500 - intoMinute));

    expect((await exportStatus(reviewerOnA)).status).toBe(200);
    expect((await exportStatus(reviewerOnB)).status).toBe(200);
    expect((await exportStatus(reviewerOnA)).status).toBe(200);
    const refused = await exportStatus(reviewerOnB);
    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(/^Too many exports: at most 3 a minute\. Try again in \d+ s\.$/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    // The administrator has their own allowance.
    expect((await admin.get('/api/reports/risk-report')).status).toBe(200);
  }, 120_000);
});

describe('AI rate limit', () => {
  it('refuses the third AI request of a user within a minute (categorise and risk profile share it), before anything is asked', async () => {
    const s = await startServer({ AI_RATE_PER_MINUTE: '2' });
    servers.push(s);
    const admin = await adminClient(s);
    const { client: reviewer } = await userClient(s, admin);
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 50_000) await new Promise((r) => setTimeout(r, 60_500 - intoMinute));

    // No key is configured and no row matches: each answer is a plain 4xx, not the limit.
    const first = await reviewer.post('/api/ai/categorize-risk', { riskId: 'R01' });
    expect(first.status).toBeGreaterThanOrEqual(400);
    expect(first.status).not.toBe(429);
    const second = await reviewer.post('/api/ai/risk-profile', { accessRiskId: 'R01', userId: 'U1' });
    expect(second.status).not.toBe(429);
    const third = await reviewer.post('/api/ai/categorize-risk', { riskId: 'R01' });
    expect(third.status).toBe(429);
    expect(third.body.message).toMatch(/^Too many AI requests: at most 2 a minute\. Try again in \d+ s\.$/);
    // Over GraphQL the same allowance is used up.
    const g = await reviewer.gql('mutation { categorizeRisk(riskId: "R01") { __typename ... on Error { message } } }');
    expect(JSON.stringify(g.body)).toMatch(/Too many AI requests/);
    // Another user has their own allowance.
    expect((await admin.post('/api/ai/categorize-risk', { riskId: 'R01' })).status).not.toBe(429);
  }, 120_000);
});
