import type { ActorHost } from '../actors/runtime/ActorHost.js';
import type { ActorMessenger } from '../actors/runtime/ActorContext.js';
import { ActorKind, type CommandOf, type ReplyOf } from '../actors/runtime/ActorKind.js';
import type { DispatchEvent } from '../proto/gen/chorus/v1/common.js';
import { ServiceUnavailableError, toAppError, WrongOwnerError } from '../src/domain/errors.js';
import type { Logger } from '../src/domain/Logger.js';
import { withTimeLimit } from '../src/domain/timeLimit.js';
import { NOT_RUN, tellHere } from './localTells.js';
import { tellNodesLeft } from './nodeLeftNotice.js';
import { RemoteRedelivery } from './RemoteRedelivery.js';
import type { HashRing } from './ring/HashRing.js';
import { SessionDelivery } from './SessionDelivery.js';
import type { LocalNode } from './transport/LocalNode.js';
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
export class ActorSystem implements ActorMessenger, LocalNode {
  #host: ActorHost | undefined;
  #sessions: SessionDelivery | undefined;
  /** Tells and fan-out batches a node did not take, held until they can go to a live owner. */
  readonly #redelivery: RemoteRedelivery | undefined;
  #edge: EdgeSink | undefined;
  #refreshView: (() => Promise<void>) | undefined;

  constructor(
    readonly nodeId: string,
    private ring: HashRing,
    private readonly options: ClusterOptions,
    private readonly log: Logger,
    private readonly transport?: RemoteTransport,
  ) {
    this.#redelivery = transport
      ? new RemoteRedelivery({
          isMember: (node) => this.ring.members.includes(node),
          refreshView: () => {
            this.#refreshView?.().catch((error: unknown) => {
              this.log.warn('view_refresh_failed', { err: toAppError(error).message });
            });
          },
          log,
        })
      : undefined;
  }

  /** Connects the local host (created after the system, since actors message through it). */
  bindHost(host: ActorHost): void {
    this.#host = host;
    this.#sessions = new SessionDelivery({
      host,
      log: this.log,
      owns: (sessionId) => this.ownerOf(ActorKind.Session, sessionId) === this.nodeId,
      reroute: (sessionId, event, source) => {
        this.fanOut([sessionId], event, source);
      },
      forget: (source, sessionIds) => {
        this.#forgetSessions(source, sessionIds);
      },
    });
  }

  /** Connects the gateway's socket table. */
  bindEdge(sink: EdgeSink): void {
    this.#edge = sink;
  }

  /** Connects membership: called to fetch a fresh view after a call reached a node that no longer owns the actor. */
  bindViewRefresh(refreshView: () => Promise<void>): void {
    this.#refreshView = refreshView;
  }

  /** Version of the membership view this node routes by. */
  get ringVersion(): number {
    return this.ring.version;
  }

  /** Installs a newer membership view. */
  updateRing(ring: HashRing): void {
    if (ring.version < this.ring.version) return;
    const before = this.ring.members;
    this.ring = ring;
    // Before any new fan-out routes by this view: batches held for a node that left go first.
    this.#redelivery?.viewChanged();
    tellNodesLeft(this.#host, this, before, ring.members);
  }

  /** The node owning an actor under the current view. */
  ownerOf(kind: ActorKind, key: string): string {
    return this.ring.ownerOf(`${kind}:${key}`);
  }

  ask<K extends ActorKind>(kind: K, key: string, command: CommandOf<K>, deadlineMs?: number): Promise<ReplyOf<K>> {
    const budget = deadlineMs ?? this.options.askDeadlineMs;
    return withTimeLimit(
      this.#routeAsk(kind, key, command, Date.now() + budget),
      budget,
      () => new ServiceUnavailableError(`Deadline of ${budget} ms passed waiting for ${kind}:${key}`),
    );
  }

  /** Asks the owner; when the actor moved (S3), refreshes the view, re-resolves and retries once. */
  async #routeAsk<K extends ActorKind>(
    kind: K,
    key: string,
    command: CommandOf<K>,
    deadlineAt: number,
  ): Promise<ReplyOf<K>> {
    for (let attempt = 0; ; attempt += 1) {
      const owner = this.ownerOf(kind, key);
      try {
        if (owner === this.nodeId) return await this.#local().ask(kind, key, command);
        return await this.#remote().ask(owner, kind, key, command, Math.max(1, deadlineAt - Date.now()));
      } catch (error) {
        // A moved actor was not run, so a retry cannot apply a command twice; WrongOwnerError never leaves cluster/.
        if (!(error instanceof WrongOwnerError)) throw error;
        if (attempt > 0) throw new ServiceUnavailableError(`${kind}:${key} is still moving: ${error.message}`);
        // The caller has had its 503 once the deadline passed; running the command now would act behind its back.
        if (Date.now() >= deadlineAt) throw new ServiceUnavailableError(`Deadline passed while ${kind}:${key} moved`);
        this.log.warn('actor_moved_retry', { actor: `${kind}:${key}`, from: owner, view: this.ring.version });
        // A failed refresh still retries on the current view (membership may have pushed a newer one meanwhile).
        await this.#refreshView?.().catch((refreshError: unknown) => {
          this.log.warn('view_refresh_failed', { err: toAppError(refreshError).message });
        });
      }
    }
  }

  /** Serves a request from another node; throws WrongOwnerError when this node does not own the actor. */
  askLocal<K extends ActorKind>(kind: K, key: string, command: CommandOf<K>): Promise<ReplyOf<K>> {
    this.#assertOwner(kind, key);
    return this.#local().ask(kind, key, command);
  }

  /**
   * Serves a one-way message from another node; throws WrongOwnerError when this node does not own
   * the actor. Settles once the actor ran it: rejected only when it was not run (moved, overloaded,
   * unavailable), so the sender re-sends; an error of the turn itself is the actor's answer.
   */
  tellLocal<K extends ActorKind>(kind: K, key: string, command: CommandOf<K>): Promise<void> {
    this.#assertOwner(kind, key);
    return this.#local()
      .ask(kind, key, command)
      .then(
        () => undefined,
        (error: unknown) => {
          const appError = toAppError(error);
          if (NOT_RUN.has(appError.kind)) throw appError;
          if (appError.kind === 'internal')
            this.log.error('actor_tell_failed', { actor: `${kind}:${key}`, err: error });
        },
      );
  }

  tell<K extends ActorKind>(kind: K, key: string, command: CommandOf<K>): void {
    this.#tell(kind, key, command, 0);
  }

  /** `moves`: how often this tell was re-routed already because a node did not own the actor. */
  #tell<K extends ActorKind>(kind: K, key: string, command: CommandOf<K>, moves: number): void {
    const owner = this.ownerOf(kind, key);
    const resend = (next: number): void => {
      this.#tell(kind, key, command, next);
    };
    try {
      if (owner === this.nodeId && this.#redelivery) {
        const run = (): Promise<unknown> => this.#local().ask(kind, key, command);
        tellHere(run, resend, moves, `${kind}:${key}`, this.log);
      } else if (owner === this.nodeId) this.#local().tell(kind, key, command);
      else if (this.#redelivery) {
        const remote = this.#remote();
        this.#redelivery.send(
          owner,
          (done) => {
            remote.tell(owner, kind, key, command, done);
          },
          { moves, reroute: resend },
          `${kind}:${key}`,
        );
      } else this.#remote().tell(owner, kind, key, command);
    } catch (error) {
      this.log.warn('tell_dropped', { actor: `${kind}:${key}`, err: toAppError(error).message });
    }
  }

  fanOut(sessionIds: readonly string[], event: DispatchEvent, source = ''): void {
    this.#fanOut(sessionIds, event, source, 0);
  }

  #fanOut(sessionIds: readonly string[], event: DispatchEvent, source: string, moves: number): void {
    const byNode = new Map<string, string[]>();
    for (const sessionId of sessionIds) {
      const owner = this.ownerOf(ActorKind.Session, sessionId);
      let group = byNode.get(owner);
      if (!group) byNode.set(owner, (group = []));
      group.push(sessionId);
    }
    for (const [node, group] of byNode) {
      if (node === this.nodeId) void this.deliverFanOut(group, event, source);
      else if (this.#redelivery) {
        const remote = this.#remote();
        this.#redelivery.send(
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
      } else this.#remote().fanOut(node, group, event, source);
    }
  }

  /** Sessions that missed an event for good end (op 9), rather than resume as if they had it (§8.7). */
  #invalidateSessions(sessionIds: readonly string[], reason: string): void {
    for (const sessionId of sessionIds) {
      this.tell(ActorKind.Session, sessionId, { command: { $case: 'invalidate', invalidate: { reason } } });
    }
  }

  /**
   * Hands one batch to the local Session actors (from a local fan-out or a remote node's batch). An
   * inactive session is activated from the SessionStore; one the store does not know is dropped and
   * `source` is told to forget it (SessionDelivery).
   */
  deliverFanOut(sessionIds: readonly string[], event: DispatchEvent, source = ''): Promise<void> {
    if (!this.#sessions) throw new Error('ActorSystem has no host bound');
    return this.#sessions.deliver(sessionIds, event, source);
  }

  pushFrames(nodeId: string, socketId: string, frames: readonly string[], closeCode = 0): void {
    if (nodeId === this.nodeId) this.deliverFrames(socketId, frames, closeCode);
    else this.#remote().pushFrames(nodeId, socketId, frames, closeCode);
  }

  /** Hands frames to a socket held by this node. */
  deliverFrames(socketId: string, frames: readonly string[], closeCode: number): void {
    this.#edge?.(socketId, frames, closeCode);
  }

  /** Tells the actor that fanned out (`kind:key`) to drop subscriptions of sessions that are gone. */
  #forgetSessions(source: string, sessionIds: readonly string[]): void {
    const colon = source.indexOf(':');
    const kind = source.slice(0, colon);
    const key = source.slice(colon + 1);
    for (const sessionId of sessionIds) {
      if (kind === ActorKind.Guild) {
        this.tell(ActorKind.Guild, key, { command: { $case: 'unsubscribe', unsubscribe: { sessionId } } });
      } else if (kind === ActorKind.User) {
        const detachSession = { sessionId, shardId: 0, intents: '0' };
        this.tell(ActorKind.User, key, { command: { $case: 'detachSession', detachSession } });
      }
    }
  }

  #assertOwner(kind: ActorKind, key: string): void {
    const owner = this.ownerOf(kind, key);
    if (owner !== this.nodeId)
      throw new WrongOwnerError(`${kind}:${key} is owned by ${owner} under view ${this.ring.version}`);
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
