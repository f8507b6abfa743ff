import { installTracer } from './traceScope.js';

/** Options of tracing (owned here, composed into Config from the standard OTEL_* variables). */
export interface TracingOptions {
  /** OTLP/HTTP base URL (`/v1/traces` is appended); empty: tracing off unless `tracesEndpoint` is set. */
  readonly endpoint: string;
  /** Full OTLP/HTTP traces URL; wins over `endpoint`. */
  readonly tracesEndpoint: string;
  /** The `service.name` of every span. */
  readonly serviceName: string;
  /** How long finished spans wait to be exported in one batch. */
  readonly scheduleDelayMs: number;
}

/** A started exporter; `stop` flushes the spans not yet sent. */
export interface TracingHandle {
  stop(): Promise<void>;
}

/** Where spans go, or undefined when tracing is off. */
export function tracesUrl(options: TracingOptions): string | undefined {
  if (options.tracesEndpoint !== '') return options.tracesEndpoint;
  if (options.endpoint === '') return undefined;
  return `${options.endpoint.replace(/\/+$/, '')}/v1/traces`;
}

/** The one provider of this process and how many nodes use it (tests run several nodes in one process). */
let running: { readonly shutdown: Promise<() => Promise<void>>; users: number } | undefined;

/**
 * Starts exporting spans over OTLP/HTTP (JSON) when an endpoint is configured; otherwise loads
 * nothing (the SDK is imported only here, dynamically) and returns undefined, leaving every span
 * helper a no-op. One provider serves the process: a second node started in it shares the first's
 * (whose id is the resource's `service.instance.id`), and the last `stop` flushes and shuts it down.
 */
export async function startTracing(options: TracingOptions, nodeId: string): Promise<TracingHandle | undefined> {
  const url = tracesUrl(options);
  if (url === undefined) return undefined;
  const shared = (running ??= { shutdown: startProvider(options, url, nodeId), users: 0 });
  shared.users += 1;
  try {
    await shared.shutdown;
  } catch (error) {
    if (running === shared) running = undefined; // the next node tries again
    throw error;
  }
  let stopped = false;
  return {
    stop: async () => {
      if (stopped) return;
      stopped = true;
      shared.users -= 1;
      if (shared.users > 0) return;
      if (running === shared) running = undefined;
      await (
        await shared.shutdown
      )();
    },
  };
}

/** Loads the SDK, installs its tracer and returns how to flush and remove it. */
async function startProvider(options: TracingOptions, url: string, nodeId: string): Promise<() => Promise<void>> {
  const [{ BasicTracerProvider, BatchSpanProcessor }, { OTLPTraceExporter }, { resourceFromAttributes }, core] =
    await Promise.all([
      import('@opentelemetry/sdk-trace-base'),
      import('@opentelemetry/exporter-trace-otlp-http'),
      import('@opentelemetry/resources'),
      import('@opentelemetry/core'),
    ]);
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': options.serviceName, 'service.instance.id': nodeId }),
    spanProcessors: [
      new BatchSpanProcessor(new OTLPTraceExporter({ url }), { scheduledDelayMillis: options.scheduleDelayMs }),
    ],
  });
  installTracer({ tracer: provider.getTracer('chorus'), propagator: new core.W3CTraceContextPropagator() });
  return async () => {
    installTracer(undefined);
    await provider.shutdown();
  };
}
