// Two instances on one PostgreSQL database with Redis between them: an event
// published on one reaches a subscriber connected to the other. Runs when
// DATABASE_URL and REDIS_URL are set (CI sets both for the PostgreSQL run).
import { wsClient } from '../helpers/ws.js';
import { afterAll, describe, expect, it } from 'vitest';
import { adminClient, startServer, userClient, type TestServer } from '../helpers/server.js';

const enabled = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);
const servers: TestServer[] = [];
afterAll(async () => {
  for (const s of servers.reverse()) await s.close();
});

describe.runIf(enabled)('scale-out over Redis', () => {
  it('delivers a subscription event published on instance A to a browser connected to instance B', async () => {
    const a = await startServer({ REDIS_URL: process.env.REDIS_URL! });
    servers.push(a);
    const b = await startServer({ REDIS_URL: process.env.REDIS_URL! }, { sameDatabaseAs: a });
    servers.push(b);
    const admin = await adminClient(a);
    const { client, user } = await userClient(a, admin);
    const ws = wsClient(b.url, client.cookieHeader);
    const got = new Promise<unknown>((resolve, reject) =>
      ws.subscribe({ query: 'subscription { viewerSessionEnded }' }, { next: resolve, error: reject, complete: () => {} }),
    );
    await new Promise((r) => setTimeout(r, 500));
    expect((await admin.put(`/api/users/${user.id}/deactivate`)).status).toBe(200);
    expect(await got).toEqual({ data: { viewerSessionEnded: 'deactivated' } });
    await ws.dispose();
  });
});
