// The log and the metrics of a real server process: every line is JSON with
// the request id (also on the response) and the user id once known; nothing
// the test sent as a secret (passwords, the session cookie, an API token, the
// metrics token) appears anywhere in the output; /metrics answers only with
// its token and reports HTTP, GraphQL, job, ingestion, WebSocket figures.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../helpers/db.js';
import { freePort, spawnServer, waitReady, type ServerProcess } from '../helpers/process.js';
import { Client } from '../helpers/server.js';
import { wsClient } from '../helpers/ws.js';
import { startServer } from '../helpers/server.js';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'grc-observe-'));
let proc: ServerProcess | undefined;
let db: TestDatabase | undefined;
afterAll(async () => {
  proc?.child.kill('SIGKILL');
  await proc?.exited;
  await db?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const INITIAL = 'Obs#Initial-7f3a9c';
const CHANGED = 'Obs#Changed-41be0d';
const WRONG = 'Obs#Wrong-c0ffee77';
const METRICS_TOKEN = 'metrics-token-5d1e2f3a4b5c6d7e';

describe('logs and metrics of a run', () => {
  it('log JSON lines with request and user ids and no secret; /metrics behind its token', async () => {
    db = await freshDatabase();
    proc = spawnServer(
      {
        DATA_DIR: dataDir,
        ...(db.url ? { DATABASE_URL: db.url } : {}),
        ADMIN_PASSWORD: INITIAL,
        LOG_LEVEL: 'info',
        METRICS_TOKEN,
        SHUTDOWN_DRAIN_SECONDS: '0',
      },
      await freePort(),
    );
    await waitReady(proc);
    const admin = new Client(proc.url);
    expect((await admin.login('admin@example.com', WRONG)).status).toBe(401);
    expect((await admin.login('admin@example.com', INITIAL)).status).toBe(200);
    const cookie = admin.cookieHeader;
    expect((await admin.put('/api/internal/change-password', { currentPassword: INITIAL, newPassword: CHANGED })).status).toBe(200);
    expect((await admin.login('admin@example.com', CHANGED)).status).toBe(200);
    const created = await admin.post('/api/tokens', { name: 'observability' });
    expect(created.status).toBe(201);
    const apiToken = created.body.token as string;

    // The request id: kept when sent, made up otherwise, always on the response.
    const sentId = 'trace-0123456789abcdef';
    const tokenCall = await fetch(`${proc.url}/graphql?access_token=${apiToken}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${apiToken}`, 'x-request-id': sentId },
      body: JSON.stringify({ operationName: 'ObservabilityViewer', query: 'query ObservabilityViewer { viewer { id email } }' }),
    });
    expect(tokenCall.status).toBe(200);
    expect(tokenCall.headers.get('x-request-id')).toBe(sentId);
    const plain = await fetch(`${proc.url}/healthz`);
    expect(plain.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);

    // A WebSocket open at scrape time is counted.
    const ws = wsClient(proc.url, admin.cookieHeader);
    await new Promise<void>((resolve) => ws.on('connected', () => resolve()));

    expect((await fetch(`${proc.url}/metrics`)).status).toBe(401);
    expect((await fetch(`${proc.url}/metrics`, { headers: { authorization: 'Bearer not-the-token-at-all' } })).status).toBe(401);
    const metrics = await fetch(`${proc.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(metrics.status).toBe(200);
    const text = await metrics.text();
    expect(text).toMatch(/grc_http_request_duration_seconds_count\{method="POST",route="\/api\/internal-login",status_code="200"\} 2/);
    expect(text).toMatch(/grc_graphql_operation_duration_seconds_count\{operation="ObservabilityViewer"\} 1/);
    expect(text).toMatch(/grc_websocket_connections 1/);
    expect(text).toMatch(/^# TYPE grc_jobs_in_queue gauge/m);
    expect(text).toMatch(/^# TYPE grc_jobs_total counter/m);
    expect(text).toMatch(/^# TYPE grc_ingest_rows_total counter/m);
    expect(text).toMatch(/^grc_db_pool_connections\{state="total"\}/m);
    await ws.dispose();

    proc.child.kill('SIGTERM');
    expect(await proc.exited).toBe(0);

    const output = proc.output();
    const sessionValue = cookie.split('=').slice(1).join('=');
    for (const secret of [INITIAL, CHANGED, WRONG, apiToken, sessionValue, METRICS_TOKEN]) {
      expect(secret.length).toBeGreaterThan(10);
      expect(output.includes(secret), `the log holds a secret: ${secret.slice(0, 6)}…`).toBe(false);
    }
    // stdout is the log; stderr may hold Node's own warnings, which are not ours to format.
    expect(proc.stderr()).not.toMatch(/"level"/);
    const lines = proc
      .stdout()
      .split('\n')
      .filter((l) => l.trim());
    const entries = lines.map((l) => JSON.parse(l) as Record<string, any>);
    const ofSent = entries.filter((e) => e.reqId === sentId);
    expect(ofSent.length).toBeGreaterThanOrEqual(2);
    expect(ofSent.find((e) => e.msg === 'request completed')).toMatchObject({ userId: expect.any(String), res: { statusCode: 200 } });
    expect(ofSent.find((e) => e.req)?.req.url).toBe('/graphql?access_token=%5BRedacted%5D');
    // Every line of a request carries its id.
    for (const e of entries.filter((x) => x.req || x.res)) expect(e.reqId).toBeTruthy();
  }, 120_000);

  it('with METRICS_PORT: /metrics without a token on that port only; the main port answers 404', async () => {
    const metricsPort = await freePort();
    const server = await startServer({ METRICS_PORT: String(metricsPort), METRICS_TOKEN: METRICS_TOKEN });
    try {
      const own = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
      expect(own.status).toBe(200);
      expect(await own.text()).toMatch(/^# TYPE grc_http_request_duration_seconds histogram/m);
      expect((await fetch(`http://127.0.0.1:${metricsPort}/other`)).status).toBe(404);
      expect((await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).status).toBe(404);
    } finally {
      await server.close();
    }
  }, 120_000);
});
