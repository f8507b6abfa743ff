import type { DispatchEvent } from '../../proto/gen/chorus/v1/common.js';
import type { ActorKind, CommandOf, ReplyOf } from '../../actors/runtime/ActorKind.js';
import type { AppError } from '../../src/domain/errors.js';

/** How the actor system reaches other nodes (gRPC in cluster mode; absent in embedded mode). */
export interface RemoteTransport {
  ask<K extends ActorKind>(
    nodeId: string,
    kind: K,
    key: string,
    command: CommandOf<K>,
    deadlineMs: number,
  ): Promise<ReplyOf<K>>;
  /** One-way message; `done` is called once the node took it, or with the failure (see fanOut). */
  tell<K extends ActorKind>(
    nodeId: string,
    kind: K,
    key: string,
    command: CommandOf<K>,
    done?: (error: AppError | undefined) => void,
  ): void;
  /**
   * One batch for the sessions on `nodeId`; `source` is the fanning actor (`kind:key`). `done` is
   * called once the node took the batch (no error) or the send failed (nothing was delivered, or
   * it is unknown whether it was).
   */
  fanOut(
    nodeId: string,
    sessionIds: readonly string[],
    event: DispatchEvent,
    source?: string,
    done?: (error: AppError | undefined) => void,
  ): void;
  pushFrames(nodeId: string, socketId: string, frames: readonly string[], closeCode: number): void;
}
