// Request ids and the per-route request-duration metric, for every request.
import crypto from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import fp from 'fastify-plugin';
import { WEB_FILE_ROUTE, httpDuration } from '../core/metrics.js';

/** A request id sent by a proxy or client is kept when it looks like one; otherwise a new one is made. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Fastify's genReqId: the caller's x-request-id when well-formed, else a fresh UUID. */
export function requestIdOf(req: { headers: IncomingHttpHeaders }): string {
  const sent = req.headers['x-request-id'];
  return typeof sent === 'string' && REQUEST_ID.test(sent) ? sent : crypto.randomUUID();
}

export interface ObservabilityOptions {
  /** The web app's file routes (web-app.ts fills it): measured under one label. */
  webFileRoutes: ReadonlySet<string>;
}

export const observability = fp<ObservabilityOptions>(
  async (app, { webFileRoutes }) => {
    // Every response names its request id, the key to its log lines.
    app.addHook('onRequest', async (req, reply) => {
      reply.header('x-request-id', req.id);
    });
    // The web app's files are served by a route each (their names carry content hashes): one label
    // for all of them keeps the metric's series few and the same across builds.
    app.addHook('onResponse', async (req, reply) => {
      const url = req.routeOptions.url;
      const route = url === undefined ? 'unmatched' : webFileRoutes.has(url) ? WEB_FILE_ROUTE : url;
      httpDuration.observe({ method: req.method, route, status_code: String(reply.statusCode) }, reply.elapsedTime / 1000);
    });
  },
  { name: 'observability' },
);
