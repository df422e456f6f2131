import type { Client, SubscribePayload } from 'graphql-ws';
import { Network, Observable, type FetchFunction, type GraphQLResponse, type SubscribeFunction } from 'relay-runtime';
import { NetworkError, notifyUnauthenticated, type GraphQLResponseError } from './errors';
import { takeEarlyAnswer } from '../boot/earlyQueries';

const GRAPHQL_PATH = '/graphql';

type ResponseBody = {
  data?: unknown;
  errors?: GraphQLResponseError[];
  extensions?: unknown;
};

function firstErrorCode(errors: ReadonlyArray<GraphQLResponseError> | undefined): string | undefined {
  return errors?.find((e) => typeof e.extensions?.code === 'string')?.extensions?.code;
}

/**
 * Sends Relay's persisted operations: the artifacts carry only an id (the
 * SHA-256 of the operation text), never the text itself.
 */
const fetchFn: FetchFunction = (params, variables) => {
  const operationName = params.name;
  return Observable.create<GraphQLResponse>((sink) => {
    const controller = new AbortController();
    (async () => {
      if (params.id == null) {
        throw new NetworkError(`Operation ${operationName} has no persisted id; run relay-compiler.`);
      }
      // The session query and the risk queue's first page may have been sent before this code ran (boot/signedInPreload.ts): their answers, once.
      const early = takeEarlyAnswer(params.id, variables, params.operationKind);
      const response = early
        ? await early
        : await fetch(GRAPHQL_PATH, {
            method: 'POST',
            credentials: 'include',
            headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
            body: JSON.stringify({ documentId: params.id, operationName, variables }),
            signal: controller.signal,
          }).then(async (r) => ({ status: r.status, statusText: r.statusText, text: await r.text() }));
      let body: ResponseBody;
      try {
        body = JSON.parse(response.text) as ResponseBody;
      } catch {
        throw new NetworkError(response.statusText || 'Unknown error', { status: response.status });
      }
      const code = firstErrorCode(body.errors) ?? (response.status === 401 ? 'UNAUTHENTICATED' : undefined);
      if (code === 'UNAUTHENTICATED') {
        notifyUnauthenticated(operationName);
      }
      // Relay can render partial data; without data, the errors are the result.
      if (body.data == null || code === 'UNAUTHENTICATED' || code === 'FORBIDDEN') {
        const message = body.errors?.[0]?.message ?? (response.statusText || 'Unknown error');
        throw new NetworkError(message, { code, errors: body.errors, status: response.status });
      }
      sink.next(body as GraphQLResponse);
      sink.complete();
    })().catch((error: unknown) => {
      if (controller.signal.aborted) return;
      sink.error(error instanceof Error ? error : new NetworkError(String(error)));
    });
    return () => controller.abort();
  });
};

let wsClient: Client | null = null;
/**
 * graphql-ws, loaded when the first subscription starts (after the first
 * render), not with the entry: no screen subscribes before it has painted.
 */
type GraphqlWs = { createClient: typeof import('graphql-ws').createClient };
let graphqlWs: GraphqlWs | null = null;
let graphqlWsLoading: Promise<GraphqlWs> | null = null;
/** Counts closeSubscriptions() calls: a subscription waiting for graphql-ws belongs to the client of its generation. */
let generation = 0;

function loadGraphqlWs(): Promise<GraphqlWs> {
  // Only createClient taken from the module (destructured), so the bundler leaves out the package's server half and graphql-js.
  graphqlWsLoading ??= import('graphql-ws').then(
    ({ createClient }) => (graphqlWs = { createClient }),
    (error: unknown) => {
      graphqlWsLoading = null; // a later subscription tries again
      throw error;
    },
  );
  return graphqlWsLoading;
}

/**
 * The subscription socket as the user should know it: 'reconnecting' after a
 * connection was lost (an instance restarting closes with 1012; the client
 * reconnects, possibly to another instance, and resubscribes every live
 * subscription), 'connected' or 'idle' otherwise.
 */
export type ConnectionState = 'idle' | 'connected' | 'reconnecting';
let connectionState: ConnectionState = 'idle';
const connectionListeners = new Set<() => void>();

function setConnectionState(next: ConnectionState) {
  if (next === connectionState) return;
  connectionState = next;
  for (const listener of connectionListeners) listener();
}

export function getConnectionState(): ConnectionState {
  return connectionState;
}

export function subscribeConnectionState(listener: () => void): () => void {
  connectionListeners.add(listener);
  return () => connectionListeners.delete(listener);
}

function getWsClient({ createClient }: GraphqlWs): Client {
  if (wsClient == null) {
    const protocol = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
    let wasConnected = false;
    wsClient = createClient({
      url: `${protocol}//${window.location.host}${GRAPHQL_PATH}`,
      lazy: true,
      // Keep trying while the user is here (an instance restart or a deploy), at most every 10 s.
      retryAttempts: Infinity,
      retryWait: async (retries) => {
        const ms = Math.min(10_000, 500 * 2 ** retries) * (0.75 + Math.random() / 2);
        await new Promise((resolve) => setTimeout(resolve, ms));
      },
      on: {
        connected: () => {
          wasConnected = true;
          setConnectionState('connected');
        },
        closed: (event) => {
          // 1000: closed on purpose (no subscription left, or sign-out).
          const code = (event as { code?: number } | undefined)?.code;
          setConnectionState(wasConnected && code !== 1000 ? 'reconnecting' : 'idle');
        },
      },
    });
  }
  return wsClient;
}

/** Closes the shared WebSocket (on sign-out, so the next session authenticates afresh). */
export function closeSubscriptions(): void {
  generation += 1;
  if (wsClient != null) {
    void wsClient.dispose();
    wsClient = null;
  }
  setConnectionState('idle');
}

const subscribeFn: SubscribeFunction = (params, variables) => {
  return Observable.create<GraphQLResponse>((sink) => {
    if (params.id == null) {
      sink.error(new NetworkError(`Subscription ${params.name} has no persisted id; run relay-compiler.`));
      return undefined;
    }
    // graphql-ws requires `query` to be a string; the operation is identified by its persisted id.
    const payload: SubscribePayload & { documentId: string } = {
      query: '',
      operationName: params.name,
      variables,
      documentId: params.id,
      extensions: { persistedQuery: { version: 1, sha256Hash: params.id } },
    };
    const subscribe = (module: GraphqlWs) =>
      getWsClient(module).subscribe(payload, {
        next: (result) => {
          if (firstErrorCode(result.errors as GraphQLResponseError[] | undefined) === 'UNAUTHENTICATED') {
            notifyUnauthenticated(params.name);
          }
          sink.next(result as GraphQLResponse);
        },
        error: (error) => sink.error(error instanceof Error ? error : new NetworkError('Subscription failed')),
        complete: () => sink.complete(),
      });
    if (graphqlWs != null) return subscribe(graphqlWs);
    // The first subscription: it starts once graphql-ws has loaded, unless it was
    // unsubscribed meanwhile; after closeSubscriptions() it completes, as it would
    // have on the client that was closed.
    const startedIn = generation;
    let unsubscribe: (() => void) | null = null;
    let cancelled = false;
    loadGraphqlWs().then(
      (module) => {
        if (cancelled) return;
        if (startedIn !== generation) sink.complete();
        else unsubscribe = subscribe(module);
      },
      (error: unknown) => {
        if (!cancelled) sink.error(new NetworkError(error instanceof Error ? error.message : 'Subscription failed'));
      },
    );
    return () => {
      cancelled = true;
      unsubscribe?.();
    };
  });
};

export function createNetwork() {
  return Network.create(fetchFn, subscribeFn);
}
