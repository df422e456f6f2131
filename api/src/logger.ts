// The process's structured log (pino, JSON, one object a line), shared by
// Fastify (each request's lines carry its reqId, and userId once known) and
// the app's own messages. Secrets never reach it: credentials in headers,
// bodies or query strings are redacted.
import pino, { type Logger } from 'pino';
import type { Config } from './config.js';

export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  'password',
  'currentPassword',
  'newPassword',
  'token',
  'apiKey',
  '*.password',
  '*.currentPassword',
  '*.newPassword',
  '*.token',
  '*.apiKey',
  '*.authorization',
  '*.cookie',
];

const SECRET_QUERY = /^(?:.*token.*|code|state|password|secret|key|session_state|id_token_hint)$/i;

/** The URL with the values of secret-looking query parameters (OAuth code and state, tokens) replaced. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  let changed = false;
  for (const key of [...params.keys()]) {
    if (SECRET_QUERY.test(key)) {
      params.set(key, '[Redacted]');
      changed = true;
    }
  }
  return changed ? `${url.slice(0, q)}?${params.toString()}` : url;
}

export function createLogger(config: Pick<Config, 'LOG_LEVEL'>, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level: config.LOG_LEVEL,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACT_PATHS, censor: '[Redacted]' },
      serializers: {
        req(req: { method: string; url: string; id: string; ip?: string; headers?: Record<string, unknown> }) {
          return { method: req.method, url: redactUrl(req.url), remoteAddress: req.ip, userAgent: req.headers?.['user-agent'] };
        },
        err: pino.stdSerializers.err,
      },
    },
    destination,
  );
}
