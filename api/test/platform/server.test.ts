// The one process that serves everything: health checks, the built web app
// with SPA fallback, the REST error format, the OpenAPI document, and
// subscriptions over graphql-ws sharing the HTTP context.
import fs from 'node:fs';
import path from 'node:path';
import WebSocket from 'ws';
import { listening, wsClient as makeWsClient } from '../helpers/ws.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, adminClient, startServer, userClient, type TestServer } from '../helpers/server.js';

let server: TestServer;
let admin: Client;
let webDist: string;

beforeAll(async () => {
  webDist = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'grc-web-'));
  fs.writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>GRC Risk Management</title><div id="root"></div>');
  fs.mkdirSync(path.join(webDist, 'assets'));
  fs.writeFileSync(path.join(webDist, 'assets', 'app.js'), 'console.log(1)');
  server = await startServer({ WEB_DIST: webDist });
  admin = await adminClient(server);
});
afterAll(async () => {
  await server?.close();
  fs.rmSync(webDist, { recursive: true, force: true });
});

describe('health', () => {
  it('/healthz says the process runs and /readyz that the database answers', async () => {
    const c = new Client(server.url);
    expect((await c.get('/healthz')).body).toEqual({ status: 'ok' });
    const ready = await c.get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body.status).toBe('ready');
  });
});

describe('web app', () => {
  it('serves the built app at / and at client-side routes (SPA fallback), and its assets', async () => {
    const c = new Client(server.url);
    for (const p of ['/', '/users', '/risk-review', '/no-such-page']) {
      const r = await c.request('GET', p, undefined, { accept: 'text/html' });
      expect(r.status, p).toBe(200);
      expect(String(r.body)).toContain('<div id="root">');
    }
    const asset = await c.get('/assets/app.js');
    expect(asset.status).toBe(200);
    expect(String(asset.body)).toContain('console.log');
  });

  it('answers unknown API paths with 404 and a JSON message, not the app', async () => {
    const r = await new Client(server.url).get('/api/no-such-thing');
    expect(r.status).toBe(404);
    expect(r.body.message).toMatch(/Not found/);
  });
});

describe('REST adapter', () => {
  it('GET /api/login sends people to the internal login while external sign-in is off; /api/auth/user is 401', async () => {
    const c = new Client(server.url);
    const r = await c.get('/api/login');
    expect(r.status).toBe(302);
    expect(r.headers.get('location')).toBe('/internal-login');
    const u = await c.get('/api/auth/user');
    expect(u.status).toBe(401);
    expect(typeof u.body.message).toBe('string');
  });

  it('publishes an OpenAPI document listing every route with who may call it', async () => {
    const r = await new Client(server.url).get('/api/openapi.json');
    expect(r.status).toBe(200);
    expect(r.body.openapi).toMatch(/^3\./);
    for (const [p, m] of [
      ['/api/internal-login', 'post'],
      ['/api/internal/change-password', 'put'],
      ['/api/auth/user', 'get'],
      ['/api/login', 'get'],
      ['/api/logout', 'post'],
      ['/api/users', 'get'],
      ['/api/users', 'post'],
      ['/api/users/{id}/deactivate', 'put'],
      ['/api/users/{id}/activate', 'put'],
    ]) {
      expect(r.body.paths[p!]?.[m!], `${m} ${p}`).toBeTruthy();
    }
    expect(r.body.paths['/api/users'].get.description).toBe('Administrators only.');
  });

  it('rejects a malformed JSON body with 400 and a message', async () => {
    const res = await fetch(server.url + '/api/internal-login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"email": ',
    });
    expect(res.status).toBe(400);
    expect(typeof (await res.json()).message).toBe('string');
  });
});

const wsClient = (cookie: string) => makeWsClient(server.url, cookie);

describe('subscriptions over graphql-ws', () => {
  it("use the same session as HTTP: a reviewer's open browser hears at once that the account was deactivated", async () => {
    const { client, user } = await userClient(server, admin);
    const before = server.app.deps.pubsub.listening('session:ended');
    const ws = wsClient(client.cookieHeader);
    const received: unknown[] = [];
    const done = new Promise<void>((resolve, reject) => {
      ws.subscribe(
        { query: 'subscription { viewerSessionEnded }' },
        {
          next: (v) => {
            received.push(v);
            resolve();
          },
          error: reject,
          complete: () => resolve(),
        },
      );
    });
    // Act once the subscription listens.
    await listening(server, 'session:ended', before + 1);
    expect((await admin.put(`/api/users/${user.id}/deactivate`)).status).toBe(200);
    await done;
    expect(received).toEqual([{ data: { viewerSessionEnded: 'deactivated' } }]);
    await ws.dispose();
  });

  it('refuses subscriptions from callers who are not signed in', async () => {
    const ws = wsClient('');
    const result = await new Promise<unknown>((resolve) => {
      ws.subscribe({ query: 'subscription { viewerSessionEnded }' }, { next: resolve, error: resolve, complete: () => resolve('complete') });
    });
    expect(JSON.stringify(result)).toMatch(/persisted|not signed in/i);
    await ws.dispose();
  });

  it("does not deliver one user's session events to another user", async () => {
    const a = await userClient(server, admin);
    const b = await userClient(server, admin);
    const wsB = wsClient(b.client.cookieHeader);
    const got: unknown[] = [];
    const before = server.app.deps.pubsub.listening('session:ended');
    wsB.subscribe({ query: 'subscription { viewerSessionEnded }' }, { next: (v) => got.push(v), error: () => {}, complete: () => {} });
    await listening(server, 'session:ended', before + 1);
    await admin.put(`/api/users/${a.user.id}/deactivate`);
    await new Promise((r) => setTimeout(r, 500));
    expect(got).toEqual([]);
    await wsB.dispose();
  });

  it('refuses WebSocket connections from another site (cross-site WebSocket hijacking)', async () => {
    const url = server.url.replace('http', 'ws') + '/graphql';
    const code = await new Promise<number | string>((resolve) => {
      const s = new WebSocket(url, 'graphql-transport-ws', { headers: { origin: 'https://evil.example' } });
      s.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      s.on('open', () => resolve('open'));
      s.on('error', () => resolve('error'));
    });
    expect(code).toBe(403);
  });
});
