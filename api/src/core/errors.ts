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

/**
 * The AppError an unexpected error stands for, when it stands for one: Prisma's
 * 'Unable to start a transaction in the given time' (P2028) means busy, not broken.
 */
export function knownFault(err: unknown): AppError | null {
  const e = err as { code?: unknown; message?: unknown } | null;
  if (e && (e.code === 'P2028' || (typeof e.message === 'string' && e.message.includes('Unable to start a transaction in the given time')))) {
    return new ServiceBusyError();
  }
  return null;
}
