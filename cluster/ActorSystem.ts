import type { ActorHost } from '../actors/runtime/ActorHost.js';
import type { ActorMessenger } from '../actors/runtime/ActorContext.js';
import { ActorKind, type CommandOf, type ReplyOf } from '../actors/runtime/ActorKind.js';
import type { DispatchEvent } from '../proto/gen/chorus/v1/common.js';
import { ServiceUnavailableError, toAppError, WrongOwnerError } from '../src/domain/errors.js';
import type { Logger } from '../src/domain/Logger.js';
import { withTimeLimit } from '../src/domain/timeLimit.js';
import { NOT_RUN } from './localTells.js';
import { forgetSessions } from './forgetSessions.js';
import { tellNodesLeft } from './nodeLeftNotice.js';
import { OneWaySends } from './OneWaySends.js';
import { ChannelHomes, type ChannelGuildLookup } from './placement/ChannelHomes.js';
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
  /** Where channels are placed: beside their guild once a lookup is bound, else by their own id. */
  #homes = new ChannelHomes();
  /** Tells and fan-out, routed by owner (OneWaySends). */
  readonly #sends: OneWaySends;

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
    this.#sends = new OneWaySends({
      nodeId,
      log,
      redelivery: this.#redelivery,
      homes: () => this.#homes,
      memberCount: () => this.ring.members.length,
      ownerOf: (kind, key) => this.ownerOf(kind, key),
      local: () => this.#local(),
      remote: () => this.#remote(),
      deliverFanOut: (sessionIds, event, source) => this.deliverFanOut(sessionIds, event, source),
    });
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
        forgetSessions(this, source, sessionIds);
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

  /** Connects the store lookup that places a guild channel beside its guild (ChannelHomes). */
  bindChannelHomes(lookup: ChannelGuildLookup): void {
    this.#homes = new ChannelHomes(lookup);
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

  /**
   * The node owning an actor under the current view, by its placement key (ChannelHomes: a guild
   * channel beside its guild). A channel this node has not placed yet counts by its own id here; the
   * router, a peer's call and hand-off look it up first, so all of them agree on every node.
   */
  ownerOf(kind: ActorKind, key: string): string {
    return this.ring.ownerOf(this.#homes.ringKeyOf(kind, key));
  }

  /**
   * True while this node owns the actor: the lease keeper's rule for keeping an activation. A channel
   * this node no longer remembers the guild of is kept while it is looked up again (the keeper asks
   * again every renewal round).
   */
  placedHere(kind: ActorKind, key: string): boolean {
    if (this.ring.members.length === 1 || this.#homes.knows(kind, key)) return this.ownerOf(kind, key) === this.nodeId;
    this.#homes.learn(kind, key);
    return true;
  }

  /** Alone on the ring (embedded mode) every actor lives here: no ring lookup on a message's path. */
  livesHere(kind: ActorKind, key: string): boolean {
    return this.ring.members.length === 1 || this.ownerOf(kind, key) === this.nodeId;
  }

  ask<K extends ActorKind>(kind: K, key: string, command: CommandOf<K>, deadlineMs?: number): Promise<ReplyOf<K>> {
    const budget = deadlineMs ?? this.options.askDeadlineMs;
    const deadlineAt = Date.now() + budget;
    // A channel this node has not placed yet waits for one lookup of its guild (404 when there is none);
    // a lookup that outlived the deadline must not run the command behind the caller's 503.
    const routed = this.#homes.mustWait(kind, key, this.ring.members.length)
      ? this.#homes.routeAsync(kind, key, this.ring.members.length, () =>
          Date.now() < deadlineAt
            ? this.#routeAsk(kind, key, command, deadlineAt)
            : Promise.reject(new ServiceUnavailableError(`Deadline passed while placing ${kind}:${key}`)),
        )
      : this.#routeAsk(kind, key, command, deadlineAt);
    return withTimeLimit(
      routed,
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
    return this.#homes.routeAsync(kind, key, this.ring.members.length, async () => {
      this.#assertOwner(kind, key);
      return this.#local().ask(kind, key, command);
    });
  }

  /**
   * Serves a one-way message from another node; throws WrongOwnerError when this node does not own
   * the actor. Settles once the actor ran it: rejected only when it was not run (moved, overloaded,
   * unavailable), so the sender re-sends; an error of the turn itself is the actor's answer, and so is
   * 404 for a channel deleted since the sender placed it.
   */
  tellLocal<K extends ActorKind>(kind: K, key: string, command: CommandOf<K>): Promise<void> {
    return this.#homes
      .routeAsync(kind, key, this.ring.members.length, async () => {
        this.#assertOwner(kind, key);
        return this.#local().ask(kind, key, command);
      })
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
    this.#sends.tell(kind, key, command);
  }

  fanOut(sessionIds: readonly string[], event: DispatchEvent, source = ''): void {
    this.#sends.fanOut(sessionIds, event, source);
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
