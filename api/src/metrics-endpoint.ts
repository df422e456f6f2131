// /metrics (Prometheus text format): on the main port behind a bearer token
// (METRICS_TOKEN), or tokenless on a separate port (METRICS_PORT) that is kept
// off the public network; off when neither is set.
import crypto from 'node:crypto';
import http from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import { registry } from './core/metrics.js';
import { errorBody } from './core/errors.js';

function sameSecret(a: string, b: string): boolean {
  const ha = crypto.createHash('sha256').update(a).digest();
  const hb = crypto.createHash('sha256').update(b).digest();
  return crypto.timingSafeEqual(ha, hb);
}

export function registerMetricsRoute(app: FastifyInstance, config: Config) {
  app.get('/metrics', async (req, reply) => {
    if (config.METRICS_PORT || !config.METRICS_TOKEN) {
      return reply.status(404).send(errorBody(404, 'Not found: GET /metrics'));
    }
    const auth = req.headers.authorization ?? '';
    const token = auth.startsWith('Bearer ') ? auth.slice(7) : '';
    if (!token || !sameSecret(token, config.METRICS_TOKEN)) {
      return reply.status(401).header('www-authenticate', 'Bearer').send(errorBody(401, 'A metrics token is required'));
    }
    return reply.type(registry.contentType).send(await registry.metrics());
  });
}

/** The separate metrics listener, when METRICS_PORT is set; resolves once it listens. */
export async function startMetricsServer(config: Config): Promise<{ close(): Promise<void> } | undefined> {
  if (!config.METRICS_PORT) return undefined;
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Not found"}');
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
      (err: Error) => res.writeHead(500, { 'content-type': 'text/plain' }).end(err.message),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.METRICS_PORT, config.HOST, () => resolve());
  });
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
