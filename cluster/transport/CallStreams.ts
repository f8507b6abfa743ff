import { Metadata, status, type ClientDuplexStream, type StatusObject } from '@grpc/grpc-js';
import type { Call, CallBatch, Reply, Result, ResultBatch } from '../../proto/gen/chorus/v1/node.js';
import type { AppError } from '../../src/domain/errors.js';
import type { TraceHeaders } from '../../src/tracing/traceScope.js';
import { decodeAppError, fromServiceError } from './errorCodec.js';
import type { GrpcClientPool } from './GrpcClientPool.js';

/** How one call ends: a reply (undefined for a one-way call's acknowledgement) or an AppError. */
export type Settle = (error: AppError | undefined, reply?: Reply) => void;

/** What one Call carries: an actor request (an Envelope) or a fan-out batch (a SessionBatch). */
export type CallBody = NonNullable<Call['body']>;

/** Sends one call the old way, as a unary Deliver, Tell or FanOut (a peer of a version without Exchange). */
export type UnaryCall = (
  nodeId: string,
  body: CallBody,
  oneWay: boolean,
  deadlineAtMs: number,
  settle: Settle,
  trace: TraceHeaders | undefined,
) => void;

interface Pending {
  readonly body: CallBody;
  readonly oneWay: boolean;
  readonly deadlineAtMs: number;
  readonly settle: Settle;
  readonly timer: ReturnType<typeof setTimeout>;
  readonly trace: TraceHeaders | undefined;
}

/** One open Exchange stream and the calls sent down it that have no Result yet. */
interface Peer {
  readonly stream: ClientDuplexStream<CallBatch, ResultBatch>;
  readonly pending: Map<string, Pending>;
  queued: Call[];
}

/** A batch is written early once it holds this many calls (keeps one message well under the size cap). */
const FLUSH_AT_CALLS = 256;

/**
 * Asks, tells and fan-out batches to other nodes over one long-lived Exchange stream per node, so
 * what goes to one node leaves in issue order. Calls issued during one turn of the event loop are
 * written as one CallBatch, and each Result settles its call by id. A
 * call whose deadline passes is settled with the ServiceUnavailableError a unary call gets for
 * DEADLINE_EXCEEDED; when the stream fails or ends, every call pending on it is settled with the
 * transport failure (as a unary call's UNAVAILABLE), and the next call opens a new stream. A peer
 * of a previous version answers UNIMPLEMENTED: its pending calls and all later ones go by `unary`.
 */
export class CallStreams {
  readonly #peers = new Map<string, Peer>();
  readonly #dirty = new Set<Peer>();
  /** Peers without the Exchange method (a rolling upgrade in progress). */
  readonly #unaryPeers = new Set<string>();
  #nextId = 0;
  #flushScheduled = false;

  constructor(
    private readonly clients: GrpcClientPool,
    private readonly unary: UnaryCall,
  ) {}

  /**
   * Sends `body` to `nodeId`; `settle` runs once, with its Result, the deadline or the stream's end.
   * `trace` (a traced caller's W3C trace context) rides on the Call, as a unary call's gRPC metadata would.
   */
  call(
    nodeId: string,
    body: CallBody,
    oneWay: boolean,
    deadlineAtMs: number,
    settle: Settle,
    trace?: TraceHeaders,
  ): void {
    if (this.#unaryPeers.has(nodeId)) {
      this.unary(nodeId, body, oneWay, deadlineAtMs, settle, trace);
      return;
    }
    const peer = this.#peers.get(nodeId) ?? this.#open(nodeId);
    const id = String((this.#nextId += 1));
    const timer = setTimeout(
      () => {
        if (peer.pending.delete(id)) settle(transportFailure(status.DEADLINE_EXCEEDED, 'Deadline exceeded', nodeId));
      },
      Math.max(0, deadlineAtMs - Date.now()),
    );
    peer.pending.set(id, { body, oneWay, deadlineAtMs, settle, timer, trace });
    peer.queued.push(trace ? { id, body, oneWay, ...trace } : { id, body, oneWay });
    if (peer.queued.length >= FLUSH_AT_CALLS) this.#write(peer);
    else this.#dirty.add(peer);
    if (!this.#flushScheduled) {
      this.#flushScheduled = true;
      setImmediate(() => {
        this.#flush();
      });
    }
  }

  /** Cuts the stream to one node (it left the view); its pending calls fail as a lost connection. */
  end(nodeId: string): void {
    this.#unaryPeers.delete(nodeId);
    this.#peers.get(nodeId)?.stream.cancel();
  }

  /** Cuts every stream (node shutdown). */
  close(): void {
    for (const peer of [...this.#peers.values()]) peer.stream.cancel();
  }

  #flush(): void {
    this.#flushScheduled = false;
    for (const peer of this.#dirty) this.#write(peer);
    this.#dirty.clear();
  }

  #write(peer: Peer): void {
    if (peer.queued.length === 0) return;
    const calls = peer.queued;
    peer.queued = [];
    peer.stream.write({ calls });
  }

  #open(nodeId: string): Peer {
    // No deadline: the stream lives as long as the peer; keepalive pings detect a dead one.
    const stream = this.clients.get(nodeId).exchange(new Metadata(), {});
    const peer: Peer = { stream, pending: new Map(), queued: [] };
    this.#peers.set(nodeId, peer);
    stream.on('data', (batch: ResultBatch) => {
      for (const result of batch.results) settleResult(peer, result);
    });
    // 'status' comes once, however the stream ended; 'error' repeats a non-OK status (handled there).
    stream.on('error', () => undefined);
    stream.on('status', (ended: StatusObject) => {
      if (this.#peers.get(nodeId) === peer) this.#peers.delete(nodeId);
      this.#dirty.delete(peer);
      const error =
        ended.code === status.OK
          ? transportFailure(status.UNAVAILABLE, 'call stream ended', nodeId)
          : fromServiceError(ended, nodeId);
      const pending = [...peer.pending.values()];
      peer.pending.clear();
      const older = ended.code === status.UNIMPLEMENTED;
      if (older) this.#unaryPeers.add(nodeId);
      for (const call of pending) {
        clearTimeout(call.timer);
        if (older) this.unary(nodeId, call.body, call.oneWay, call.deadlineAtMs, call.settle, call.trace);
        else call.settle(error);
      }
    });
    return peer;
  }
}

function settleResult(peer: Peer, { id, outcome }: Result): void {
  const pending = peer.pending.get(id);
  if (!pending) return; // its deadline passed already
  peer.pending.delete(id);
  clearTimeout(pending.timer);
  if (outcome?.$case === 'failure') pending.settle(decodeAppError(outcome.failure.appError));
  else pending.settle(undefined, outcome?.reply);
}

/** The AppError a unary call gets when grpc-js itself fails it with `code`. */
function transportFailure(code: status, details: string, nodeId: string): AppError {
  return fromServiceError({ code, details, metadata: new Metadata() }, nodeId);
}
