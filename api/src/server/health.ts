// Health and metrics: /healthz says the process runs; /readyz that the database answers and takes
// writes and the instance is not stopping (503 otherwise: a load balancer sends work elsewhere). An
// instance whose Redis is away still serves every request: it stays ready, says 'degraded' and names
// what is paused. /metrics (metrics-endpoint.ts) and the gauges read at each scrape.
import fp from 'fastify-plugin';
import type { AppDeps } from '../context.js';
import { addMetricSource } from '../core/metrics.js';
import { DataFolderFullError } from '../core/errors.js';
import { registerMetricsRoute } from '../metrics-endpoint.js';

export interface HealthOptions {
  deps: AppDeps;
  /** True once the instance is stopping: /readyz answers 503. */
  draining: () => boolean;
  /** The open GraphQL WebSocket connections, for their gauge. */
  openWebSockets: () => number;
}

export const health = fp<HealthOptions>(
  async (app, { deps, draining, openWebSockets }) => {
    app.get('/healthz', async () => ({ status: 'ok' }));
    app.get('/readyz', async (_req, reply) => {
      if (draining()) return reply.status(503).send({ status: 'draining', message: 'This instance is shutting down' });
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
        return {
          status: 'degraded',
          database: deps.db.kind,
          events,
          degraded: ['redis'],
          message: 'Redis cannot be reached: live events between instances are paused until it is back',
        };
      }
      return { status: 'ready', database: deps.db.kind, events };
    });

    registerMetricsRoute(app, deps.config);

    const removeSource = addMetricSource({
      openWebSockets,
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
    });
  },
  { name: 'health' },
);
