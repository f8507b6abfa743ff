import type { ServerDuplexStream } from '@grpc/grpc-js';
import {
  Envelope,
  type Call,
  type CallBatch,
  type Reply,
  type Result,
  type ResultBatch,
} from '../../proto/gen/chorus/v1/node.js';
import { ServiceUnavailableError, toAppError } from '../../src/domain/errors.js';
import type { Logger } from '../../src/domain/Logger.js';
import { envelopeAttributes, eventAttributes, servedInSpan } from './callSpans.js';
import { encodeAppError } from './errorCodec.js';
import type { LocalNode } from './LocalNode.js';
import { serveCall, serveFanOut } from './serveCall.js';

/** A batch is written early once it holds this many results (replies can be large; one message is capped). */
const FLUSH_AT_RESULTS = 100;

/**
 * Serves one Exchange stream: each Call of a CallBatch is handled exactly like a unary Deliver,
 * Tell (serveCall) or FanOut (serveFanOut, acknowledged with an empty Result once it ran), and the Results produced during one turn of the event loop go back as one
 * ResultBatch. A call whose deadline already passed is skipped (its caller gave up; nobody waits for
 * the work). Failures travel in-band as errorCodec's payload, so the caller rebuilds the same class.
 * When the caller ends its side, the stream is ended once the asks in flight have answered.
 */
export function serveExchange(
  call: ServerDuplexStream<CallBatch, ResultBatch>,
  current: () => LocalNode | undefined,
  log: Logger,
): void {
  let results: Result[] = [];
  let inFlight = 0;
  let ending = false;
  let gone = false;

  const flush = (): void => {
    const batch = results;
    results = [];
    if (!gone && batch.length > 0) call.write({ results: batch });
    if (ending && inFlight === 0 && !gone) {
      gone = true;
      call.end();
    }
  };
  const answer = (result: Result): void => {
    if (results.length === 0) setImmediate(flush);
    results.push(result);
    if (results.length >= FLUSH_AT_RESULTS) flush();
  };
  const fail = (id: string, error: unknown, actor: string | undefined): void => {
    if (toAppError(error).kind === 'internal')
      log.error('grpc_handler_failed', { method: 'exchange', actor, err: error });
    answer({ id, outcome: { $case: 'failure', failure: { appError: encodeAppError(error) } } });
  };

  const serve = (node: LocalNode | undefined, one: Call): void => {
    const { id, body, oneWay } = one;
    const envelope = body?.$case === 'envelope' ? body.envelope : undefined;
    const actor = envelope?.actorId;
    if (!node) {
      fail(id, new ServiceUnavailableError('Node is starting'), actor);
      return;
    }
    const deadline = Number(envelope?.deadlineMs ?? 0);
    if (deadline > 0 && deadline < Date.now()) return;
    let reply;
    try {
      if (one.traceparent !== undefined) reply = tracedServe(node, one);
      else if (body?.$case === 'fanOut') reply = serveFanOut(node, body.fanOut);
      else reply = serveCall(node, envelope ?? Envelope.fromPartial({}), oneWay);
    } catch (error) {
      fail(id, error, actor);
      return;
    }
    inFlight += 1;
    reply.then(
      (value) => {
        inFlight -= 1;
        // A tell or a batch is acknowledged (no outcome) once it ran; an ask carries its reply.
        answer(value === undefined ? { id } : { id, outcome: { $case: 'reply', reply: value } });
      },
      (error: unknown) => {
        inFlight -= 1;
        fail(id, error, actor);
      },
    );
  };

  call.on('data', (batch: CallBatch) => {
    const node = current();
    for (const one of batch.calls) serve(node, one);
  });
  call.on('end', () => {
    ending = true;
    if (results.length === 0) flush();
  });
  // The caller went away (its node died or cut the stream): its pending calls fail on its side.
  call.on('error', () => {
    gone = true;
  });
  call.on('cancelled', () => {
    gone = true;
  });
}

/** Serves a Call that carries its caller's trace context inside a SERVER span (callSpans). */
function tracedServe(node: LocalNode, { body, oneWay, traceparent, tracestate }: Call): Promise<Reply | undefined> {
  const read = (name: string): string | undefined => (name === 'traceparent' ? traceparent : tracestate);
  if (body?.$case === 'fanOut') {
    return servedInSpan('FanOut', read, eventAttributes, body.fanOut.event, () => serveFanOut(node, body.fanOut));
  }
  const envelope = body?.envelope ?? Envelope.fromPartial({});
  return servedInSpan(oneWay ? 'Tell' : 'Deliver', read, envelopeAttributes, envelope, () =>
    serveCall(node, envelope, oneWay),
  );
}
