import type { ActorKind, CommandOf, ReplyOf } from '../../actors/runtime/ActorKind.js';
import type { DispatchEvent } from '../../proto/gen/chorus/v1/common.js';

/** What the gRPC server needs from this node's actor system (implemented by cluster/ActorSystem). */
export interface LocalNode {
  /** This node's id, `host:port@incarnation`. */
  readonly nodeId: string;
  /** Version of the membership view this node routes by. */
  readonly ringVersion: number;
  /** The node owning `kind:key` under this node's current view. */
  ownerOf(kind: ActorKind, key: string): string;
  /** Asks an actor hosted here; throws WrongOwnerError when this node does not own it. */
  askLocal<K extends ActorKind>(kind: K, key: string, command: CommandOf<K>): Promise<ReplyOf<K>>;
  /**
   * Tells an actor hosted here; throws WrongOwnerError when this node does not own it. A promise
   * settles once the actor ran the message (the sender acknowledges only then, so a message this
   * node took and then lost by dying is sent again); it rejects when the message was not run.
   */
  tellLocal<K extends ActorKind>(kind: K, key: string, command: CommandOf<K>): void | Promise<void>;
  /** Hands one fan-out batch to the Session actors hosted here (`source`, `kind:key`, sent it); a promise as for tellLocal. */
  deliverFanOut(sessionIds: readonly string[], event: DispatchEvent, source?: string): void | Promise<void>;
  /** Hands frames to a socket held by this node's gateway. */
  deliverFrames(socketId: string, frames: readonly string[], closeCode: number): void;
}
