/**
 * Errors raised by the network layer. A GraphQL response carrying an error
 * with `extensions.code === 'UNAUTHENTICATED'` is the equivalent of an HTTP 401
 * in SPEC §6/§8; 'FORBIDDEN' of an HTTP 403.
 */
export type GraphQLResponseError = {
  message: string;
  extensions?: { code?: string } & Record<string, unknown>;
  path?: ReadonlyArray<string | number>;
};

export class NetworkError extends Error {
  readonly code: string | undefined;
  readonly errors: ReadonlyArray<GraphQLResponseError>;
  readonly status: number | undefined;

  constructor(message: string, options: { code?: string; errors?: ReadonlyArray<GraphQLResponseError>; status?: number } = {}) {
    super(message);
    this.name = 'NetworkError';
    this.code = options.code;
    this.errors = options.errors ?? [];
    this.status = options.status;
  }
}

export function isUnauthenticated(error: unknown): boolean {
  return error instanceof NetworkError && error.code === 'UNAUTHENTICATED';
}

export function isForbidden(error: unknown): boolean {
  return error instanceof NetworkError && error.code === 'FORBIDDEN';
}

type UnauthenticatedListener = (operationName: string) => void;
const unauthenticatedListeners = new Set<UnauthenticatedListener>();

/** Registers a callback run whenever the server reports that the session is gone. */
export function onUnauthenticated(listener: UnauthenticatedListener): () => void {
  unauthenticatedListeners.add(listener);
  return () => {
    unauthenticatedListeners.delete(listener);
  };
}

export function notifyUnauthenticated(operationName: string): void {
  for (const listener of unauthenticatedListeners) listener(operationName);
}
