import { AsyncLocalStorage } from 'node:async_hooks';
import {
  ROOT_CONTEXT,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
  type SpanKind,
  type TextMapGetter,
  type TextMapPropagator,
  type TextMapSetter,
  type Tracer,
} from '@opentelemetry/api';

/**
 * The hot-path side of tracing (issue 14 §5). While tracing is off (no OTLP endpoint configured)
 * `tracer` stays undefined and every helper here returns at its first check: no span, no context
 * lookup, nothing allocated. startTracing installs a tracer and a propagator once the SDK is loaded.
 *
 * The active context lives in this module's own AsyncLocalStorage rather than in the OpenTelemetry
 * global context manager: nothing global is registered, so tracing can stop and start again in one
 * process (tests) and libraries that look for a global tracer see none.
 */

/** A trace context carried with a message from where it was sent to where it is handled. */
export type TraceContext = Context;

let tracer: Tracer | undefined;
let propagator: TextMapPropagator | undefined;
let scope: AsyncLocalStorage<Context> | undefined;

/** Installs (or, with undefined, removes) the tracer and the W3C propagator; called by startTracing. */
export function installTracer(next: { tracer: Tracer; propagator: TextMapPropagator } | undefined): void {
  tracer = next?.tracer;
  propagator = next?.propagator;
  if (next) scope ??= new AsyncLocalStorage<Context>();
}

/** True while spans are recorded. */
export function tracingOn(): boolean {
  return tracer !== undefined;
}

/**
 * The trace context work started now belongs to, for a message to carry to where it is handled;
 * undefined while tracing is off or outside any traced work.
 */
export function currentTrace(): Context | undefined {
  return tracer === undefined ? undefined : scope?.getStore();
}

/** Starts a span under `parent` (a root span without one); undefined while tracing is off. */
export function startSpan(
  name: string,
  kind: SpanKind,
  parent: Context | undefined,
  attributes?: Attributes,
): Span | undefined {
  return tracer?.startSpan(name, { kind, ...(attributes ? { attributes } : {}) }, parent ?? ROOT_CONTEXT);
}

/** Runs `work` with `span` as the active span, so what it sends is traced as the span's children. */
export function runInSpan<T>(parent: Context | undefined, span: Span, work: () => T): T {
  if (!scope) return work();
  return scope.run(trace.setSpan(parent ?? ROOT_CONTEXT, span), work);
}

/** Runs async `work` in `span` (see runInSpan) and ends the span once it settles, with its failure if any. */
export async function spanAround<T>(parent: Context | undefined, span: Span, work: () => Promise<T>): Promise<T> {
  try {
    const value = await runInSpan(parent, span, work);
    endSpan(span);
    return value;
  } catch (error) {
    endSpan(span, error);
    throw error;
  }
}

/** Ends `span`; a failure marks it as an error (its message only: bodies and stacks stay out of traces). */
export function endSpan(span: Span, failure?: unknown): void {
  if (failure !== undefined) {
    span.setStatus({ code: SpanStatusCode.ERROR, message: failure instanceof Error ? failure.message : 'failed' });
  }
  span.end();
}

/** W3C trace context headers, for a call to another process. */
export interface TraceHeaders {
  traceparent?: string;
  tracestate?: string;
}

/** The `traceparent` (and `tracestate`) naming `span` as the parent of the receiver's work. */
export function traceHeadersOf(span: Span): TraceHeaders {
  const headers: TraceHeaders = {};
  propagator?.inject(trace.setSpan(ROOT_CONTEXT, span), headers, headerSetter);
  return headers;
}

const headerSetter: TextMapSetter<TraceHeaders> = {
  set: (carrier, key, value) => {
    if (key === 'traceparent' || key === 'tracestate') carrier[key] = value;
  },
};

type HeaderReader = (name: string) => string | undefined;

const headerGetter: TextMapGetter<HeaderReader> = {
  keys: () => ['traceparent', 'tracestate'],
  get: (read, key) => read(key),
};

/** The remote parent named by W3C trace context headers (a root context when absent or malformed). */
export function contextFromHeaders(read: HeaderReader): Context {
  return propagator ? propagator.extract(ROOT_CONTEXT, read, headerGetter) : ROOT_CONTEXT;
}
