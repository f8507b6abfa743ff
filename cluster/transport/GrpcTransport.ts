import { Metadata, type ChannelOptions, type ServiceError } from '@grpc/grpc-js';
import type { ActorKind, CommandOf, ReplyOf } from '../../actors/runtime/ActorKind.js';
import type { DispatchEvent } from '../../proto/gen/chorus/v1/common.js';
import { toAppError, type AppError } from '../../src/domain/errors.js';
import type { Logger } from '../../src/domain/Logger.js';
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
 * RemoteTransport over gRPC NodeService: asks are Deliver calls with a deadline, tells and fan-out
 * batches are unary calls with a short default deadline whose failures are logged (nobody awaits
 * them), and frames for an edge node go down one long-lived PushFrames stream per node. Messages
 * are the generated proto types, binary-encoded once by the generated serializers.
 */
export class GrpcTransport implements RemoteTransport {
  readonly #clients: GrpcClientPool;
  readonly #edges: EdgeStreams;
  readonly #log: Logger;
  readonly #sendDeadlineMs: number;
  readonly #ringVersion: () => number;

  constructor(options: GrpcTransportOptions) {
    this.#log = options.log;
    this.#clients = new GrpcClientPool(options.channelOptions);
    this.#edges = new EdgeStreams(this.#clients, options.log);
    this.#sendDeadlineMs = options.sendDeadlineMs ?? DEFAULT_SEND_DEADLINE_MS;
    this.#ringVersion = options.ringVersion ?? (() => 0);
  }

  /** Deliver to the owner node; rejects with the remote AppError, or ServiceUnavailableError on transport failure. */
  ask<K extends ActorKind>(
    nodeId: string,
    kind: K,
    key: string,
    command: CommandOf<K>,
    deadlineMs: number,
  ): Promise<ReplyOf<K>> {
    const deadline = Date.now() + deadlineMs;
    const envelope = envelopeOf(kind, key, command, this.#ringVersion(), deadline);
    return new Promise<ReplyOf<K>>((resolve, reject) => {
      this.#clients.get(nodeId).deliver(envelope, new Metadata(), { deadline }, (error, reply) => {
        if (error) {
          reject(fromServiceError(error, nodeId));
          return;
        }
        try {
          resolve(openReply(kind, reply));
        } catch (mismatch) {
          reject(toAppError(mismatch));
        }
      });
    });
  }

  /** One-way message to an actor on another node; a failure is logged, not thrown. */
  tell<K extends ActorKind>(
    nodeId: string,
    kind: K,
    key: string,
    command: CommandOf<K>,
    done?: (error: AppError | undefined) => void,
  ): void {
    const deadline = Date.now() + this.#sendDeadlineMs;
    const envelope = envelopeOf(kind, key, command, this.#ringVersion(), deadline);
    this.#clients.get(nodeId).tell(envelope, new Metadata(), { deadline }, (error) => {
      if (error) this.#dropped('remote_tell_failed', nodeId, error, `${kind}:${key}`);
      done?.(error ? fromServiceError(error, nodeId) : undefined);
    });
  }

  /** One FanOut call carrying the event once for all of `sessionIds` on that node. */
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
    this.#clients.get(nodeId).fanOut(batch, new Metadata(), { deadline }, (error) => {
      if (error) this.#dropped('remote_fanout_failed', nodeId, error, event.event, sessionIds.length);
      done?.(error ? fromServiceError(error, nodeId) : undefined);
    });
  }

  /** Frames for a socket on an edge node, in order, over that node's PushFrames stream. */
  pushFrames(nodeId: string, socketId: string, frames: readonly string[], closeCode: number): void {
    this.#edges.push(nodeId, socketId, frames, closeCode);
  }

  /** Forgets a node that left the view: ends its frame stream and closes its channel. */
  forget(nodeId: string): void {
    this.#edges.end(nodeId);
    this.#clients.drop(nodeId);
  }

  /** Ends every stream and closes every channel (node shutdown). */
  close(): void {
    this.#edges.close();
    this.#clients.close();
  }

  #dropped(event: string, nodeId: string, error: ServiceError, what: string, sessions?: number): void {
    const err = fromServiceError(error, nodeId);
    this.#log.warn(event, { node: nodeId, target: what, sessions, kind: err.kind, err: err.message });
  }
}
