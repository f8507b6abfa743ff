import { Metadata } from '@grpc/grpc-js';
import { SpanKind, type Attributes, type Span } from '@opentelemetry/api';
import type { DispatchEvent } from '../../proto/gen/chorus/v1/common.js';
import type { Envelope, SessionBatch } from '../../proto/gen/chorus/v1/node.js';
import {
  contextFromHeaders,
  currentTrace,
  endSpan,
  spanAround,
  startSpan,
  traceHeadersOf,
  tracingOn,
  type TraceHeaders,
} from '../../src/tracing/traceScope.js';

/** The NodeService method a call stands for (an ask is a Deliver, whether unary or on the Exchange stream). */
export type NodeMethod = 'Deliver' | 'Tell' | 'FanOut';

const SERVICE = 'chorus.v1.NodeService';

/**
 * Builds a span's attributes from what the call carries. The span helpers take a builder and its argument,
 * not the attributes, and call it only once a span is started: a call while tracing is off (or outside any
 * trace) allocates no attributes, and a module-level builder needs no closure either.
 */
export type AttributesOf<T> = (target: T) => Attributes;

/** The span attributes naming the actor a Deliver or Tell is for (the same on both sides of the call). */
export function envelopeAttributes(envelope: Envelope): Attributes {
  return { 'chorus.actor.kind': envelope.body?.$case ?? '', 'chorus.actor.key': envelope.actorId };
}

/** The span attributes naming the event a FanOut carries (served side). */
export function eventAttributes(event: DispatchEvent | undefined): Attributes {
  return { 'chorus.event': event?.event ?? '' };
}

/** The span attributes of a FanOut's CLIENT span: its event and how many sessions it is for. */
export function batchAttributes(batch: SessionBatch): Attributes {
  return { 'chorus.event': batch.event?.event ?? '', 'chorus.sessions': batch.sessionIds.length };
}

/** A remote call's CLIENT span and the trace context headers naming it as the receiver's parent. */
export interface CallTrace {
  readonly span: Span;
  readonly headers: TraceHeaders;
}

/**
 * Starts the CLIENT span of a call to `nodeId` when the caller works inside a trace (an HTTP
 * request, an actor turn it caused); undefined otherwise, so untraced traffic (and everything while
 * tracing is off) costs one check.
 */
export function startCallTrace<T>(
  method: NodeMethod,
  nodeId: string,
  attributesOf: AttributesOf<T>,
  target: T,
): CallTrace | undefined {
  const parent = currentTrace();
  if (parent === undefined) return undefined;
  const span = startSpan(`${SERVICE}/${method}`, SpanKind.CLIENT, parent, {
    'rpc.system': 'grpc',
    'rpc.service': SERVICE,
    'rpc.method': method,
    'chorus.peer.node': nodeId,
    ...attributesOf(target),
  });
  return span ? { span, headers: traceHeadersOf(span) } : undefined;
}

/** gRPC metadata of a unary call: its `traceparent` / `tracestate` when traced, empty otherwise. */
export function metadataOf(trace: TraceHeaders | undefined): Metadata {
  const metadata = new Metadata();
  if (trace?.traceparent) metadata.set('traceparent', trace.traceparent);
  if (trace?.tracestate) metadata.set('tracestate', trace.tracestate);
  return metadata;
}

/** Reads a trace context header from a unary call's gRPC metadata. */
export function headerOf(metadata: Metadata): (name: string) => string | undefined {
  return (name) => {
    const value = metadata.get(name)[0];
    return typeof value === 'string' ? value : undefined;
  };
}

/**
 * Serves a call from another node inside a SERVER span, child of the caller's CLIENT span named by
 * its trace context, so the actor turn it causes here joins the caller's trace. A call that carries
 * no context (its caller was not traced, or tracing is off here) is served directly.
 */
export function servedInSpan<T, R>(
  method: NodeMethod,
  read: (name: string) => string | undefined,
  attributesOf: AttributesOf<T>,
  target: T,
  serve: () => Promise<R>,
): Promise<R> {
  if (!tracingOn() || read('traceparent') === undefined) return serve();
  const parent = contextFromHeaders(read);
  const span = startSpan(`${SERVICE}/${method}`, SpanKind.SERVER, parent, {
    'rpc.system': 'grpc',
    'rpc.service': SERVICE,
    'rpc.method': method,
    ...attributesOf(target),
  });
  if (!span) return serve();
  return spanAround(parent, span, serve);
}

/** Ends a CLIENT span once its call settled (with the failure, if any). */
export function endCallTrace(trace: CallTrace | undefined, failure?: unknown): void {
  if (trace) endSpan(trace.span, failure);
}
