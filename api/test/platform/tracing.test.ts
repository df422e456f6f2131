// OpenTelemetry tracing switched on by configuration: a real
// server process sends its spans over OTLP/HTTP to a local collector stand-in
// (an HTTP server taking what the OpenTelemetry exporters post to /v1/traces).
// A GraphQL request yields the request's span, the operation's span under it
// and the database queries it ran, all in the caller's trace when it sent a
// W3C traceparent. Without the setting nothing is sent.
import fs from 'node:fs';
import net from 'node:net';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../helpers/db.js';
import { freePort, spawnServer, waitReady, type ServerProcess } from '../helpers/process.js';
import { Client } from '../helpers/server.js';

type OtlpSpan = { traceId: string; spanId: string; parentSpanId?: string; name: string; attributes?: { key: string; value: Record<string, unknown> }[] };

/** The collector stand-in: keeps every span posted (OTLP JSON). */
async function startCollector() {
  const spans: OtlpSpan[] = [];
  const resources: Record<string, unknown>[] = [];
  let posts = 0;
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/v1/traces') {
        posts += 1;
        const parsed = JSON.parse(body) as { resourceSpans: { resource: { attributes: unknown[] }; scopeSpans: { spans: OtlpSpan[] }[] }[] };
        for (const rs of parsed.resourceSpans) {
          resources.push(
            Object.fromEntries((rs.resource.attributes as { key: string; value: { stringValue?: string } }[]).map((a) => [a.key, a.value.stringValue])),
          );
          for (const ss of rs.scopeSpans) spans.push(...ss.spans);
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  const port = await freePort();
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${port}`, spans, resources, posts: () => posts, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const dirs: string[] = [];
const procs: ServerProcess[] = [];
const dbs: TestDatabase[] = [];
afterAll(async () => {
  for (const p of procs) {
    p.child.kill('SIGKILL');
    await p.exited;
  }
  for (const d of dbs) await d.drop();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

async function start(env: Record<string, string>) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'grc-trace-'));
  dirs.push(dataDir);
  const db = await freshDatabase();
  dbs.push(db);
  const proc = spawnServer(
    {
      DATA_DIR: dataDir,
      ...(db.url ? { DATABASE_URL: db.url } : {}),
      ADMIN_PASSWORD: 'Trace#Initial-51c2',
      LOG_LEVEL: 'warn',
      SHUTDOWN_DRAIN_SECONDS: '0',
      ...env,
    },
    await freePort(),
  );
  procs.push(proc);
  await waitReady(proc);
  const admin = new Client(proc.url);
  expect((await admin.login('admin@example.com', 'Trace#Initial-51c2')).status).toBe(200);
  return { proc, admin };
}

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN = '00f067aa0ba902b7';

describe('OpenTelemetry tracing', () => {
  it('with OTEL_EXPORTER_OTLP_ENDPOINT: request, GraphQL operation and database spans in the caller’s trace', async () => {
    const collector = await startCollector();
    try {
      const { proc, admin } = await start({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_SERVICE_NAME: 'grc-trace-test' });
      const res = await admin.request(
        'POST',
        '/graphql',
        { operationName: 'TracingProbe', query: 'query TracingProbe { viewer { id email } }' },
        { traceparent: `00-${TRACE_ID}-${CALLER_SPAN}-01` },
      );
      expect(res.status).toBe(200);
      expect(res.body.data.viewer.email).toBe('admin@example.com');
      // A graceful stop sends what is buffered.
      proc.child.kill('SIGTERM');
      expect(await proc.exited).toBe(0);

      expect(collector.resources.some((r) => r['service.name'] === 'grc-trace-test')).toBe(true);
      const ours = collector.spans.filter((s) => s.traceId === TRACE_ID);
      const request = ours.find((s) => s.parentSpanId === CALLER_SPAN);
      expect(request, `spans of the trace: ${ours.map((s) => s.name).join(', ')}`).toBeDefined();
      const attrs = Object.fromEntries((request!.attributes ?? []).map((a) => [a.key, Object.values(a.value)[0]]));
      expect(attrs['http.route']).toBe('/graphql');
      const byId = new Map(ours.map((s) => [s.spanId, s]));
      const underRequest = (s: OtlpSpan): boolean => {
        for (let p = s.parentSpanId; p; p = byId.get(p)?.parentSpanId) if (p === request!.spanId) return true;
        return false;
      };
      const operation = ours.find((s) => s.name === 'query TracingProbe');
      expect(operation).toBeDefined();
      expect(underRequest(operation!)).toBe(true);
      // The operation read the viewer from the database: Prisma's spans, in the same trace.
      expect(ours.some((s) => s.name.startsWith('prisma:'))).toBe(true);
      // Probes are not traced.
      expect(collector.spans.some((s) => s.name.includes('readyz'))).toBe(false);
    } finally {
      await collector.close();
    }
  }, 120_000);

  it('a collector that is down or never answers does not hold up SIGTERM: the process exits 0 within the shutdown deadline', async () => {
    // One port refuses connections (down); the other takes them and never answers (hung).
    const hung = net.createServer(() => {});
    const hungPort = await freePort();
    await new Promise<void>((r) => hung.listen(hungPort, '127.0.0.1', r));
    try {
      for (const endpoint of [`http://127.0.0.1:${await freePort()}`, `http://127.0.0.1:${hungPort}`]) {
        const { proc, admin } = await start({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, SHUTDOWN_TIMEOUT_SECONDS: '10' });
        // Spans waiting to be sent when the signal comes.
        expect((await admin.request('POST', '/graphql', { query: 'query Pending { viewer { id } }' })).status).toBe(200);
        proc.child.kill('SIGTERM');
        expect(await proc.exited, endpoint).toBe(0);
        expect(proc.output()).not.toMatch(/shutdown took over/);
      }
    } finally {
      hung.close();
    }
  }, 120_000);

  it('without it, nothing is sent', async () => {
    const collector = await startCollector();
    try {
      const { proc, admin } = await start({ OTEL_EXPORTER_OTLP_ENDPOINT: '' });
      expect((await admin.request('POST', '/graphql', { query: 'query Quiet { viewer { id } }' })).status).toBe(200);
      proc.child.kill('SIGTERM');
      expect(await proc.exited).toBe(0);
      expect(collector.posts()).toBe(0);
    } finally {
      await collector.close();
    }
  }, 120_000);
});
