/**
 * OpenTelemetry traces, started before anything else is loaded (main.ts imports this file first) because the
 * instrumentations patch `http` and `pg` as they are required. Only when `OTEL_EXPORTER_OTLP_ENDPOINT` (or
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) is set and `OTEL_SDK_DISABLED` is not `true`: otherwise no SDK module
 * is even loaded, and the `@opentelemetry/api` calls elsewhere are no-ops. Spans go over OTLP/HTTP (JSON) to the
 * endpoint, batched; the exporter reads the other standard `OTEL_*` variables itself (headers, timeout,
 * `OTEL_SERVICE_NAME`, `OTEL_RESOURCE_ATTRIBUTES`, `OTEL_BSP_*`).
 */
export interface Tracing {
  /** Sends the spans still buffered, then stops. */
  shutdown(): Promise<void>;
}

function startTracing(env: NodeJS.ProcessEnv): Tracing | undefined {
  if (!(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT)) return undefined;
  if (/^true$/i.test(env.OTEL_SDK_DISABLED ?? '')) return undefined;
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { NodeTracerProvider, BatchSpanProcessor } = require('@opentelemetry/sdk-trace-node') as typeof import('@opentelemetry/sdk-trace-node');
  const { OTLPTraceExporter } = require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http');
  const { defaultResource, detectResources, envDetector, resourceFromAttributes } = require('@opentelemetry/resources') as typeof import('@opentelemetry/resources');
  const { registerInstrumentations } = require('@opentelemetry/instrumentation') as typeof import('@opentelemetry/instrumentation');
  const { HttpInstrumentation } = require('@opentelemetry/instrumentation-http') as typeof import('@opentelemetry/instrumentation-http');
  const { PgInstrumentation } = require('@opentelemetry/instrumentation-pg') as typeof import('@opentelemetry/instrumentation-pg');
  /* eslint-enable @typescript-eslint/no-require-imports */

  // The service's name unless the operator named it (OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES win).
  const resource = defaultResource()
    .merge(resourceFromAttributes({ 'service.name': 'veritrail' }))
    .merge(detectResources({ detectors: [envDetector] }));
  const provider = new NodeTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())] });
  provider.register();
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      // Probes and scrapes every few seconds would drown the traces that matter.
      new HttpInstrumentation({ ignoreIncomingRequestHook: (req) => /^\/(health|ready|metrics)(\?|$)/.test(req.url ?? '') }),
      new PgInstrumentation(),
    ],
  });
  return { shutdown: () => provider.shutdown() };
}

export const tracing = startTracing(process.env);
