// Builds the Fastify app from its plugins (server/): request ids and metrics, health, GraphQL over
// HTTP and over graphql-ws, the REST adapter and the built web app, on top of the cross-cutting
// edge (cookies, web security, compression, errors, access control, input hygiene, schemas).
// No side effects on import; main.ts starts it.
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import type { Logger } from 'pino';
import type { AppDeps } from './context.js';
import { createGraphQL } from './graphql.js';
import { registerAccessControl, registerErrorHandler, registerInputHygiene } from './rest/http.js';
import { registerSchemaValidation } from './rest/edge.js';
import { registerReplyCheck } from './rest/reply-check.js';
import { registerWebSecurity, trustFunction } from './web-security.js';
import { registerCompression } from './web-delivery.js';
import type { Tracing } from './tracing.js';
import { observability, requestIdOf } from './server/observability.js';
import { health } from './server/health.js';
import { graphqlHttp } from './server/graphql-http.js';
import { rest } from './server/rest.js';
import { webApp } from './server/web-app.js';
import { graphqlWebSocket } from './server/websocket.js';

export { WS_CLOSE_RESTART, WS_CLOSE_TOKEN_REFUSED } from './server/websocket.js';

export interface BuiltServer {
  app: FastifyInstance;
  /** From now on /readyz answers 503, so a load balancer stops sending new work here. */
  drain(): void;
  /**
   * Stops listening, closes WebSockets with 1012 (Service Restart: clients
   * reconnect elsewhere and resubscribe) and lets running requests finish for
   * up to requestsTimeoutMs (default: none waited for), then cuts what is left.
   */
  close(opts?: { requestsTimeoutMs?: number }): Promise<void>;
}

export async function buildServer(deps: AppDeps, opts: { logger?: Logger; tracing?: Tracing | null } = {}): Promise<BuiltServer> {
  // Forwarded headers are believed only from the proxies TRUST_PROXY names (req.ip, req.host,
  // req.protocol); the WebSocket upgrade applies the same function.
  const trust = trustFunction(deps.config.trustProxy);
  const app = Fastify({
    ...(opts.logger
      ? { loggerInstance: opts.logger as FastifyBaseLogger }
      : { logger: deps.config.LOG_LEVEL === 'silent' ? false : { level: deps.config.LOG_LEVEL } }),
    requestIdHeader: false,
    genReqId: requestIdOf,
    trustProxy: deps.config.trustProxy === false ? false : trust,
    bodyLimit: 1024 * 1024,
    // On shutdown idle keep-alive connections close at once; running requests are
    // given until close()'s deadline, then cut (e.g. a client that keeps a refused upload open).
    forceCloseConnections: 'idle',
  });
  const webFileRoutes = new Set<string>();
  await app.register(observability, { webFileRoutes });
  // A span per request when tracing is on (tracing.ts), registered before every route.
  if (opts.tracing) await app.register(opts.tracing.fastifyPlugin);
  await app.register(fastifyCookie);
  await registerWebSecurity(app, deps.config);
  // Before compression: the API tests check each JSON answer against the document as it is sent.
  if (deps.config.NODE_ENV === 'test') registerReplyCheck(app);
  await registerCompression(app);
  registerErrorHandler(app);
  registerAccessControl(app, deps);
  registerInputHygiene(app);
  registerSchemaValidation(app);

  let draining = false;
  await app.register(health, { deps, draining: () => draining, openWebSockets: () => app.graphqlSockets.count() });
  const graphql = createGraphQL(deps);
  await app.register(graphqlHttp, { deps, graphql });
  await app.register(rest, { deps });
  await app.register(webApp, { deps, webFileRoutes });
  await app.register(graphqlWebSocket, { deps, graphql, trust });

  return {
    app,
    drain() {
      draining = true;
    },
    async close(opts = {}) {
      draining = true;
      await app.graphqlSockets.restart();
      const timeoutMs = opts.requestsTimeoutMs ?? 0;
      // Running requests finish (Fastify waits for them); past the deadline they are cut.
      const cut = setTimeout(() => app.server.closeAllConnections(), timeoutMs);
      try {
        await app.close();
      } finally {
        clearTimeout(cut);
      }
    },
  };
}
