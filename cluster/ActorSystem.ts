import type { ActorHost } from '../actors/runtime/ActorHost.js';
import type { ActorMessenger } from '../actors/runtime/ActorContext.js';
import { ActorKind, type CommandOf, type ReplyOf } from '../actors/runtime/ActorKind.js';
import type { DispatchEvent } from '../proto/gen/chorus/v1/common.js';
import { ServiceUnavailableError, toAppError } from '../src/domain/errors.js';
import type { Logger } from '../src/domain/Logger.js';
import type { HashRing } from './ring/HashRing.js';
import type { RemoteTransport } from './transport/RemoteTransport.js';

// The edge addresses actors through the system only, so it takes the kinds from here (S1).
export { ActorKind } from '../actors/runtime/ActorKind.js';
export type { CommandOf, ReplyOf } from '../actors/runtime/ActorKind.js';

/** Cluster options (owned here, composed into Config). */
export interface ClusterOptions {
  /** Default deadline of an actor request. */
  readonly askDeadlineMs: number;
  /** Points per member on the hash ring. */
  readonly vnodesPerNode: number;
}

/** Receives frames for sockets this node holds (registered by the gateway). */
export type EdgeSink = (socketId: string, frames: readonly string[], closeCode: number) => void;

/**
 * The router: every actor call goes through here. It asks the ring who owns `kind:key` and calls the
 * local host or, for another node, the remote transport, so a local actor and a remote one look the
 * same to the edge and to actors. In embedded mode the ring has one member: this node.
 */
export class ActorSystem implements ActorMessenger {
  #host: ActorHost | undefined;
  #edge: EdgeSink | undefined;

  constructor(
    readonly nodeId: string,
    private ring: HashRing,
    private readonly options: ClusterOptions,
    private readonly log: Logger,
    private readonly transport?: RemoteTransport,
  ) {}

  /** Connects the local host (created after the system, since actors message through it). */
  bindHost(host: ActorHost): void {
    this.#host = host;
  }

  /** Connects the gateway's socket table. */
  bindEdge(sink: EdgeSink): void {
    this.#edge = sink;
  }

  /** Installs a newer membership view. */
  updateRing(ring: HashRing): void {
    if (ring.version >= this.ring.version) this.ring = ring;
  }

  /** The node owning an actor under the current view. */
  ownerOf(kind: ActorKind, key: string): string {
    return this.ring.ownerOf(`${kind}:${key}`);
  }

  ask<K extends ActorKind>(kind: K, key: string, command: CommandOf<K>, deadlineMs?: number): Promise<ReplyOf<K>> {
    const budget = deadlineMs ?? this.options.askDeadlineMs;
    const owner = this.ownerOf(kind, key);
    const reply =
      owner === this.nodeId ? this.#local().ask(kind, key, command) : this.#remote().ask(owner, kind, key, command, budget);
    return withDeadline(reply, budget, `${kind}:${key}`);
  }

  tell<K extends ActorKind>(kind: K, key: string, command: CommandOf<K>): void {
    const owner = this.ownerOf(kind, key);
    try {
      if (owner === this.nodeId) this.#local().tell(kind, key, command);
      else this.#remote().tell(owner, kind, key, command);
    } catch (error) {
      this.log.warn('tell_dropped', { actor: `${kind}:${key}`, err: toAppError(error).message });
    }
  }

  fanOut(sessionIds: readonly string[], event: DispatchEvent): void {
    const byNode = new Map<string, string[]>();
    for (const sessionId of sessionIds) {
      const owner = this.ownerOf(ActorKind.Session, sessionId);
      let group = byNode.get(owner);
      if (!group) byNode.set(owner, (group = []));
      group.push(sessionId);
    }
    for (const [node, group] of byNode) {
      if (node === this.nodeId) this.deliverFanOut(group, event);
      else this.#remote().fanOut(node, group, event);
    }
  }

  /** Hands one batch to the local Session actors (from a local fan-out or a remote node's batch). */
  deliverFanOut(sessionIds: readonly string[], event: DispatchEvent): void {
    const host = this.#local();
    const command = { command: { $case: 'dispatch' as const, dispatch: event } };
    for (const sessionId of sessionIds) {
      // Only live sessions get events; a dispatch must not re-activate an ended session.
      if (!host.isActive(ActorKind.Session, sessionId)) continue;
      try {
        host.tell(ActorKind.Session, sessionId, command);
      } catch (error) {
        this.log.warn('session_dispatch_dropped', { session: sessionId, err: toAppError(error).message });
      }
    }
  }

  pushFrames(nodeId: string, socketId: string, frames: readonly string[], closeCode = 0): void {
    if (nodeId === this.nodeId) this.deliverFrames(socketId, frames, closeCode);
    else this.#remote().pushFrames(nodeId, socketId, frames, closeCode);
  }

  /** Hands frames to a socket held by this node. */
  deliverFrames(socketId: string, frames: readonly string[], closeCode: number): void {
    this.#edge?.(socketId, frames, closeCode);
  }

  #local(): ActorHost {
    if (!this.#host) throw new Error('ActorSystem has no host bound');
    return this.#host;
  }

  #remote(): RemoteTransport {
    if (!this.transport) throw new ServiceUnavailableError('No transport to reach other nodes');
    return this.transport;
  }
}

function withDeadline<T>(reply: Promise<T>, deadlineMs: number, actor: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new ServiceUnavailableError(`Deadline of ${deadlineMs} ms passed waiting for ${actor}`));
    }, deadlineMs);
    reply.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
