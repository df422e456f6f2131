// Smaller doors: the Origin check against PUBLIC_URL (a forged Host does not
// make a foreign page the app's own), a password changed only from a signed-in
// session (never with an API token), and refused sign-ins and lockouts in the
// audit trail and the period's evidence. Over real HTTP against a real server.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, adminClient, startServer, userClient, type TestServer } from '../helpers/server.js';
import { PAIR_FREE_FAILURES } from '../../src/auth/throttle.js';
import { PASSWORD_NEEDS_SESSION } from '../../src/services/identity/auth.js';
import { parseCsv } from '../helpers/csv.js';

const PUBLIC = 'https://grc.example.com';
let server: TestServer; // PUBLIC_URL set
let admin: Client;

beforeAll(async () => {
  server = await startServer({ PUBLIC_URL: `${PUBLIC}/` });
  admin = await adminClient(server);
}, 120_000);
afterAll(async () => {
  await server?.close();
});

/** A request with headers fetch will not let us write (Host). */
function raw(method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<{ status: number; body: any }> {
  const url = new URL(server.url + path);
  const data = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method,
        headers: { ...headers, ...(data ? { 'content-type': 'application/json' } : {}) },
      },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => {
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            /* not JSON */
          }
          resolve({ status: res.statusCode ?? 0, body: parsed });
        });
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

const notification = (title: string) => ({ title, message: 'hello', type: 'info', targetType: 'all' });
const count = (title: string) => server.app.deps.prisma.notification.count({ where: { title } });

describe('the Origin check with PUBLIC_URL set', () => {
  it('refuses a page whose Origin matches a forged Host header, and writes nothing', async () => {
    const r = await raw(
      'POST',
      '/api/notifications',
      { cookie: admin.cookieHeader, host: 'evil.example', origin: 'http://evil.example' },
      notification('forged host'),
    );
    expect(r.status).toBe(403);
    expect(r.body.message).toBe('Cross-origin request refused: http://evil.example may not call this application');
    expect(await count('forged host')).toBe(0);
    // GraphQL too.
    const g = await raw(
      'POST',
      '/graphql',
      { cookie: admin.cookieHeader, host: 'evil.example:8443', origin: 'https://evil.example:8443' },
      {
        query: 'mutation { markAllNotificationsRead { __typename } }',
      },
    );
    expect(g.status).toBe(403);
  });

  it("refuses the server's own address when PUBLIC_URL names another, and lets PUBLIC_URL's origin call", async () => {
    const own = await raw('POST', '/api/notifications', { cookie: admin.cookieHeader, origin: server.url }, notification('own address'));
    expect(own.status).toBe(403);
    expect(await count('own address')).toBe(0);
    const pub = await raw('POST', '/api/notifications', { cookie: admin.cookieHeader, origin: PUBLIC }, notification('public origin'));
    expect(pub.status).toBe(201);
    expect(await count('public origin')).toBe(1);
  });
});

describe('a password changes only from a signed-in session', () => {
  it('an API token, even full-scope, gets 403 on REST and GraphQL, and the password stays', async () => {
    const u = await userClient(server, admin, 'admin');
    const created = await u.client.post('/api/tokens', { name: 'tool', scope: 'full' });
    expect(created.status).toBe(201);
    const tool = new Client(server.url);
    tool.bearer = created.body.token;

    const r = await tool.put('/api/internal/change-password', { userId: u.user.id, currentPassword: u.password, newPassword: 'Taken#Over1' });
    expect(r.status).toBe(403);
    expect(r.body.message).toBe(PASSWORD_NEEDS_SESSION);
    const g = await tool.gql(`mutation($input: ChangePasswordInput!) { changePassword(input: $input) { __typename ... on Error { message } } }`, {
      input: { currentPassword: u.password, newPassword: 'Taken#Over1' },
    });
    const message = g.body.data?.changePassword?.message ?? g.body.errors?.[0]?.message;
    expect(message, JSON.stringify(g.body)).toBe(PASSWORD_NEEDS_SESSION);
    // Nor through an administrator's reset of their own account.
    const reset = await tool.put(`/api/users/${u.user.id}/reset-password`, { newPassword: 'Taken#Over1' });
    expect(reset.status).toBe(403);
    expect(reset.body.message).toBe(PASSWORD_NEEDS_SESSION);

    expect((await new Client(server.url).login(u.email, 'Taken#Over1')).status).toBe(401);
    expect((await new Client(server.url).login(u.email, u.password)).status).toBe(200);
    // The session still may.
    expect((await u.client.put('/api/internal/change-password', { currentPassword: u.password, newPassword: 'Mine#Again2' })).status).toBe(200);
  });
});

describe('refused sign-ins in the audit trail', () => {
  const events = (action: string, email: string) =>
    server.app.deps.prisma.auditEvent.findMany({ where: { action, after: { path: ['email'], equals: email } }, orderBy: { id: 'asc' } });

  it('a wrong password, an unknown user and a deactivated account, without the password tried', async () => {
    const u = await userClient(server, admin);
    expect((await new Client(server.url).login(u.email, 'Wrong#Guess1')).status).toBe(401);
    const unknown = 'nobody-here@example.com';
    expect((await new Client(server.url).login(unknown, 'Wrong#Guess2')).status).toBe(401);
    const gone = await userClient(server, admin);
    expect((await admin.put(`/api/users/${gone.user.id}/deactivate`)).status).toBe(200);
    expect((await new Client(server.url).login(gone.email, gone.password)).status).toBe(403);

    const [wrong] = await events('auth.sign_in_failed', u.email);
    expect(wrong).toMatchObject({ entityType: 'User', entityId: u.user.id, actorId: null, actorLabel: `sign-in attempt <${u.email}>` });
    expect(wrong!.after).toEqual({ email: u.email, reason: 'wrong_password', method: 'password' });
    expect(wrong!.ip).toBeTruthy();
    const [nobody] = await events('auth.sign_in_failed', unknown);
    expect(nobody).toMatchObject({ entityId: null });
    expect(nobody!.after).toMatchObject({ reason: 'unknown_user' });
    const [deactivated] = await events('auth.sign_in_failed', gone.email);
    expect(deactivated!.after).toMatchObject({ reason: 'deactivated' });
    const all = JSON.stringify(await server.app.deps.prisma.auditEvent.findMany({ where: { action: { startsWith: 'auth.' } } }), (_k, v) =>
      typeof v === 'bigint' ? String(v) : v,
    );
    expect(all).not.toContain('Wrong#Guess');
    expect(all).not.toContain(gone.password);
  });

  it(`the wait after ${PAIR_FREE_FAILURES} failures is a lockout event, and the period's evidence lists them`, async () => {
    const period = await admin.post('/api/review-periods', { name: 'Sign-in evidence' });
    expect(period.status).toBe(201);
    const u = await userClient(server, admin);
    for (let i = 0; i < PAIR_FREE_FAILURES; i++) expect((await new Client(server.url).login(u.email, `Wrong#${i}`)).status).toBe(401);
    expect((await new Client(server.url).login(u.email, u.password)).status).toBe(429);

    expect(await events('auth.sign_in_failed', u.email)).toHaveLength(PAIR_FREE_FAILURES);
    const locks = await events('auth.locked_out', u.email);
    expect(locks).toHaveLength(1);
    expect(locks[0]!.after).toMatchObject({ email: u.email, scope: 'address_and_account', failures: PAIR_FREE_FAILURES });

    const res = await fetch(`${server.url}/api/reports/evidence?periodId=${period.body.id}&format=csv`, { headers: { cookie: admin.cookieHeader } });
    expect(res.status).toBe(200);
    const text = await res.text();
    const trail = parseCsv(
      text
        .slice(text.indexOf('Audit Trail') + 'Audit Trail'.length)
        .split('\r\n\r\n')[0]!
        .trim(),
    );
    const mine = trail.filter((e) => e.Actor === `sign-in attempt <${u.email}>`);
    expect(mine.map((e) => e.Action).sort()).toEqual([...Array(PAIR_FREE_FAILURES).fill('auth.sign_in_failed'), 'auth.locked_out'].sort());
  });
});
