// A database too busy to start a transaction in time (Prisma's P2028, seen in
// bench:load with 200 reviewers on one pool) is a 503 with Retry-After over
// REST and SERVICE_UNAVAILABLE over GraphQL, never an 'Internal server error'.
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { knownFault } from '../../src/core/errors.js';
import { registerErrorHandler } from '../../src/rest/http.js';

const busy = () => Object.assign(new Error('Transaction API error: Unable to start a transaction in the given time.'), { code: 'P2028' });

describe('a busy database', () => {
  it('answers 503 with Retry-After over REST; other faults stay 500', async () => {
    const app = Fastify({ logger: false });
    registerErrorHandler(app);
    app.get('/busy', async () => {
      throw busy();
    });
    app.get('/broken', async () => {
      throw new Error('something else');
    });
    const res = await app.inject({ method: 'GET', url: '/busy' });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.json()).toEqual({ message: 'The server is busy; try again in a few seconds', code: 'SERVICE_UNAVAILABLE' });
    expect((await app.inject({ method: 'GET', url: '/broken' })).statusCode).toBe(500);
    await app.close();
  });

  it('is named SERVICE_UNAVAILABLE for GraphQL', () => {
    expect(knownFault(busy())?.code).toBe('SERVICE_UNAVAILABLE');
    expect(knownFault(new Error('other'))).toBeNull();
  });
});
