import type { ActorHost } from '../actors/runtime/ActorHost.js';
import { ActorKind, type CommandOf } from '../actors/runtime/ActorKind.js';
import type { DispatchEvent } from '../proto/gen/chorus/v1/common.js';
import { toAppError, UnknownEntityError } from '../src/domain/errors.js';
import type { Logger } from '../src/domain/Logger.js';
import { groupByOwner } from './groupByOwner.js';
import { tellHere } from './localTells.js';
import type { ChannelHomes } from './placement/ChannelHomes.js';
import type { RemoteRedelivery } from './RemoteRedelivery.js';
import type { RemoteTransport } from './transport/RemoteTransport.js';

/** What the one-way paths need from the router (ActorSystem). */
export interface OneWaySendsDeps {
  readonly nodeId: string;
  readonly log: Logger;
  /** Tells and fan-out batches a node did not take, held until they can go to a live owner (cluster mode). */
  readonly redelivery: RemoteRedelivery | undefined;
  /** The channel placement in force (replaced once the store lookup is bound). */
  readonly homes: () => ChannelHomes;
  /** Members of the current view. */
  readonly memberCount: () => number;
  readonly ownerOf: (kind: ActorKind, key: string) => string;
  readonly local: () => ActorHost;
  readonly remote: () => RemoteTransport;
  /** Hands a batch to this node's Session actors. */
  readonly deliverFanOut: (sessionIds: readonly string[], event: DispatchEvent, source: string) => Promise<void>;
}

/**
 * The router's one-way paths: a tell to the owner of one actor, and a fan-out grouped by the node
 * owning each session. Neither waits for an answer; in cluster mode a send a node did not take is
 * re-routed under the then current view (RemoteRedelivery, tellHere).
 */
export class OneWaySends {
  constructor(private readonly deps: OneWaySendsDeps) {}

  tell<K extends ActorKind>(kind: K, key: string, command: CommandOf<K>): void {
    this.#tell(kind, key, command, 0);
  }

  fanOut(sessionIds: readonly string[], event: DispatchEvent, source: string): void {
    this.#fanOut(sessionIds, event, source, 0);
  }

  /** `moves`: how often this tell was re-routed already because a node did not own the actor. */
  #tell<K extends ActorKind>(kind: K, key: string, command: CommandOf<K>, moves: number): void {
    const homes = this.deps.homes();
    if (!homes.mustWait(kind, key, this.deps.memberCount())) {
      this.#tellPlaced(kind, key, command, moves);
      return;
    }
    homes.whenPlaced(
      kind,
      key,
      () => {
        this.#tellPlaced(kind, key, command, moves);
      },
      (error) => {
        // No such channel (deleted meanwhile): nothing to tell. A failed lookup loses the tell, as a failed send would.
        if (!(error instanceof UnknownEntityError))
          this.deps.log.warn('tell_dropped', { actor: `${kind}:${key}`, err: error.message });
      },
    );
  }

  #tellPlaced<K extends ActorKind>(kind: K, key: string, command: CommandOf<K>, moves: number): void {
    const { nodeId, redelivery, log } = this.deps;
    const owner = this.deps.ownerOf(kind, key);
    const resend = (next: number): void => {
      this.#tell(kind, key, command, next);
    };
    try {
      if (owner === nodeId && redelivery) {
        const run = (): Promise<unknown> => this.deps.local().ask(kind, key, command);
        tellHere(run, resend, moves, `${kind}:${key}`, log);
      } else if (owner === nodeId) this.deps.local().tell(kind, key, command);
      else if (redelivery) {
        const remote = this.deps.remote();
        redelivery.send(
          owner,
          (done) => {
            remote.tell(owner, kind, key, command, done);
          },
          { moves, reroute: resend },
          `${kind}:${key}`,
        );
      } else this.deps.remote().tell(owner, kind, key, command);
    } catch (error) {
      log.warn('tell_dropped', { actor: `${kind}:${key}`, err: toAppError(error).message });
    }
  }

  #fanOut(sessionIds: readonly string[], event: DispatchEvent, source: string, moves: number): void {
    const { nodeId, redelivery } = this.deps;
    const byNode = groupByOwner(sessionIds, (sessionId) => this.deps.ownerOf(ActorKind.Session, sessionId));
    for (const [node, group] of byNode) {
      if (node === nodeId) void this.deps.deliverFanOut(group, event, source);
      else if (redelivery) {
        const remote = this.deps.remote();
        redelivery.send(
          node,
          (done) => {
            remote.fanOut(node, group, event, source, done);
          },
          {
            moves,
            reroute: (next) => {
              this.#fanOut(group, event, source, next);
            },
            abandon: (reason) => {
              this.#invalidateSessions(group, `${event.event} undeliverable: ${reason}`);
            },
          },
          `${event.event} to ${group.length} sessions`,
        );
      } else this.deps.remote().fanOut(node, group, event, source);
    }
  }

  /** Sessions that missed an event for good end (op 9), rather than resume as if they had it (§8.7). */
  #invalidateSessions(sessionIds: readonly string[], reason: string): void {
    for (const sessionId of sessionIds) {
      this.tell(ActorKind.Session, sessionId, { command: { $case: 'invalidate', invalidate: { reason } } });
    }
  }
}
