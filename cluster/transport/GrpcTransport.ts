import type { ChannelOptions, ServiceError } from '@grpc/grpc-js';
import type { ActorKind, CommandOf, ReplyOf } from '../../actors/runtime/ActorKind.js';
import type { DispatchEvent } from '../../proto/gen/chorus/v1/common.js';
import type { Reply } from '../../proto/gen/chorus/v1/node.js';
import { toAppError, type AppError } from '../../src/domain/errors.js';
import type { Logger } from '../../src/domain/Logger.js';
import { batchAttributes, endCallTrace, envelopeAttributes, metadataOf, startCallTrace } from './callSpans.js';
import { CallStreams } from './CallStreams.js';
import { EdgeStreams } from './EdgeStreams.js';
import { envelopeOf, openReply } from './envelopeCodec.js';
import { fromServiceError } from './errorCodec.js';
import { GrpcClientPool } from './GrpcClientPool.js';
import type { RemoteTransport } from './RemoteTransport.js';

/** Options of the gRPC transport (owned here; the composition root fills them from Config). */
export interface GrpcTransportOptions {
  readonly log: Logger;
  /** Deadline of one-way calls (tell, fan-out): nobody awaits them, but they must not hang forever. */
  readonly sendDeadlineMs?: number;
  /** The membership view version stamped on each envelope (the receiver names it on NOT_OWNER). */
  readonly ringVersion?: () => number;
  /** Overrides of the client channel options (tests). */
  readonly channelOptions?: ChannelOptions;
}

const DEFAULT_SEND_DEADLINE_MS = 5_000;

/**
 * RemoteTransport over gRPC NodeService: asks, tells and fan-out batches travel on one long-lived
 * Exchange stream per node, batched per event-loop turn and in issue order (CallStreams; tells and
 * fan-outs are acknowledged, with a short default deadline, and their failures logged), and frames
 * for an edge node go down one long-lived PushFrames stream per node. Messages are the generated
 * proto types, binary-encoded once by the generated serializers.
 */
export class GrpcTransport implements RemoteTransport {
  readonly #clients: GrpcClientPool;
  readonly #calls: CallStreams;
  readonly #edges: EdgeStreams;
  readonly #log: Logger;
  readonly #sendDeadlineMs: number;
  readonly #ringVersion: () => number;

  constructor(options: GrpcTransportOptions) {
    this.#log = options.log;
    this.#clients = new GrpcClientPool(options.channelOptions);
    this.#calls = new CallStreams(this.#clients, (nodeId, body, oneWay, deadline, settle, trace) => {
      const back = (error: ServiceError | null, reply?: Reply): void => {
        settle(error ? fromServiceError(error, nodeId) : undefined, reply);
      };
      const client = this.#clients.get(nodeId);
      const metadata = metadataOf(trace);
      if (body.$case === 'fanOut') client.fanOut(body.fanOut, metadata, { deadline }, back);
      else if (oneWay) client.tell(body.envelope, metadata, { deadline }, back);
      else client.deliver(body.envelope, metadata, { deadline }, back);
    });
    this.#edges = new EdgeStreams(this.#clients, options.log);
    this.#sendDeadlineMs = options.sendDeadlineMs ?? DEFAULT_SEND_DEADLINE_MS;
    this.#ringVersion = options.ringVersion ?? (() => 0);
  }

  /** Asks the owner node over its Exchange stream; rejects with the remote AppError, or ServiceUnavailableError on transport failure. */
  ask<K extends ActorKind>(
    nodeId: string,
    kind: K,
    key: string,
    command: CommandOf<K>,
    deadlineMs: number,
  ): Promise<ReplyOf<K>> {
    const deadline = Date.now() + deadlineMs;
    const envelope = envelopeOf(kind, key, command, this.#ringVersion(), deadline);
    const trace = startCallTrace('Deliver', nodeId, envelopeAttributes, envelope);
    return new Promise<ReplyOf<K>>((resolve, reject) => {
      const settle = (error: AppError | undefined, reply?: Reply): void => {
        endCallTrace(trace, error);
        if (error) {
          reject(error);
          return;
        }
        try {
          resolve(openReply(kind, reply ?? {}));
        } catch (mismatch) {
          reject(toAppError(mismatch));
        }
      };
      this.#calls.call(nodeId, { $case: 'envelope', envelope }, false, deadline, settle, trace?.headers);
    });
  }

  /** One-way message to an actor on another node; `done` runs once the node acknowledged it, or with the failure (logged). */
  tell<K extends ActorKind>(
    nodeId: string,
    kind: K,
    key: string,
    command: CommandOf<K>,
    done?: (error: AppError | undefined) => void,
  ): void {
    const deadline = Date.now() + this.#sendDeadlineMs;
    const envelope = envelopeOf(kind, key, command, this.#ringVersion(), deadline);
    const trace = startCallTrace('Tell', nodeId, envelopeAttributes, envelope);
    const settle = (error: AppError | undefined): void => {
      endCallTrace(trace, error);
      if (error) this.#dropped('remote_tell_failed', nodeId, error, `${kind}:${key}`);
      done?.(error);
    };
    this.#calls.call(nodeId, { $case: 'envelope', envelope }, true, deadline, settle, trace?.headers);
  }

  /** One batch carrying the event once for all of `sessionIds` on that node, on its Exchange stream; `done` as for tell. */
  fanOut(
    nodeId: string,
    sessionIds: readonly string[],
    event: DispatchEvent,
    source = '',
    done?: (error: AppError | undefined) => void,
  ): void {
    const deadline = Date.now() + this.#sendDeadlineMs;
    // The encoder only reads `sessionIds`, so the caller's array goes out without a copy.
    const batch = { event, sessionIds: sessionIds as string[], source };
    const trace = startCallTrace('FanOut', nodeId, batchAttributes, batch);
    const settle = (failure: AppError | undefined): void => {
      endCallTrace(trace, failure);
      if (failure) this.#dropped('remote_fanout_failed', nodeId, failure, event.event, sessionIds.length);
      done?.(failure);
    };
    this.#calls.call(nodeId, { $case: 'fanOut', fanOut: batch }, true, deadline, settle, trace?.headers);
  }

  /** Frames for a socket on an edge node, in order, over that node's PushFrames stream. */
  pushFrames(nodeId: string, socketId: string, frames: readonly string[], closeCode: number): void {
    this.#edges.push(nodeId, socketId, frames, closeCode);
  }

  /** Forgets a node that left the view: ends its frame stream and closes its channel. */
  forget(nodeId: string): void {
    this.#calls.end(nodeId);
    this.#edges.end(nodeId);
    this.#clients.drop(nodeId);
  }

  /** Ends every stream and closes every channel (node shutdown). */
  close(): void {
    this.#calls.close();
    this.#edges.close();
    this.#clients.close();
  }

  #dropped(event: string, nodeId: string, err: AppError, what: string, sessions?: number): void {
    this.#log.warn(event, { node: nodeId, target: what, sessions, kind: err.kind, err: err.message });
  }
}
