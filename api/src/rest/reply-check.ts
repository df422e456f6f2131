// While the API tests run (NODE_ENV=test), every JSON answer of an /api route
// is checked against what /api/openapi.json publishes for it: a successful one
// against the route's `reply` schema and status, an error against the error
// shape. An answer that drifted from its document becomes a 500 naming the
// route and the first difference, so the test that made the call fails.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { RouteSchema } from './edge.js';
import { ERROR_CODES, type ErrorCode } from '../core/errors.js';

/** components.schemas.Error of the document (rest/openapi.ts). */
export const ErrorJson = z.strictObject({
  message: z.string().describe('What went wrong, in words to show a person'),
  code: z
    .enum(Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]])
    .describe('What kind of error, stable for tools (the codes of GraphQL’s ErrorCode enum)'),
  field: z.string().optional().describe('The input field at fault, where one is (BAD_USER_INPUT)'),
  uploadId: z.uuid().optional().describe('POST /api/upload only: the upload refused after it was received'),
  status: z.literal('failed').optional().describe('POST /api/upload only: the refused upload’s status'),
});

function problem(schema: RouteSchema, status: number, body: unknown): string | null {
  if (status >= 400) {
    const r = ErrorJson.safeParse(body);
    return r.success ? null : `the error shape: ${r.error.issues[0]!.path.join('.')}: ${r.error.issues[0]!.message}`;
  }
  if (status >= 300) return null;
  const documented = schema.replyStatus ?? 200;
  if (status !== documented) return `status ${status}, documented ${documented}`;
  if (!schema.reply) return 'no reply schema';
  const r = schema.reply.safeParse(body);
  if (r.success) return null;
  const issue = r.error.issues[0]!;
  return `${issue.path.join('.') || '(the answer)'}: ${issue.message}`;
}

export function registerReplyCheck(app: FastifyInstance) {
  app.addHook('onSend', async (req, reply, payload) => {
    if (!req.url.startsWith('/api/') || req.method === 'HEAD' || req.is404 || typeof payload !== 'string') return payload;
    if (!String(reply.getHeader('content-type') ?? '').startsWith('application/json')) return payload;
    const found = problem((req.routeOptions.schema ?? {}) as RouteSchema, reply.statusCode, JSON.parse(payload));
    if (!found) return payload;
    const message = `The answer of ${req.method} ${req.routeOptions.url} does not match /api/openapi.json: ${found}`;
    req.log.error(message);
    reply.code(500);
    return JSON.stringify({ message });
  });
}
