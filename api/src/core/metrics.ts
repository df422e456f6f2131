// Prometheus metrics (prom-client), one registry per process: HTTP latency by
// route and status, GraphQL operation durations by name, jobs by queue,
// ingested rows, open WebSockets, database pool use. Gauges that belong to a
// running app (sockets, pool, queued jobs) are read at scrape time from the
// sources the app registers, so several apps in one process (tests) add up.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Every metric's name starts with the application's prefix, prom-client's process and Node.js ones too. */
export const METRIC_PREFIX = 'grc_';
/** The route label of every file of the built web app. */
export const WEB_FILE_ROUTE = '/(web app file)';

export const registry = new Registry();
collectDefaultMetrics({ register: registry, prefix: METRIC_PREFIX });

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export const httpDuration = new Histogram({
  name: `${METRIC_PREFIX}http_request_duration_seconds`,
  help: 'HTTP request duration by method, route (the route pattern, not the URL) and status code',
  labelNames: ['method', 'route', 'status_code'] as const,
  buckets: SECONDS,
  registers: [registry],
});

export const graphqlDuration = new Histogram({
  name: `${METRIC_PREFIX}graphql_operation_duration_seconds`,
  help: 'GraphQL operation duration over HTTP by operation name',
  labelNames: ['operation'] as const,
  buckets: SECONDS,
  registers: [registry],
});

export const jobsTotal = new Counter({
  name: `${METRIC_PREFIX}jobs_total`,
  help: 'Jobs run by this instance, by queue and outcome (completed, failed)',
  labelNames: ['queue', 'outcome'] as const,
  registers: [registry],
});

export const jobDuration = new Histogram({
  name: `${METRIC_PREFIX}job_duration_seconds`,
  help: 'Job duration by queue',
  labelNames: ['queue'] as const,
  buckets: [0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300, 900, 3600],
  registers: [registry],
});

export const ingestRows = new Counter({
  name: `${METRIC_PREFIX}ingest_rows_total`,
  help: 'Rows written by upload ingestion (rate() gives rows per second)',
  registers: [registry],
});

/** What a running app reports at scrape time. */
export interface MetricSource {
  openWebSockets(): number;
  pool(): { total: number; idle: number; waiting: number } | undefined;
  queuedJobs(): Promise<{ queue: string; state: string; count: number }[]>;
}
const sources = new Set<MetricSource>();

export function addMetricSource(source: MetricSource): () => void {
  sources.add(source);
  return () => sources.delete(source);
}

new Gauge({
  name: `${METRIC_PREFIX}websocket_connections`,
  help: 'Open GraphQL WebSocket connections',
  registers: [registry],
  collect() {
    this.set([...sources].reduce((n, s) => n + s.openWebSockets(), 0));
  },
});

new Gauge({
  name: `${METRIC_PREFIX}db_pool_connections`,
  help: 'Database pool connections by state (total, idle, waiting requests); PostgreSQL only',
  labelNames: ['state'] as const,
  registers: [registry],
  collect() {
    const sum = { total: 0, idle: 0, waiting: 0 };
    for (const s of sources) {
      const p = s.pool();
      if (!p) continue;
      sum.total += p.total;
      sum.idle += p.idle;
      sum.waiting += p.waiting;
    }
    for (const [state, n] of Object.entries(sum)) this.set({ state }, n);
  },
});

new Gauge({
  name: `${METRIC_PREFIX}jobs_in_queue`,
  help: 'Jobs in the job queue (shared by all instances) by queue and state',
  labelNames: ['queue', 'state'] as const,
  registers: [registry],
  async collect() {
    this.reset();
    for (const s of sources) {
      for (const r of await s.queuedJobs().catch(() => [])) this.inc({ queue: r.queue, state: r.state }, r.count);
    }
  },
});

/** Runs a job handler, counting it and timing it under its queue's name. */
export async function timedJob<T>(queue: string, fn: () => Promise<T>): Promise<T> {
  const end = jobDuration.startTimer({ queue });
  try {
    const result = await fn();
    jobsTotal.inc({ queue, outcome: 'completed' });
    return result;
  } catch (err) {
    jobsTotal.inc({ queue, outcome: 'failed' });
    throw err;
  } finally {
    end();
  }
}

const OPERATION_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,79}$/;
const MAX_OPERATION_NAMES = 300;
const operationNames = new Set<string>();

/** A label for a client-sent operation name, bounded so clients cannot grow the series without end. */
export function operationLabel(name: unknown): string {
  if (typeof name !== 'string' || !OPERATION_NAME.test(name)) return 'anonymous';
  if (operationNames.has(name)) return name;
  if (operationNames.size >= MAX_OPERATION_NAMES) return 'other';
  operationNames.add(name);
  return name;
}
