import type { DispatchEvent } from '../../proto/gen/chorus/v1/common.js';
import type { Clock } from '../../src/domain/Clock.js';
import type { Logger } from '../../src/domain/Logger.js';
import type { SnowflakeGenerator } from '../../src/domain/snowflake.js';
import type { ActorKind, CommandOf, ReplyOf } from './ActorKind.js';

/**
 * What the actor system offers actors: typed calls to other actors, fan-out batched per node, and
 * frames pushed to the edge holding a socket. Implemented by cluster/ActorSystem; actors see only this.
 */
export interface ActorMessenger {
  /** Request-reply with a deadline (ms); rejects with ServiceUnavailableError when it passes. */
  ask<K extends ActorKind>(kind: K, key: string, command: CommandOf<K>, deadlineMs?: number): Promise<ReplyOf<K>>;
  /** Fire-and-forget; a Guild uses only this toward Channels and Sessions (no awaits, no deadlock). */
  tell<K extends ActorKind>(kind: K, key: string, command: CommandOf<K>): void;
  /**
   * Sends one event to many sessions: grouped by hosting node, serialized once per node. `source`
   * (`kind:key` of the sender, filled in by the host) is told to forget sessions found to be gone.
   */
  fanOut(sessionIds: readonly string[], event: DispatchEvent, source?: string): void;
  /** Pushes gateway frames to a socket on an edge node; closes it after them when closeCode > 0. */
  pushFrames(nodeId: string, socketId: string, frames: readonly string[], closeCode?: number): void;
  /** True when the actor is placed on this node under the current view (always, on one node): a call costs no hop. */
  livesHere(kind: ActorKind, key: string): boolean;
}

/** Everything one actor may use besides its storage ports. */
export interface ActorContext extends ActorMessenger {
  readonly kind: ActorKind;
  readonly key: string;
  /** This node's id (`host:port@incarnation`), e.g. for a session's socket address. */
  readonly nodeId: string;
  readonly clock: Clock;
  readonly log: Logger;
  readonly ids: SnowflakeGenerator;
  /** Tells this actor `command` after `delayMs`; timers never touch state themselves. Returns a cancel. */
  tellSelfAfter(delayMs: number, command: CommandOf<ActorKind>): () => void;
  /** Asks the host to stop this actor once its current turn ends. */
  stopSelf(): void;
  /**
   * Stops this activation now: it learned it was deposed (a write refused as stale). Messages waiting
   * for it are refused with WrongOwnerError, so their senders route them to the owner again.
   */
  evictSelf(): void;
}
