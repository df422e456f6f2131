// OpenTelemetry tracing, switched on by configuration:
// with OTEL_EXPORTER_OTLP_ENDPOINT set, every HTTP request (@fastify/otel),
// GraphQL operation (graphqlTracing below) and database query
// (@prisma/instrumentation) becomes a span sent over OTLP/HTTP to that
// collector (Jaeger, Tempo, the OpenTelemetry Collector…). A caller's W3C
// `traceparent` header continues its trace. Unset: nothing is loaded or sent.
import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { FastifyPluginCallback } from 'fastify';
import type { Plugin } from 'graphql-yoga';
import type { Config } from './config.js';

/** How long a batch of spans may take to reach the collector, and the most shutdown waits for the last one. */
const SPAN_FLUSH_MS = 2000;

export interface Tracing {
  /** Registers the HTTP server spans on a Fastify instance (before its routes). */
  fastifyPlugin: FastifyPluginCallback;
  /** Sends the spans still buffered, then stops tracing. */
  shutdown(): Promise<void>;
}

const TRACER = 'grc-platform';

/** Starts tracing for this process when the configuration names a collector; null otherwise. */
export async function startTracing(config: Config): Promise<Tracing | null> {
  const endpoint = config.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (!endpoint) return null;
  // Loaded only when switched on: the SDK is not part of an ordinary start.
  const [
    { NodeTracerProvider, BatchSpanProcessor },
    { OTLPTraceExporter },
    { resourceFromAttributes },
    { registerInstrumentations },
    { PrismaInstrumentation },
    { FastifyOtelInstrumentation },
  ] = await Promise.all([
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/instrumentation'),
    import('@prisma/instrumentation'),
    import('@fastify/otel'),
  ]);
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': config.OTEL_SERVICE_NAME, 'service.instance.id': `${process.pid}` }),
    spanProcessors: [
      new BatchSpanProcessor(new OTLPTraceExporter({ url: `${endpoint.replace(/\/+$/, '')}/v1/traces`, timeoutMillis: SPAN_FLUSH_MS }), {
        scheduledDelayMillis: 1000,
        exportTimeoutMillis: SPAN_FLUSH_MS,
      }),
    ],
  });
  // The global provider, AsyncLocalStorage context and W3C trace-context propagation.
  provider.register();
  const unregister = registerInstrumentations({ tracerProvider: provider, instrumentations: [new PrismaInstrumentation()] });
  const fastifyOtel = new FastifyOtelInstrumentation({
    // Probes and static files would drown the requests people trace.
    ignorePaths: ({ url }) => /^\/(healthz|readyz|metrics|assets\/)/.test(url),
  });
  fastifyOtel.setTracerProvider(provider);
  return {
    fastifyPlugin: fastifyOtel.plugin() as FastifyPluginCallback,
    async shutdown() {
      unregister();
      // The spans still queued get a short while to reach the collector: a collector that is
      // down or never answers must not hold the process past its shutdown deadline.
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([provider.shutdown().catch(() => {}), new Promise<void>((r) => (timer = setTimeout(r, SPAN_FLUSH_MS)))]);
      clearTimeout(timer);
      trace.disable();
      context.disable();
    },
  };
}

/**
 * A span per GraphQL operation ('query Name', 'mutation Name'), a child of the
 * request's span; failed operations are marked as errors. Without a tracer
 * provider the API's no-op tracer makes this free.
 */
export function graphqlTracing<T extends object>(): Plugin<T> {
  return {
    onExecute({ args }) {
      const op = args.document.definitions.find((d: { kind: string }) => d.kind === 'OperationDefinition');
      const type = op && 'operation' in op ? op.operation : 'query';
      const name = args.operationName ?? (op && 'name' in op ? op.name?.value : undefined) ?? 'anonymous';
      const span = trace.getTracer(TRACER).startSpan(`${type} ${name}`, {
        kind: SpanKind.INTERNAL,
        attributes: { 'graphql.operation.type': type, 'graphql.operation.name': name },
      });
      return {
        onExecuteDone({ result }) {
          const errors = 'errors' in result && Array.isArray(result.errors) ? result.errors : [];
          if (errors.length) span.setStatus({ code: SpanStatusCode.ERROR, message: errors[0]!.message });
          span.end();
        },
      };
    },
  };
}
