import type { DispatchEvent } from '../../proto/gen/chorus/v1/common.js';
import type { ActorKind, CommandOf, ReplyOf } from '../../actors/runtime/ActorKind.js';

/** How the actor system reaches other nodes (gRPC in cluster mode; absent in embedded mode). */
export interface RemoteTransport {
  ask<K extends ActorKind>(
    nodeId: string,
    kind: K,
    key: string,
    command: CommandOf<K>,
    deadlineMs: number,
  ): Promise<ReplyOf<K>>;
  tell<K extends ActorKind>(nodeId: string, kind: K, key: string, command: CommandOf<K>): void;
  fanOut(nodeId: string, sessionIds: readonly string[], event: DispatchEvent): void;
  pushFrames(nodeId: string, socketId: string, frames: readonly string[], closeCode: number): void;
}
