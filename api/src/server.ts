// Builds the Fastify app: GraphQL (HTTP and graphql-ws), the REST adapter,
// the built web app with SPA fallback, health checks. No side effects on
// import; main.ts starts it.
import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import { WebSocketServer, type WebSocket } from 'ws';
import { apiTokenStillValid } from './auth/tokens.js';
import { useServer } from 'graphql-ws/use/ws';
import type { ExecutionArgs } from 'graphql';
import type { AppDeps } from './context.js';
import { authenticate, bearerOf, createContext } from './context.js';
import { createGraphQL, prepareOperation, type OperationParams } from './graphql.js';
import { processRequest } from 'graphql-upload-minimal';
import { MAX_UPLOAD_BYTES } from './services/uploads/uploads.js';
import { requestContext } from './request-context.js';
import { AUTH_CHALLENGE, registerAccessControl, registerErrorHandler, registerInputHygiene } from './rest/http.js';
import { registerSchemaValidation, routeSchema } from './rest/edge.js';
import { collectRoutes, openApiDocument } from './rest/openapi.js';
import { registerReplyCheck } from './rest/reply-check.js';
import { OpenApiJson } from './rest/replies.js';
import { registerAuthRoutes } from './rest/identity/auth.js';
import { registerUserRoutes } from './rest/identity/users.js';
import { registerNotificationRoutes } from './rest/identity/notifications.js';
import { registerPeriodRoutes } from './rest/review/periods.js';
import { registerAssignmentRoutes } from './rest/review/assignments.js';
import { registerReassignmentRoutes } from './rest/review/reassignments.js';
import { registerRiskRoutes } from './rest/review/risks.js';
import { registerDecisionRoutes } from './rest/review/decisions.js';
import { registerDashboardRoutes } from './rest/reports/dashboard.js';
import { registerReviewerStatusRoutes } from './rest/review/reviewer-status.js';
import { registerUploadRoutes } from './rest/uploads/uploads.js';
import { registerTokenRoutes } from './rest/identity/tokens.js';
import { registerRiskAnalysisRoutes } from './rest/reports/risk-analysis.js';
import { registerSimulationRoutes } from './rest/reports/simulation.js';
import { registerReviewHistoryRoutes } from './rest/reports/review-history.js';
import { registerEvidenceRoutes } from './rest/reports/evidence.js';
import { registerRemediationRoutes } from './rest/reports/remediation.js';
import { registerSettingsRoutes } from './rest/identity/settings.js';
import { registerAiRoutes } from './rest/ai/ai.js';
import { registerPurgeRoutes } from './rest/uploads/purge.js';
import { registerAiBulkRoutes } from './rest/ai/ai-bulk.js';
import { registerAccessRoutes } from './rest/access/index.js';
import { cspStyleNonce, foreignOriginReason, requestFacts, registerWebSecurity, trustFunction } from './web-security.js';
import { GRAPHIQL_CSP, GRAPHIQL_SIGN_IN_PAGE, registerGraphiQLAssets } from './graphiql.js';
import { frameNeedsViewer, pageWithBootFrame, readWebPage, registerCompression, REVALIDATE_PAGE, webAssetCaching, type FrameViewer, type WebPage } from './web-delivery.js';
import { resolveSession, sessionToken } from './auth/sessions.js';
import { getActivePeriod } from './services/review/periods.js';
import crypto from 'node:crypto';
import type { Logger } from 'pino';
import { WEB_FILE_ROUTE, addMetricSource, graphqlDuration, httpDuration, operationLabel } from './core/metrics.js';
import { registerMetricsRoute } from './metrics-endpoint.js';
import { DataFolderFullError } from './core/errors.js';
import type { Tracing } from './tracing.js';
import { errorBody } from './core/errors.js';

/** A request id sent by a proxy or client is kept when it looks like one; otherwise a new one is made. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

interface Enveloped {
  execute: (a: ExecutionArgs) => unknown;
  subscribe: (a: ExecutionArgs) => unknown;
}

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

/** The WebSocket close code for 'this instance is stopping; reconnect' (RFC 6455 Service Restart). */
export const WS_CLOSE_RESTART = 1012;
/** graphql-ws's Forbidden: the API token the connection was opened with is no longer valid. */
export const WS_CLOSE_TOKEN_REFUSED = 4403;

export async function buildServer(deps: AppDeps, opts: { logger?: Logger; tracing?: Tracing | null } = {}): Promise<BuiltServer> {
  // Forwarded headers are believed only from the proxies TRUST_PROXY names (req.ip, req.host,
  // req.protocol); the WebSocket upgrade below applies the same function.
  const trust = trustFunction(deps.config.trustProxy);
  const app = Fastify({
    ...(opts.logger ? { loggerInstance: opts.logger as FastifyBaseLogger } : { logger: deps.config.LOG_LEVEL === 'silent' ? false : { level: deps.config.LOG_LEVEL } }),
    requestIdHeader: false,
    genReqId: (req) => {
      const sent = req.headers['x-request-id'];
      return typeof sent === 'string' && REQUEST_ID.test(sent) ? sent : crypto.randomUUID();
    },
    trustProxy: deps.config.trustProxy === false ? false : trust,
    bodyLimit: 1024 * 1024,
    // On shutdown idle keep-alive connections close at once; running requests are
    // given until close()'s deadline, then cut (e.g. a client that keeps a refused upload open).
    forceCloseConnections: 'idle',
  });
  // Every response names its request id, the key to its log lines.
  app.addHook('onRequest', async (req, reply) => {
    reply.header('x-request-id', req.id);
  });
  // The web app's files are served by a route each (their names carry content hashes): one label
  // for all of them keeps the metric's series few and the same across builds.
  const webFileRoutes = new Set<string>();
  let addingWebFiles = false;
  app.addHook('onRoute', (route) => {
    if (addingWebFiles) webFileRoutes.add(route.url);
  });
  app.addHook('onResponse', async (req, reply) => {
    const url = req.routeOptions.url;
    const route = url === undefined ? 'unmatched' : webFileRoutes.has(url) ? WEB_FILE_ROUTE : url;
    httpDuration.observe({ method: req.method, route, status_code: String(reply.statusCode) }, reply.elapsedTime / 1000);
  });
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
  const routes = collectRoutes(app);

  // Health: /healthz says the process runs; /readyz that the database answers and takes writes
  // and the instance is not stopping (503 otherwise: a load balancer sends work elsewhere). An
  // instance whose Redis is away still serves every request: it stays ready, says 'degraded'
  // and names what is paused.
  let draining = false;
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_req, reply) => {
    if (draining) return reply.status(503).send({ status: 'draining', message: 'This instance is shutting down' });
    if (deps.db.dataFolderFull?.()) {
      return reply.status(503).send({ status: 'unavailable', degraded: ['database'], message: new DataFolderFullError().message });
    }
    try {
      await deps.db.sql.query('SELECT 1');
    } catch (err) {
      return reply.status(503).send({ status: 'unavailable', degraded: ['database'], message: (err as Error).message });
    }
    const events = deps.pubsub.fanOut();
    if (events === 'unavailable') {
      return { status: 'degraded', database: deps.db.kind, events, degraded: ['redis'], message: 'Redis cannot be reached: live events between instances are paused until it is back' };
    }
    return { status: 'ready', database: deps.db.kind, events };
  });

  registerMetricsRoute(app, deps.config);

  // GraphQL over HTTP.
  const { yoga, persisted } = createGraphQL(deps);
  app.route({
    url: '/graphql',
    method: ['GET', 'POST', 'OPTIONS'],
    handler: async (req, reply) => {
      if (req.method === 'POST' && req.isMultipart()) {
        // GraphQL multipart request (file uploads): streamed by graphql-upload-minimal
        // instead of Yoga's parser, which would hold the whole file in memory.
        const context = await requestContext(deps, req, reply);
        let body;
        try {
          body = await processRequest(req.raw, reply.raw, { maxFileSize: MAX_UPLOAD_BYTES, maxFiles: 1 });
        } catch (err) {
          // Everything processRequest refuses is the client's body (it only parses it); its one 500,
          // for a form with neither operations nor map, blames other middleware and is reworded.
          const status = (err as { status?: number }).status;
          if (status && status < 500) return reply.status(status).send({ errors: [{ message: (err as Error).message }] });
          const message = /couldn't find any files or JSON/.test((err as Error).message)
            ? 'A GraphQL multipart request needs the fields operations and map (GraphQL multipart request specification)'
            : `The GraphQL multipart request cannot be read: ${(err as Error).message}`;
          return reply.status(400).send({ errors: [{ message, extensions: { code: 'BAD_REQUEST' } }] });
        }
        if (Array.isArray(body)) return reply.status(400).send({ errors: [{ message: 'Batched multipart operations are not supported' }] });
        const prepared = prepareOperation(yoga, persisted, context, body as OperationParams);
        if (!('args' in prepared)) return reply.send({ errors: prepared.map((e) => ({ message: e.message, extensions: e.extensions })) });
        return reply.send(await prepared.execute(prepared.args));
      }
      // A browser opening /graphql signed out gets the way to GraphiQL, not a JSON error.
      if (req.method === 'GET' && !(req.query as { query?: unknown }).query && req.headers.accept?.includes('text/html')) {
        const context = await requestContext(deps, req, reply);
        if (!context.user) return reply.status(401).header('www-authenticate', AUTH_CHALLENGE).type('text/html; charset=utf-8').send(GRAPHIQL_SIGN_IN_PAGE);
      }
      const body = req.body as { operationName?: unknown } | undefined;
      const endTimer = graphqlDuration.startTimer({ operation: operationLabel(body?.operationName ?? (req.query as { operationName?: unknown }).operationName) });
      const response = await yoga.handleNodeRequestAndResponse(req, reply, { req, reply });
      endTimer();
      response.headers.forEach((value, key) => {
        if (key.toLowerCase() !== 'set-cookie') reply.header(key, value);
      });
      // The GraphiQL page (Monaco inserts un-nonced <style> elements): its own CSP, scripts still 'self' only.
      if (response.headers.get('content-type')?.startsWith('text/html')) reply.header('content-security-policy', GRAPHIQL_CSP);
      reply.status(response.status);
      reply.send(response.body);
      return reply;
    },
  });

  registerGraphiQLAssets(app);

  // REST adapter (SPEC §7).
  registerAuthRoutes(app);
  registerUserRoutes(app);
  registerNotificationRoutes(app);
  registerPeriodRoutes(app);
  registerAssignmentRoutes(app);
  registerReassignmentRoutes(app);
  registerRiskRoutes(app);
  registerDecisionRoutes(app);
  registerDashboardRoutes(app);
  registerReviewerStatusRoutes(app);
  await registerUploadRoutes(app);
  registerTokenRoutes(app);
  registerRiskAnalysisRoutes(app);
  registerSimulationRoutes(app);
  registerReviewHistoryRoutes(app);
  registerEvidenceRoutes(app);
  registerRemediationRoutes(app);
  registerSettingsRoutes(app);
  registerAiRoutes(app);
  registerPurgeRoutes(app);
  registerAiBulkRoutes(app);
  registerAccessRoutes(app);
  app.get('/api/openapi.json', { config: { access: 'public' }, schema: routeSchema({ summary: 'This document (OpenAPI 3.1)', reply: OpenApiJson }) }, async () => openApiDocument(routes));

  // The built web app, with SPA fallback for client-side routes.
  const webDist = deps.config.webDist;
  const hasWeb = fs.existsSync(path.join(webDist, 'index.html'));
  if (hasWeb) {
    // index.html is never served as a file: it carries the response's CSP nonce (below).
    addingWebFiles = true;
    await app.register(fastifyStatic, { root: webDist, wildcard: false, index: false, allowedPath: (p) => p !== '/index.html' && p !== '/boot-frames.json', ...webAssetCaching(webDist) });
    addingWebFiles = false;
  }
  // index.html and its frames: read once (a new build is a new process).
  const webPage = hasWeb ? readWebPage(webDist) : null;
  const isApi = (url: string) => url.startsWith('/api/') || url.startsWith('/graphql');
  /** The page of the web app for a client-side route (the SPA fallback), with this response's nonce. */
  const sendPage = async (req: FastifyRequest, reply: FastifyReply, page: WebPage) => {
    const [pathname = '/', query = ''] = req.url.split('?');
    const token = sessionToken(req.cookies as Record<string, string>);
    // A request with a session cookie gets the signed-in page's frame in #root (web-delivery.ts); on
    // Risk Review the session says which screen and whether the period notice shows.
    let viewer: FrameViewer | undefined;
    if (token != null && frameNeedsViewer(page, pathname, new URLSearchParams(query))) {
      const session = await resolveSession(deps.prisma, token, deps.config.SESSION_TTL_HOURS).catch(() => null);
      const user = session?.user;
      viewer = user && !user.passwordResetRequired ? { reviewer: user.role === 'reviewer', periodActive: (await getActivePeriod(deps.prisma)) != null } : null;
    }
    const html = pageWithBootFrame(page, req.url, req.cookies, token != null, viewer);
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', REVALIDATE_PAGE)
      .header('vary', 'cookie')
      // The nonce of this response's CSP, for the <style> elements Fluent UI inserts (main.tsx reads it).
      .send(html.replaceAll('__CSP_NONCE__', cspStyleNonce(reply)));
  };
  if (webPage) {
    // Every other GET is a client-side route: a route of its own (not the not-found handler), so the
    // page goes through compression like any answer. Unknown API paths still get the JSON 404.
    app.get('/*', { config: { access: 'public' } }, async (req, reply) => (isApi(req.url) ? reply.callNotFound() : sendPage(req, reply, webPage)));
  }
  app.setNotFoundHandler(async (req, reply) => {
    // /index.html asked for by name (the static plugin refuses to serve it as a file).
    if (!isApi(req.url) && webPage && req.method === 'GET') return sendPage(req, reply, webPage);
    return reply.status(404).send(errorBody(404, `Not found: ${req.method} ${req.url.split('?')[0]}`));
  });

  // GraphQL subscriptions over graphql-ws, same path, same context factory.
  const wss = new WebSocketServer({ noServer: true });
  app.server.on('upgrade', (request, socket, head) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    // A socket carrying the session cookie reads as the user: refuse other sites' pages
    // (cross-site WebSocket hijacking) by the same Origin rule as state-changing HTTP
    // requests. Browsers always send Origin on a WebSocket, so every upgrade is checked.
    const refused =
      url.pathname !== '/graphql' ? 'Not found' : foreignOriginReason(deps.config, request.headers, requestFacts(request, trust));
    if (refused) {
      const body = JSON.stringify({ message: refused });
      socket.write(
        `HTTP/1.1 ${url.pathname !== '/graphql' ? '404 Not Found' : '403 Forbidden'}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
      );
      socket.destroy();
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => wss.emit('connection', ws, request));
  });
  // Connections opened with an API token, by socket. When a token of a user is revoked or the
  // user deactivated (the 'api-tokens:changed' event, from any instance), each of theirs is
  // checked again and closed with 4403 if its token is no longer valid: a tool waiting on a
  // subscription learns at once, instead of silently receiving nothing more.
  const tokenSockets = new Map<WebSocket, { tokenId: string; userId: string }>();
  const tokenChanges = deps.pubsub.subscribe('api-tokens:changed');
  void (async () => {
    for await (const { userId } of tokenChanges) {
      for (const [socket, t] of [...tokenSockets]) {
        if (t.userId !== userId) continue;
        const valid = await apiTokenStillValid(deps.prisma, t.tokenId).catch(() => true);
        if (!valid) socket.close(WS_CLOSE_TOKEN_REFUSED, 'Forbidden: the API token was revoked or its user deactivated');
      }
    }
  })();
  const wsServer = useServer(
    {
      // Yoga's enveloped execute/subscribe travel in rootValue (graphql-ws + Yoga recipe).
      execute: (args) => (args.rootValue as Enveloped).execute(args) as never,
      subscribe: (args) => (args.rootValue as Enveloped).subscribe(args) as never,
      // A connection that presents an API token (header or connectionParams) that is
      // unknown, revoked or expired is refused (close 4403) rather than run anonymously.
      onConnect: async (ctx) => {
        const request = ctx.extra.request;
        const params = ctx.connectionParams ?? null;
        if (bearerOf(request.headers, params) === null) return true;
        const auth = await authenticate(deps, {}, request.headers, { connectionParams: params });
        if (!auth.user || !auth.token) return false;
        const socket = ctx.extra.socket;
        tokenSockets.set(socket, { tokenId: auth.token.id, userId: auth.user.id });
        socket.once('close', () => tokenSockets.delete(socket));
        return true;
      },
      onSubscribe: async (ctx, _id, params) => {
        const request = ctx.extra.request;
        // A fresh key per operation: the caller is looked up again, so a revoked token stops at once.
        const context = await createContext(deps, {}, {
          headers: request.headers,
          ip: requestFacts(request, trust).ip,
          connectionParams: ctx.connectionParams ?? null,
        });
        const prepared = prepareOperation(yoga, persisted, context, params as OperationParams);
        return 'args' in prepared ? prepared.args : [...prepared];
      },
    },
    wss,
  );

  const removeSource = addMetricSource({
    openWebSockets: () => wss.clients.size,
    pool: () => deps.db.poolStats?.(),
    queuedJobs: async () =>
      (
        await deps.db.sql.query<{ queue: string; state: string; n: string }>(
          'SELECT name AS queue, state::text AS state, count(*) AS n FROM pgboss.job GROUP BY 1, 2',
        )
      ).map((r) => ({ queue: r.queue, state: r.state, count: Number(r.n) })),
  });
  app.addHook('onClose', async () => {
    removeSource();
    await tokenChanges.return?.();
  });

  return {
    app,
    drain() {
      draining = true;
    },
    async close(opts = {}) {
      draining = true;
      for (const ws of wss.clients) ws.close(WS_CLOSE_RESTART, 'Service restart');
      await wsServer.dispose();
      wss.close();
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
