// GraphQL over HTTP on /graphql: Yoga for GET and POST, graphql-upload-minimal for multipart
// (file uploads), GraphiQL's sign-in page and assets.
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { processRequest } from 'graphql-upload-minimal';
import type { AppDeps } from '../context.js';
import { graphqlDuration, operationLabel } from '../core/metrics.js';
import { GRAPHIQL_CSP, GRAPHIQL_SIGN_IN_PAGE, registerGraphiQLAssets } from '../graphiql.js';
import { prepareOperation, type createGraphQL, type OperationParams } from '../graphql.js';
import { requestContext } from '../request-context.js';
import { AUTH_CHALLENGE } from '../rest/http.js';
import { MAX_UPLOAD_BYTES } from '../services/uploads/uploads.js';

export type GraphQLEngine = ReturnType<typeof createGraphQL>;

export interface GraphQLHttpOptions {
  deps: AppDeps;
  graphql: GraphQLEngine;
}

/**
 * A GraphQL multipart request (file uploads): streamed by graphql-upload-minimal instead of
 * Yoga's parser, which would hold the whole file in memory.
 */
async function multipartOperation(deps: AppDeps, { yoga, persisted }: GraphQLEngine, req: FastifyRequest, reply: FastifyReply) {
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

export const graphqlHttp = fp<GraphQLHttpOptions>(
  async (app, { deps, graphql }) => {
    const { yoga } = graphql;
    app.route({
      url: '/graphql',
      method: ['GET', 'POST', 'OPTIONS'],
      handler: async (req, reply) => {
        if (req.method === 'POST' && req.isMultipart()) return multipartOperation(deps, graphql, req, reply);
        // A browser opening /graphql signed out gets the way to GraphiQL, not a JSON error.
        if (req.method === 'GET' && !(req.query as { query?: unknown }).query && req.headers.accept?.includes('text/html')) {
          const context = await requestContext(deps, req, reply);
          if (!context.user) return reply.status(401).header('www-authenticate', AUTH_CHALLENGE).type('text/html; charset=utf-8').send(GRAPHIQL_SIGN_IN_PAGE);
        }
        const body = req.body as { operationName?: unknown } | undefined;
        const endTimer = graphqlDuration.startTimer({
          operation: operationLabel(body?.operationName ?? (req.query as { operationName?: unknown }).operationName),
        });
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
  },
  { name: 'graphql-http' },
);
