// The doors a browser opens: requests from other origins (CSRF, CORS,
// cross-site WebSocket), forwarded headers (TRUST_PROXY), sign-in throttling
// per address and per account-and-address, and the security headers and
// session cookie. Over real HTTP against real servers.
import fs from 'node:fs';
import path from 'node:path';
import WebSocket from 'ws';
import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, adminClient, startServer, userClient, type TestServer } from '../helpers/server.js';
import { ACCOUNT_ALERT_FAILURES, MAX_FAILURES_PER_IP, PAIR_FREE_FAILURES, pairDelayMs } from '../../src/auth/throttle.js';
import { loadConfig } from '../../src/config.js';
import { requestFacts, trustFunction } from '../../src/web-security.js';
import type { IncomingMessage } from 'node:http';

let server: TestServer; // defaults: no proxy trusted, no CORS origin
let proxied: TestServer; // TRUST_PROXY=loopback, CORS_ORIGINS=partner
let admin: Client;
let proxiedAdmin: Client;
let webDist: string;
const PARTNER = 'http://partner.example:8080';

beforeAll(async () => {
  webDist = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'grc-web-'));
  fs.writeFileSync(
    path.join(webDist, 'index.html'),
    '<!doctype html><meta name="csp-nonce" content="__CSP_NONCE__"><title>GRC Risk Management</title><div id="root"></div>',
  );
  fs.mkdirSync(path.join(webDist, 'assets'));
  fs.writeFileSync(path.join(webDist, 'assets', 'app.js'), 'console.log(1)');
  [server, proxied] = await Promise.all([
    startServer({ WEB_DIST: webDist }),
    startServer({ TRUST_PROXY: 'loopback', CORS_ORIGINS: `${PARTNER}, https://other.example` }),
  ]);
  admin = await adminClient(server);
  proxiedAdmin = await adminClient(proxied);
}, 120_000);
afterAll(async () => {
  await server?.close();
  await proxied?.close();
  fs.rmSync(webDist, { recursive: true, force: true });
});

/** A page on another port of the same host: same-site, so Lax cookies go with it. */
const foreignOrigin = () => `http://127.0.0.1:${Number(new URL(server.url).port) + 1}`;

const SEND = `mutation SendN($input: SendNotificationInput!) {
  sendNotification(input: $input) { __typename ... on MutationSendNotificationSuccess { data { id } } }
}`;
const sendVars = (title: string) => ({ input: { title, message: 'hello', targetType: 'ALL', type: 'GENERAL' } });

async function notificationCount(s: TestServer, title: string) {
  return s.app.deps.prisma.notification.count({ where: { title } });
}

function multipartGraphQL(title: string) {
  const form = new FormData();
  form.append('operations', JSON.stringify({ query: SEND, variables: sendVars(title) }));
  form.append('map', '{}');
  return form;
}

function csvForm() {
  const form = new FormData();
  form.append('file', new Blob(['User ID,Access Risk ID,Role/Profile,System\r\nU1,R1,ROLE,SYS\r\n']), 'a.csv');
  return form;
}

async function send(s: TestServer, c: Client, method: string, url: string, body: BodyInit | undefined, headers: Record<string, string>) {
  const res = await fetch(s.url + url, { method, body, headers: { cookie: c.cookieHeader, ...headers } });
  const text = await res.text();
  let json: any = text;
  try {
    json = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, body: json, headers: res.headers };
}

/** Opens a graphql-ws socket with these headers; resolves 'open' or the refusal's status. */
function upgrade(s: TestServer, headers: Record<string, string>): Promise<number | 'open' | 'error'> {
  return new Promise((resolve) => {
    const ws = new WebSocket(s.url.replace('http', 'ws') + '/graphql', 'graphql-transport-ws', { headers });
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.on('open', () => {
      ws.close();
      resolve('open');
    });
    ws.on('error', () => resolve('error'));
  });
}

describe('configuration', () => {
  it('TRUST_PROXY and CORS_ORIGINS are parsed once, and a bad value names the variable', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({}).corsOrigins).toEqual([]);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8' }).trustProxy).toEqual(['loopback', '10.0.0.0/8']);
    expect(() => loadConfig({ TRUST_PROXY: 'the proxy' })).toThrow(/TRUST_PROXY/);
    expect(loadConfig({ CORS_ORIGINS: 'https://a.example, http://b.example:8080/' }).corsOrigins).toEqual(['https://a.example', 'http://b.example:8080']);
    expect(() => loadConfig({ CORS_ORIGINS: 'https://a.example/path' })).toThrow(/CORS_ORIGINS/);
    expect(() => loadConfig({ CORS_ORIGINS: '*' })).toThrow(/CORS_ORIGINS/);
  });

  it('forwarded headers by trust: none, a hop count, addresses', () => {
    const req = (peer: string, xff: string) =>
      ({
        socket: { remoteAddress: peer },
        connection: { remoteAddress: peer },
        headers: { 'x-forwarded-for': xff, 'x-forwarded-proto': 'https', 'x-forwarded-host': 'grc.example.com' },
      }) as unknown as IncomingMessage;
    const r = req('10.0.0.5', '203.0.113.1, 198.51.100.2');
    expect(requestFacts(r, trustFunction(false))).toEqual({ ip: '10.0.0.5', host: '', protocol: 'http' });
    expect(requestFacts(r, trustFunction(1))).toEqual({ ip: '198.51.100.2', host: 'grc.example.com', protocol: 'https' });
    expect(requestFacts(r, trustFunction(2)).ip).toBe('203.0.113.1');
    expect(requestFacts(r, trustFunction(['10.0.0.0/8'])).ip).toBe('198.51.100.2');
    expect(requestFacts(r, trustFunction(['192.168.0.0/16']))).toEqual({ ip: '10.0.0.5', host: '', protocol: 'http' });
  });

  it('the wait of an address on an account grows after the free failures, up to a cap', () => {
    expect(pairDelayMs(PAIR_FREE_FAILURES - 1)).toBe(0);
    expect(pairDelayMs(PAIR_FREE_FAILURES)).toBe(60_000);
    expect(pairDelayMs(PAIR_FREE_FAILURES + 1)).toBe(120_000);
    expect(pairDelayMs(PAIR_FREE_FAILURES + 2)).toBe(240_000);
    expect(pairDelayMs(PAIR_FREE_FAILURES + 20)).toBe(15 * 60_000);
  });
});

describe('requests from another origin carrying the session cookie', () => {
  it('are refused with 403 and write nothing: JSON and multipart /graphql, REST POST/PUT/DELETE, multipart /api/upload, WebSocket', async () => {
    const origin = { origin: foreignOrigin() };
    const json = { 'content-type': 'application/json' };

    const g = await send(server, admin, 'POST', '/graphql', JSON.stringify({ query: SEND, variables: sendVars('csrf-json') }), { ...json, ...origin });
    expect(g.status).toBe(403);
    expect(g.body.message).toMatch(/Cross-origin request refused/);

    const m = await send(server, admin, 'POST', '/graphql', multipartGraphQL('csrf-multipart'), { ...origin, 'x-graphql-yoga-csrf': '1' });
    expect(m.status).toBe(403);
    // The urlencoded form Yoga would also parse: what an HTML form posts.
    const form = new URLSearchParams({
      query: `mutation { sendNotification(input: { title: "csrf-form", message: "x", targetType: ALL, type: GENERAL }) { __typename ... on MutationSendNotificationSuccess { data { id } } } }`,
    });
    const f = await send(server, admin, 'POST', '/graphql', form, origin);
    expect(f.status).toBe(403);
    expect(await notificationCount(server, 'csrf-json')).toBe(0);
    expect(await notificationCount(server, 'csrf-multipart')).toBe(0);
    expect(await notificationCount(server, 'csrf-form')).toBe(0);

    const email = 'csrf-created@example.com';
    const p = await send(server, admin, 'POST', '/api/users', JSON.stringify({ email, firstName: 'C', lastName: 'S', role: 'admin', password: 'Start#123' }), {
      ...json,
      ...origin,
    });
    expect(p.status).toBe(403);
    expect(p.body).toEqual({ message: expect.stringMatching(/Cross-origin request refused/), code: 'FORBIDDEN' });
    expect(await server.app.deps.prisma.user.count({ where: { email } })).toBe(0);

    const victim = await userClient(server, admin);
    const put = await send(server, admin, 'PUT', `/api/users/${victim.user.id}/deactivate`, '{}', { ...json, ...origin });
    expect(put.status).toBe(403);
    expect((await server.app.deps.prisma.user.findUniqueOrThrow({ where: { id: victim.user.id } })).isActive).toBe(true);

    const sent = await admin.post('/api/notifications', { title: 'keep-me', message: 'x', targetType: 'all' });
    expect(sent.status).toBe(201);
    const del = await send(server, admin, 'DELETE', `/api/notifications/${sent.body.id}`, undefined, origin);
    expect(del.status).toBe(403);
    expect(await notificationCount(server, 'keep-me')).toBe(1);

    const uploadsBefore = await server.app.deps.prisma.upload.count();
    const u = await send(server, admin, 'POST', '/api/upload', csvForm(), origin);
    expect(u.status).toBe(403);
    expect(await server.app.deps.prisma.upload.count()).toBe(uploadsBefore);

    expect(await upgrade(server, { cookie: admin.cookieHeader, ...origin })).toBe(403);
    // 'null' (sandboxed frames, data: pages) is another origin too.
    expect(await upgrade(server, { cookie: admin.cookieHeader, origin: 'null' })).toBe(403);
    // Without Origin, Sec-Fetch-Site tells a browser's cross-site request.
    const s = await send(server, admin, 'POST', '/api/users', JSON.stringify({ email, firstName: 'C', lastName: 'S', role: 'admin', password: 'Start#123' }), {
      ...json,
      'sec-fetch-site': 'same-site',
    });
    expect(s.status).toBe(403);
    expect(await server.app.deps.prisma.user.count({ where: { email } })).toBe(0);
  }, 120_000);

  it("succeed from the app's own origin", async () => {
    const origin = { origin: server.url };
    const json = { 'content-type': 'application/json' };
    const g = await send(server, admin, 'POST', '/graphql', JSON.stringify({ query: SEND, variables: sendVars('own-json') }), { ...json, ...origin });
    expect(g.status).toBe(200);
    expect(g.body.data?.sendNotification.__typename, JSON.stringify(g.body)).toBe('MutationSendNotificationSuccess');
    const m = await send(server, admin, 'POST', '/graphql', multipartGraphQL('own-multipart'), { ...origin, 'x-graphql-yoga-csrf': '1' });
    expect(m.status).toBe(200);
    expect(await notificationCount(server, 'own-json')).toBe(1);
    expect(await notificationCount(server, 'own-multipart')).toBe(1);

    const email = 'own-origin@example.com';
    const p = await send(
      server,
      admin,
      'POST',
      '/api/users',
      JSON.stringify({ email, firstName: 'O', lastName: 'O', role: 'reviewer', password: 'Start#123' }),
      {
        ...json,
        ...origin,
        'sec-fetch-site': 'same-origin',
      },
    );
    expect(p.status).toBe(201);
    const put = await send(server, admin, 'PUT', `/api/users/${p.body.user.id}/deactivate`, '{}', { ...json, ...origin });
    expect(put.status).toBe(200);
    const sent = await admin.post('/api/notifications', { title: 'delete-me', message: 'x', targetType: 'all' });
    const del = await send(server, admin, 'DELETE', `/api/notifications/${sent.body.id}`, undefined, origin);
    expect(del.status).toBe(200);
    expect(await notificationCount(server, 'delete-me')).toBe(0);
    const u = await send(server, admin, 'POST', '/api/upload', csvForm(), origin);
    expect(u.status).toBe(202);
    expect(await upgrade(server, { cookie: admin.cookieHeader, ...origin })).toBe('open');
  }, 120_000);

  it('a multipart or form-encoded GraphQL request needs a header no HTML form can send, even without Origin', async () => {
    const m = await send(server, admin, 'POST', '/graphql', multipartGraphQL('no-header'), {});
    expect(m.status).toBe(403);
    expect(m.body.message).toMatch(/x-graphql-yoga-csrf/);
    const form = new URLSearchParams({
      query: `mutation { sendNotification(input: { title: "no-header", message: "x", targetType: ALL, type: GENERAL }) { __typename ... on MutationSendNotificationSuccess { data { id } } } }`,
    });
    expect((await send(server, admin, 'POST', '/graphql', form, {})).status).toBe(403);
    expect(await notificationCount(server, 'no-header')).toBe(0);
  });

  it('a GraphQL GET does not run mutations', async () => {
    const q = encodeURIComponent(
      `mutation { sendNotification(input: { title: "via-get", message: "x", targetType: ALL, type: GENERAL }) { __typename ... on MutationSendNotificationSuccess { data { id } } } }`,
    );
    const r = await send(server, admin, 'GET', `/graphql?query=${q}`, undefined, { accept: 'application/json' });
    expect(r.status).toBe(405);
    expect(await notificationCount(server, 'via-get')).toBe(0);
  });

  it('Bearer tokens without cookies are not forgeable by a page and pass from anywhere', async () => {
    const created = await admin.gql(
      `mutation { createApiToken(name: "cross-origin tool", scope: FULL) { ... on MutationCreateApiTokenSuccess { data { token } } } }`,
    );
    const token = created.body.data.createApiToken.data.token as string;
    const res = await fetch(server.url + '/graphql', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', origin: foreignOrigin() },
      body: JSON.stringify({ query: SEND, variables: sendVars('bearer') }),
    });
    expect(res.status).toBe(200);
    expect(await notificationCount(server, 'bearer')).toBe(1);
  });

  it('preflights from an origin not in CORS_ORIGINS get no Access-Control-Allow-* (nor do their requests)', async () => {
    for (const url of ['/graphql', '/api/users']) {
      const r = await fetch(server.url + url, {
        method: 'OPTIONS',
        headers: { origin: foreignOrigin(), 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      });
      const allow = [...r.headers.keys()].filter((k) => k.startsWith('access-control-allow'));
      expect(allow, url).toEqual([]);
    }
    const g = await send(server, admin, 'POST', '/graphql', JSON.stringify({ query: '{ viewer { id } }' }), {
      'content-type': 'application/json',
      origin: foreignOrigin(),
    });
    expect([...g.headers.keys()].filter((k) => k.startsWith('access-control-allow'))).toEqual([]);
  });
});

describe('CORS_ORIGINS', () => {
  it('lets the listed origins call with credentials, and only those', async () => {
    const pre = await fetch(proxied.url + '/graphql', {
      method: 'OPTIONS',
      headers: { origin: PARTNER, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe(PARTNER);
    expect(pre.headers.get('access-control-allow-credentials')).toBe('true');
    const g = await send(proxied, proxiedAdmin, 'POST', '/graphql', JSON.stringify({ query: SEND, variables: sendVars('partner') }), {
      'content-type': 'application/json',
      origin: PARTNER,
    });
    expect(g.status).toBe(200);
    expect(g.headers.get('access-control-allow-origin')).toBe(PARTNER);
    expect(await notificationCount(proxied, 'partner')).toBe(1);
    const p = await send(proxied, proxiedAdmin, 'POST', '/api/notifications', JSON.stringify({ title: 'partner-rest', message: 'x' }), {
      'content-type': 'application/json',
      origin: PARTNER,
    });
    expect(p.status).toBe(201);
    expect(await upgrade(proxied, { cookie: proxiedAdmin.cookieHeader, origin: PARTNER })).toBe('open');
    const other = await send(proxied, proxiedAdmin, 'POST', '/api/notifications', JSON.stringify({ title: 'not-partner', message: 'x' }), {
      'content-type': 'application/json',
      origin: 'http://partner.example:8081',
    });
    expect(other.status).toBe(403);
    expect(await notificationCount(proxied, 'not-partner')).toBe(0);
  });
});

describe('forwarded headers (TRUST_PROXY)', () => {
  it("a trusted proxy's forwarded host and scheme make the app's own origin", async () => {
    const body = JSON.stringify({ query: SEND, variables: sendVars('via-proxy') });
    const headers = {
      'content-type': 'application/json',
      origin: 'https://grc.example.com',
      'x-forwarded-host': 'grc.example.com',
      'x-forwarded-proto': 'https',
    };
    expect((await send(proxied, proxiedAdmin, 'POST', '/graphql', body, headers)).status).toBe(200);
    expect(await notificationCount(proxied, 'via-proxy')).toBe(1);
    // Unset, the same headers are anyone's: refused.
    expect((await send(server, admin, 'POST', '/graphql', body, headers)).status).toBe(403);
    expect(await notificationCount(server, 'via-proxy')).toBe(0);
  });

  it('are believed from a trusted proxy: the audit trail records the forwarded address', async () => {
    const { email, password } = await userClient(proxied, proxiedAdmin);
    const c = new Client(proxied.url);
    const r = await c.request('POST', '/api/internal-login', { email, password }, { 'x-forwarded-for': '198.51.100.7' });
    expect(r.status).toBe(200);
    const event = await proxied.app.deps.prisma.auditEvent.findFirstOrThrow({
      where: { action: 'user.login', entityId: r.body.user.id },
      orderBy: { occurredAt: 'desc' },
    });
    expect(event.ip).toBe('198.51.100.7');
  });

  it('are not believed when TRUST_PROXY is unset: the audit trail records the real address', async () => {
    const { email, password, user } = await userClient(server, admin);
    const c = new Client(server.url);
    const r = await c.request('POST', '/api/internal-login', { email, password }, { 'x-forwarded-for': '203.0.113.9' });
    expect(r.status).toBe(200);
    const event = await server.app.deps.prisma.auditEvent.findFirstOrThrow({
      where: { action: 'user.login', entityId: user.id },
      orderBy: { occurredAt: 'desc' },
    });
    expect(event.ip).not.toBe('203.0.113.9');
    expect(event.ip).toMatch(/127\.0\.0\.1$/);
  });
});

describe('the WebSocket context', () => {
  /** Runs a mutation over graphql-ws (as any operation may be) with these upgrade headers. */
  async function mutateOverWs(s: TestServer, c: Client, title: string, headers: Record<string, string>) {
    const ws = createClient({
      url: s.url.replace('http', 'ws') + '/graphql',
      lazy: false,
      retryAttempts: 0,
      webSocketImpl: class extends WebSocket {
        constructor(address: string, protocols?: string | string[]) {
          super(address, protocols, { headers: { cookie: c.cookieHeader, ...headers } });
        }
      },
    });
    try {
      const result = await new Promise<any>((resolve, reject) => {
        let value: unknown;
        ws.subscribe({ query: SEND, variables: sendVars(title) }, { next: (v) => (value = v), error: reject, complete: () => resolve(value) });
      });
      expect(result.data.sendNotification.__typename).toBe('MutationSendNotificationSuccess');
    } finally {
      await ws.dispose();
    }
    const n = await s.app.deps.prisma.notification.findFirstOrThrow({ where: { title } });
    return s.app.deps.prisma.auditEvent.findFirstOrThrow({ where: { action: 'notification.sent', entityId: n.id } });
  }

  it('takes the client address by the same TRUST_PROXY rule as HTTP', async () => {
    expect((await mutateOverWs(proxied, proxiedAdmin, 'ws-trusted', { 'x-forwarded-for': '198.51.100.23' })).ip).toBe('198.51.100.23');
    expect((await mutateOverWs(server, admin, 'ws-untrusted', { 'x-forwarded-for': '198.51.100.23' })).ip).toMatch(/127\.0\.0\.1$/);
  }, 120_000);
});

describe('sign-in throttling', () => {
  it('failures from one address slow that address down on that account, never a correct sign-in from another address', async () => {
    const { email, password } = await userClient(proxied, proxiedAdmin);
    const from = (ip: string) => ({ 'x-forwarded-for': ip });
    const attacker = new Client(proxied.url);
    for (let i = 0; i < PAIR_FREE_FAILURES; i++) {
      expect((await attacker.request('POST', '/api/internal-login', { email, password: `wrong-${i}` }, from('192.0.2.66'))).status).toBe(401);
    }
    const slowed = await attacker.request('POST', '/api/internal-login', { email, password }, from('192.0.2.66'));
    expect(slowed.status).toBe(429);
    expect(slowed.body.message).toMatch(/^Too many failed sign-in attempts\. Please try again in \d+ minutes?\.$/);
    expect(Number(slowed.headers.get('retry-after'))).toBeGreaterThan(0);
    // The owner, elsewhere, is not locked out.
    const owner = await new Client(proxied.url).request('POST', '/api/internal-login', { email, password }, from('192.0.2.10'));
    expect(owner.status).toBe(200);
  }, 120_000);

  it(`${ACCOUNT_ALERT_FAILURES} failures on one account from many addresses alert the administrators once, without locking the account`, async () => {
    const { email, password } = await userClient(proxied, proxiedAdmin);
    const title = 'Repeated failed sign-ins';
    const c = new Client(proxied.url);
    const before = await proxied.app.deps.prisma.notification.count({ where: { title } });
    for (let i = 0; i < ACCOUNT_ALERT_FAILURES + 5; i++) {
      const r = await c.request(
        'POST',
        '/api/internal-login',
        { email, password: `guess-${i}` },
        { 'x-forwarded-for': `10.9.${Math.floor(i / 250)}.${i % 250}` },
      );
      expect(r.status).toBe(401);
    }
    const alerts = await proxied.app.deps.prisma.notification.findMany({ where: { title } });
    expect(alerts.length - before).toBe(1);
    const adminUser = await proxied.app.deps.prisma.user.findFirstOrThrow({ where: { role: 'admin' } });
    expect(alerts.at(-1)).toMatchObject({ targetType: 'specific', targetUserId: adminUser.id, type: 'warning' });
    expect(alerts.at(-1)!.message).toContain(email);
    const inbox = await proxiedAdmin.get('/api/notifications');
    expect(JSON.stringify(inbox.body)).toContain(title);
    // The account is not locked.
    expect((await c.request('POST', '/api/internal-login', { email, password }, { 'x-forwarded-for': '10.9.9.9' })).status).toBe(200);
  }, 300_000);
});

describe('security headers and the session cookie', () => {
  const common = (h: Headers, what: string) => {
    const csp = h.get('content-security-policy') ?? '';
    expect(csp, what).toContain("script-src 'self';");
    expect(csp, what).toContain("frame-ancestors 'none'");
    expect(csp, what).toContain("object-src 'none'");
    expect(csp, what).not.toMatch(/https?:\/\//);
    expect(h.get('x-content-type-options'), what).toBe('nosniff');
    expect(h.get('x-frame-options'), what).toBe('DENY');
    expect(h.get('referrer-policy'), what).toBe('strict-origin-when-cross-origin');
    return csp;
  };

  it('on the HTML page (with its nonce), an API answer, a static asset and /graphql; no HSTS over plain http', async () => {
    const c = new Client(server.url);
    const page = await c.request('GET', '/', undefined, { accept: 'text/html' });
    const csp = common(page.headers, '/');
    const nonce = /style-src 'self' 'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(csp).not.toContain('unsafe-inline');
    expect(String(page.body)).toContain(`<meta name="csp-nonce" content="${nonce}">`);
    expect(page.headers.get('cache-control')).toBe('no-cache');
    // Another response, another nonce; index.html by name is the same page.
    const again = await c.request('GET', '/index.html', undefined, { accept: 'text/html' });
    const nonce2 = /'nonce-([^']+)'/.exec(again.headers.get('content-security-policy') ?? '')?.[1];
    expect(nonce2).toBeTruthy();
    expect(nonce2).not.toBe(nonce);
    expect(String(again.body)).toContain(`content="${nonce2}"`);

    common((await c.get('/api/openapi.json')).headers, '/api/openapi.json');
    common((await c.get('/assets/app.js')).headers, '/assets/app.js');
    common((await c.gql('{ __typename }')).headers, 'POST /graphql');
    for (const r of [page, again]) expect(r.headers.get('strict-transport-security')).toBeNull();
  });

  it('GraphiQL comes from the app: no CDN, no inline script', async () => {
    const r = await admin.request('GET', '/graphql', undefined, { accept: 'text/html' });
    expect(r.status).toBe(200);
    const csp = common(r.headers, 'GraphiQL');
    expect(csp).not.toContain("'unsafe-eval'");
    const html = String(r.body);
    expect(html).not.toMatch(/unpkg|jsdelivr|cdn|https?:\/\//);
    // Every script is a local file or JSON data, none runs inline.
    const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    for (const [, attrs, body] of scripts) {
      if (/type="application\/json"/.test(attrs!)) continue;
      expect(attrs).toMatch(/src="\/graphiql\//);
      expect(body!.trim()).toBe('');
    }
    for (const asset of [
      '/graphiql/env.js',
      '/graphiql/graphiql.js',
      '/graphiql/start.js',
      '/graphiql/graphiql.css',
      '/graphiql/workers/editorWorkerService.js',
    ]) {
      const a = await fetch(server.url + asset);
      expect(a.status, asset).toBe(200);
      await a.arrayBuffer();
    }
  });

  it('the session cookie: HttpOnly, SameSite=Lax, not Secure over plain http', async () => {
    const res = await fetch(server.url + '/api/internal-login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@example.com', password: 'Admin#Pass2' }),
    });
    expect(res.status).toBe(200);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('grc_session='))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).not.toMatch(/Secure/i);
  });

  it('over TLS (a trusted proxy says https): Secure, named __Host-, with HSTS; either name signs in', async () => {
    const tls = { 'x-forwarded-proto': 'https' };
    const res = await fetch(proxied.url + '/api/internal-login', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...tls },
      body: JSON.stringify({ email: 'admin@example.com', password: 'Admin#Pass2' }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('strict-transport-security')).toBe('max-age=31536000');
    const cookies = res.headers.getSetCookie();
    expect(cookies.some((c) => c.startsWith('grc_session='))).toBe(false);
    const cookie = cookies.find((c) => c.startsWith('__Host-grc_session='))!;
    expect(cookie).toBeTruthy();
    expect(cookie).toMatch(/; Secure/i);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/Path=\/(;|$)/);
    expect(cookie).not.toMatch(/Domain=/i);
    const token = cookie.split(';')[0]!.split('=').slice(1).join('=');
    const c = new Client(proxied.url);
    c.cookies.set('__Host-grc_session', token);
    expect((await c.request('GET', '/api/users', undefined, tls)).status).toBe(200);
    // The same proxy without https: no HSTS.
    expect((await c.get('/api/users')).headers.get('strict-transport-security')).toBeNull();
  });

  it('COOKIE_SECURE=true makes it Secure even over plain http', async () => {
    const s = await startServer({ COOKIE_SECURE: 'true' });
    try {
      const c = await adminClient(s);
      expect(c.cookies.has('__Host-grc_session')).toBe(true);
      expect((await c.get('/api/users')).status).toBe(200);
    } finally {
      await s.close();
    }
  }, 180_000);
});

// Last: it locks this test's address out of the default server for 15 minutes.
describe('the per-address limit', () => {
  it('with TRUST_PROXY unset, rotating X-Forwarded-For does not escape the per-address limit', async () => {
    const c = new Client(server.url);
    let throttledAt = -1;
    for (let i = 0; i < MAX_FAILURES_PER_IP + 2; i++) {
      const r = await c.request(
        'POST',
        '/api/internal-login',
        { email: `nobody-${i}@example.com`, password: 'guess-1' },
        { 'x-forwarded-for': `203.0.113.${i}` },
      );
      if (r.status === 429) {
        throttledAt = i;
        break;
      }
      expect(r.status).toBe(401);
    }
    // The administrator's first sign-in here tried the changed password once: one failure already counted.
    expect(throttledAt).toBeGreaterThan(0);
    expect(throttledAt).toBeLessThanOrEqual(MAX_FAILURES_PER_IP);
  }, 300_000);
});
