// Domain errors. Services throw these; the REST adapter turns them into an
// HTTP status with { message }, the GraphQL schema into typed errors (errors
// plugin) or GraphQLErrors with an extensions.code.

/** Every code a domain error carries, with what it means (GraphQL's ErrorCode enum). */
export const ERROR_CODES = {
  BAD_REQUEST: 'The request cannot be carried out as it is (the message says why).',
  BAD_USER_INPUT: 'A value sent is not valid (ValidationError names the field).',
  UNAUTHENTICATED: 'Not signed in, or the session or token is no longer valid.',
  FORBIDDEN: 'The caller may not do this.',
  NOT_FOUND: 'What the request names does not exist, or the caller may not see it.',
  CONFLICT: 'The current state does not allow it (e.g. already submitted, already running).',
  TOO_MANY_REQUESTS: 'Too many requests in a short time: try again later.',
  PAYLOAD_TOO_LARGE: 'The file or body is larger than the server takes.',
  AI_NOT_CONFIGURED: 'The AI assist has no API key configured.',
  AI_SERVICE_ERROR: 'The AI provider failed (refused the key, rate-limited, timed out or answered something unusable).',
  SERVICE_UNAVAILABLE: 'The server is busy: try again in a few seconds.',
  INTERNAL_SERVER_ERROR: 'An unexpected failure, logged on the server with the request id; the message says nothing more.',
} as const;
export type ErrorCode = keyof typeof ERROR_CODES;

/** The code of an HTTP error status that carries no domain error (a framework refusal, a proxy's answer). */
export function codeOfStatus(status: number): ErrorCode {
  switch (status) {
    case 401:
      return 'UNAUTHENTICATED';
    case 403:
      return 'FORBIDDEN';
    case 404:
      return 'NOT_FOUND';
    case 409:
      return 'CONFLICT';
    case 413:
      return 'PAYLOAD_TOO_LARGE';
    case 429:
      return 'TOO_MANY_REQUESTS';
    case 503:
      return 'SERVICE_UNAVAILABLE';
    default:
      return status >= 500 ? 'INTERNAL_SERVER_ERROR' : 'BAD_REQUEST';
  }
}

/**
 * The REST error answer: the message (SPEC §8) with a stable code (GraphQL's
 * ErrorCode) and, where one value is at fault, the field.
 */
export function errorBody(status: number, message: string, code: ErrorCode = codeOfStatus(status), field?: string) {
  return field ? { message, code, field } : { message, code };
}

export class AppError extends Error {
  readonly status: number = 400;
  readonly code: ErrorCode = 'BAD_REQUEST';
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** Bad input: names what was wrong (and which field, when one). */
export class ValidationError extends AppError {
  override readonly status = 400;
  override readonly code = 'BAD_USER_INPUT';
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

/** Not signed in, or credentials refused. */
export class AuthenticationError extends AppError {
  override readonly status = 401;
  override readonly code = 'UNAUTHENTICATED';
}

/** Signed in, but not allowed. */
export class ForbiddenError extends AppError {
  override readonly status = 403;
  override readonly code = 'FORBIDDEN';
}

export class NotFoundError extends AppError {
  override readonly status = 404;
  override readonly code = 'NOT_FOUND';
}

export class ConflictError extends AppError {
  override readonly status = 409;
  override readonly code = 'CONFLICT';
}

export class TooManyRequestsError extends AppError {
  override readonly status = 429;
  override readonly code = 'TOO_MANY_REQUESTS';
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

export class PayloadTooLargeError extends AppError {
  override readonly status = 413;
  override readonly code = 'PAYLOAD_TOO_LARGE';
}

/** The AI assist has no API key configured (an administrator adds one in Admin Settings). */
export class AiNotConfiguredError extends AppError {
  override readonly status = 409;
  override readonly code = 'AI_NOT_CONFIGURED';
}

/** The AI provider failed: refused the key, rate-limited, timed out, or answered something unusable. */
export class AiServiceError extends AppError {
  override readonly status: number = 502;
  override readonly code: ErrorCode = 'AI_SERVICE_ERROR';
  constructor(
    message: string,
    readonly reason: 'invalid_key' | 'rate_limited' | 'timeout' | 'unreachable' | 'provider_error' | 'malformed',
  ) {
    super(message);
  }
}

/** The database is too busy to take the request now (a transaction could not get a connection in time): try again shortly. */
export class ServiceBusyError extends AppError {
  override readonly status = 503;
  override readonly code = 'SERVICE_UNAVAILABLE';
  readonly retryAfterSeconds = 5;
  constructor() {
    super('The server is busy; try again in a few seconds');
  }
}

/** The database cannot be reached (an outage, a failover, a restart): nothing is wrong with the request; try again shortly. */
export class DatabaseUnavailableError extends AppError {
  override readonly status = 503;
  override readonly code = 'SERVICE_UNAVAILABLE';
  readonly retryAfterSeconds = 5;
  constructor() {
    super('The database cannot be reached right now; try again in a few seconds');
  }
}

/** The disk holding the data is full: nothing can be saved until an operator frees space. */
export class DataFolderFullError extends AppError {
  override readonly status = 503;
  override readonly code = 'SERVICE_UNAVAILABLE';
  readonly retryAfterSeconds = 60;
  constructor() {
    super('The data folder is full: nothing can be saved until space is freed on the server; try again later');
  }
}

/** An error and what it wraps (Error.cause, Prisma's driver adapter error), outermost first. */
function* chain(err: unknown): Generator<Record<string, unknown>> {
  const seen = new Set<unknown>();
  const todo: unknown[] = [err];
  while (todo.length) {
    const e = todo.shift();
    if (!e || typeof e !== 'object' || seen.has(e)) continue;
    seen.add(e);
    const r = e as Record<string, unknown>;
    yield r;
    const meta = r.meta as Record<string, unknown> | undefined;
    todo.push(r.cause, r.originalError, meta?.driverAdapterError);
  }
}

/** SQLSTATE disk_full, and the system's own 'no space' error. */
export function isDiskFull(err: unknown): boolean {
  for (const e of chain(err)) {
    if (e.code === '53100' || e.code === 'ENOSPC' || e.originalCode === '53100') return true;
    if (typeof e.message === 'string' && /No space left on device/i.test(e.message)) return true;
  }
  return false;
}

/**
 * The connection to the database was lost or could not be made: the server is down, restarting,
 * failing over, or ended the session (pg_terminate_backend, a pooler reset, an idle-session kill).
 */
const CONNECTION_CODES = new Set([
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08006',
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'P1001',
  'P1002',
  'P1017',
]);
const CONNECTION_KINDS = new Set(['ConnectionClosed', 'DatabaseNotReachable', 'SocketTimeout']);
const CONNECTION_TEXT =
  /Connection terminated|terminating connection|Can't reach database server|Server has closed the connection|Connection ended unexpectedly|the database system is (starting up|shutting down|in recovery mode)|connect ECONNREFUSED|Client has encountered a connection error|Client was closed and is not queryable/i;

export function isConnectionLost(err: unknown): boolean {
  for (const e of chain(err)) {
    if (CONNECTION_CODES.has(String(e.code)) || CONNECTION_CODES.has(String(e.originalCode)) || CONNECTION_KINDS.has(String(e.kind))) return true;
    if (typeof e.message === 'string' && CONNECTION_TEXT.test(e.message)) return true;
  }
  return false;
}

/**
 * The AppError an unexpected error stands for, when it stands for one: Prisma's
 * 'Unable to start a transaction in the given time' (P2028) means busy, not broken;
 * a full disk and a lost database connection are outages, answered 503 with Retry-After.
 */
export function knownFault(err: unknown): AppError | null {
  const e = err as { code?: unknown; message?: unknown } | null;
  if (e && (e.code === 'P2028' || (typeof e.message === 'string' && e.message.includes('Unable to start a transaction in the given time')))) {
    return new ServiceBusyError();
  }
  if (isDiskFull(err)) return new DataFolderFullError();
  if (isConnectionLost(err)) return new DatabaseUnavailableError();
  return null;
}
