// GraphQL subscriptions over graphql-ws on /graphql, with the same context factory as HTTP.
import type { ExecutionArgs } from 'graphql';
import fp from 'fastify-plugin';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer, type WebSocket } from 'ws';
import { apiTokenStillValid } from '../auth/tokens.js';
import { authenticate, bearerOf, createContext, type AppDeps } from '../context.js';
import { prepareOperation, type OperationParams } from '../graphql.js';
import { foreignOriginReason, requestFacts, type TrustFn } from '../web-security.js';
import type { GraphQLEngine } from './graphql-http.js';

/** The WebSocket close code for 'this instance is stopping; reconnect' (RFC 6455 Service Restart). */
export const WS_CLOSE_RESTART = 1012;
/** graphql-ws's Forbidden: the API token the connection was opened with is no longer valid. */
export const WS_CLOSE_TOKEN_REFUSED = 4403;

interface Enveloped {
  execute: (a: ExecutionArgs) => unknown;
  subscribe: (a: ExecutionArgs) => unknown;
}

/** The open GraphQL WebSocket connections, as buildServer's close and the metrics see them. */
export interface GraphQLSockets {
  count(): number;
  /** Closes every connection with 1012 (clients reconnect elsewhere and resubscribe) and stops accepting. */
  restart(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    graphqlSockets: GraphQLSockets;
  }
}

export interface WebSocketOptions {
  deps: AppDeps;
  graphql: GraphQLEngine;
  /** Which forwarded headers to believe, as for HTTP requests (TRUST_PROXY). */
  trust: TrustFn;
}

export const graphqlWebSocket = fp<WebSocketOptions>(
  async (app, { deps, graphql: { yoga, persisted }, trust }) => {
    const wss = new WebSocketServer({ noServer: true });
    app.server.on('upgrade', (request, socket, head) => {
      const url = new URL(request.url ?? '/', 'http://localhost');
      // A socket carrying the session cookie reads as the user: refuse other sites' pages
      // (cross-site WebSocket hijacking) by the same Origin rule as state-changing HTTP
      // requests. Browsers always send Origin on a WebSocket, so every upgrade is checked.
      const refused = url.pathname !== '/graphql' ? 'Not found' : foreignOriginReason(deps.config, request.headers, requestFacts(request, trust));
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
          const context = await createContext(
            deps,
            {},
            {
              headers: request.headers,
              ip: requestFacts(request, trust).ip,
              connectionParams: ctx.connectionParams ?? null,
            },
          );
          const prepared = prepareOperation(yoga, persisted, context, params as OperationParams);
          return 'args' in prepared ? prepared.args : [...prepared];
        },
      },
      wss,
    );

    app.decorate('graphqlSockets', {
      count: () => wss.clients.size,
      async restart() {
        for (const ws of wss.clients) ws.close(WS_CLOSE_RESTART, 'Service restart');
        await wsServer.dispose();
        wss.close();
      },
    } satisfies GraphQLSockets);
    app.addHook('onClose', async () => {
      await tokenChanges.return?.();
    });
  },
  { name: 'graphql-websocket' },
);
