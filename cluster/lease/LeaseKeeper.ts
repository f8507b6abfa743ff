import type { ActorKind } from '../../actors/runtime/ActorKind.js';
import type { ActivationGuard, LeaseTable } from '../../actors/runtime/ports/coordination.js';
import type { Clock } from '../../src/domain/Clock.js';
import { ServiceUnavailableError, WrongOwnerError } from '../../src/domain/errors.js';
import type { Logger } from '../../src/domain/Logger.js';
import { monotonicClock } from '../membership/TableMembership.js';

/** Lease timing (owned here, composed into Config). */
export interface LeaseOptions {
  /** A lease lapses this long after its last acquire or renewal; renewals run every ttl/3. */
  readonly ttlMs: number;
  /**
   * Safety margin: this node treats a lease as lost this long before the table would let it lapse,
   * covering clock-rate differences between this process and the table's server.
   */
  readonly driftMs: number;
  /**
   * How long an activation waits for a lease another node holds (undefined: one ttl, so the lease of
   * a dead node lapses within the wait). A node leaves the views about when its leases lapse, so the
   * new owner often starts activating a little before: waiting keeps the messages queued behind the
   * activation (tells included) instead of refusing them. 0 refuses at once.
   */
  readonly acquireWaitMs?: number;
}

/** Defaults: an actor of a dead node can move after about 3 s. */
export const DEFAULT_LEASE_OPTIONS: LeaseOptions = Object.freeze({ ttlMs: 3_000, driftMs: 300 });

/** Between two attempts to take a lease another node holds. */
const ACQUIRE_RETRY_MS = 100;

/** Stops a local activation whose lease is gone (ActorHost.evict). */
export type EvictActivation = (kind: ActorKind, key: string, epoch: number) => void;

/** True while this node owns `kind:key` under its current membership view. */
export type OwnsActor = (kind: ActorKind, key: string) => boolean;

/** Dependencies of a LeaseKeeper. */
export interface LeaseKeeperDeps {
  readonly nodeId: string;
  readonly table: LeaseTable;
  readonly options: Partial<LeaseOptions>;
  readonly log: Logger;
  /** Monotonic by default, so a wall-clock jump cannot stretch a lease. */
  readonly clock?: Clock;
  /** Age of this node's last acknowledged membership heartbeat (Membership.heartbeatAgeMs). */
  readonly heartbeatAgeMs?: () => number;
}

interface Held {
  readonly actorKey: string;
  readonly kind: ActorKind;
  readonly key: string;
  readonly epoch: number;
  /** By the local monotonic clock: until when the lease is surely still ours. */
  validUntil: number;
}

/**
 * The ActivationGuard of a cluster node. It takes a lease per activation, renews all of them in one
 * batch every ttl/3, and evicts an activation as soon as its lease may be gone: when a renewal says
 * another node has it, when renewals failed for longer than the lease lives (by this node's own
 * monotonic clock, so a process paused by SIGSTOP notices as soon as it runs again), or when this
 * node's membership heartbeat is older than the lease ttl. Writes are fenced by assertCommittable.
 *
 * Why a hand-over converges (issue 9): once the views agree (a dead member's key lapses after the
 * member ttl, a rejoin shows within a heartbeat), each key has one owner. A non-owner lets go of the
 * key's lease at the view change (handOff), or at acquire (refused before and after the grant), or at
 * its next renewal round (ttl/3); a dead or paused holder stops renewing and the lease lapses within
 * the ttl. The owner's acquire waits up to a ttl, and its callers retry past that (router, session
 * delivery, re-routed sends, op 7). So every key with traffic is held by its owner alone within the
 * member ttl + a heartbeat + two lease ttls. Before, a node that took a lease under an older view
 * (a fan-out from a stale view, a wait that outlived the change) renewed it forever.
 */
export class LeaseKeeper implements ActivationGuard {
  readonly #options: LeaseOptions;
  readonly #clock: Clock;
  readonly #held = new Map<string, Held>();
  #evict: EvictActivation | undefined;
  #timer: ReturnType<typeof setInterval> | undefined;
  #renewing: Promise<void> | undefined;
  #failing = false;
  /** The ownership rule of the newest view (set by handOff); undefined: every key is ours. */
  #owns: OwnsActor | undefined;

  constructor(private readonly deps: LeaseKeeperDeps) {
    this.#options = { ...DEFAULT_LEASE_OPTIONS, ...deps.options };
    this.#clock = deps.clock ?? monotonicClock;
  }

  /** Leases held now. */
  get size(): number {
    return this.#held.size;
  }

  /** Starts renewing; `evict` stops a local activation whose lease is lost. */
  start(evict: EvictActivation): void {
    this.#evict = evict;
    this.#timer = setInterval(() => void this.renewNow(), Math.max(10, Math.floor(this.#options.ttlMs / 3)));
    this.#timer.unref();
  }

  /** Stops renewing (the host's shutdown releases each lease as its activation stops). */
  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /**
   * Takes the lease of an activation. A key this node does not own under its newest view is refused
   * with WrongOwnerError (moved), before and after the table granted it: an activation that started
   * under an older view (a fan-out from a node with a stale view, a wait that outlived a view change)
   * must not keep the lease the owner needs, since no later view change would ever hand it off.
   */
  async acquire(kind: ActorKind, key: string): Promise<number> {
    const actorKey = `${kind}:${key}`;
    if (this.#detached())
      throw new ServiceUnavailableError(`Cannot activate ${actorKey}: this node lost its membership`);
    this.#assertOwned(kind, key);
    const waitMs = this.#options.acquireWaitMs ?? this.#options.ttlMs;
    const giveUpAt = performance.now() + waitMs;
    let sentAt = this.#clock.now();
    let grant = await this.deps.table.acquire(actorKey, this.deps.nodeId, this.#options.ttlMs);
    while (!grant && performance.now() < giveUpAt) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(ACQUIRE_RETRY_MS, giveUpAt - performance.now())));
      if (this.#detached())
        throw new ServiceUnavailableError(`Cannot activate ${actorKey}: this node lost its membership`);
      this.#assertOwned(kind, key);
      sentAt = this.#clock.now();
      grant = await this.deps.table.acquire(actorKey, this.deps.nodeId, this.#options.ttlMs);
    }
    if (!grant) throw new WrongOwnerError(`${actorKey} is active on another node`);
    if (this.#owns && !this.#owns(kind, key)) {
      await this.deps.table.release(actorKey, this.deps.nodeId, grant.epoch).catch(() => undefined); // else it lapses
      throw new WrongOwnerError(`${actorKey} moved to another node while activating`);
    }
    this.#held.set(actorKey, { actorKey, kind, key, epoch: grant.epoch, validUntil: this.#until(sentAt) });
    return grant.epoch;
  }

  async assertCommittable(kind: ActorKind, key: string, epoch: number): Promise<void> {
    const actorKey = `${kind}:${key}`;
    const held = this.#assertFresh(actorKey, epoch);
    if (!(await this.deps.table.check(actorKey, this.deps.nodeId, epoch))) {
      this.#lose(held, 'taken');
      throw this.#refuse(actorKey, epoch, 'taken over');
    }
    // Again after the round trip: a process paused while the answer waited would otherwise write
    // after its lease lapsed, on the strength of an answer that was true seconds ago.
    this.#assertFresh(actorKey, epoch);
  }

  /** The lease as held now, by this epoch and surely not lapsed by this node's own clock. */
  #assertFresh(actorKey: string, epoch: number): Held {
    const held = this.#held.get(actorKey);
    if (held?.epoch !== epoch) throw this.#refuse(actorKey, epoch, 'not held');
    if (this.#clock.now() > held.validUntil || this.#detached()) {
      this.#lose(held, 'expired');
      throw this.#refuse(actorKey, epoch, 'may have lapsed');
    }
    return held;
  }

  /** A refused commit is logged (stable event name), so a deposed owner's stale write is observable. */
  #refuse(actorKey: string, epoch: number, reason: string): WrongOwnerError {
    this.deps.log.warn('commit_refused', { actor: actorKey, epoch, reason });
    return new WrongOwnerError(`${actorKey} lease ${epoch} ${reason}`);
  }

  async release(kind: ActorKind, key: string, epoch: number): Promise<void> {
    const actorKey = `${kind}:${key}`;
    // Only the activation that holds the lease frees it: an older one stopping late must not free
    // the lease of its successor on this node, and a lost lease is not ours to free.
    if (this.#held.get(actorKey)?.epoch !== epoch) return;
    this.#held.delete(actorKey);
    await this.deps.table.release(actorKey, this.deps.nodeId, epoch);
  }

  /**
   * Evicts the activations this node no longer owns under a new membership view, so their leases
   * are released and the new owners can take them. Returns how many were evicted. `owns` stays the
   * rule for later acquires and renewal rounds (which hand off again whatever slipped through).
   */
  handOff(owns: OwnsActor): number {
    this.#owns = owns;
    // After a pause the new view may arrive before the renewal timer: a lease that lapsed meanwhile
    // is lost, not handed off, and is logged so.
    this.#loseLapsed();
    let moved = 0;
    for (const held of [...this.#held.values()]) {
      if (owns(held.kind, held.key)) continue;
      this.#evict?.(held.kind, held.key, held.epoch);
      moved += 1;
    }
    return moved;
  }

  /** One renewal round (every ttl/3 on a timer; exposed for tests). Rounds never overlap. */
  renewNow(): Promise<void> {
    this.#renewing ??= this.#renew().finally(() => {
      this.#renewing = undefined;
    });
    return this.#renewing;
  }

  async #renew(): Promise<void> {
    // Local checks first: after a pause, timers run late and leases may have lapsed meanwhile.
    this.#loseLapsed();
    // A lease this node holds for a key it no longer owns would block the owner for good: give it up.
    if (this.#owns) this.handOff(this.#owns);
    const batch = [...this.#held.values()];
    if (batch.length === 0) return;
    const sentAt = this.#clock.now();
    try {
      const lost = new Set(
        await this.deps.table.renew(
          batch.map((held) => held.actorKey),
          this.deps.nodeId,
          this.#options.ttlMs,
        ),
      );
      for (const held of batch) {
        if (this.#held.get(held.actorKey) !== held) continue; // released or re-acquired meanwhile
        if (lost.has(held.actorKey)) this.#lose(held, 'taken');
        else held.validUntil = this.#until(sentAt);
      }
      if (this.#failing) this.deps.log.info('lease_renew_recovered', { held: this.#held.size });
      this.#failing = false;
    } catch (error) {
      if (!this.#failing) this.deps.log.warn('lease_renew_failed', { held: batch.length, err: String(error) });
      this.#failing = true;
    }
  }

  #loseLapsed(): void {
    const now = this.#clock.now();
    const detached = this.#detached();
    for (const held of [...this.#held.values()]) {
      if (detached || now > held.validUntil) this.#lose(held, detached ? 'detached' : 'expired');
    }
  }

  #lose(held: Held, reason: 'expired' | 'taken' | 'detached'): void {
    if (this.#held.get(held.actorKey) !== held) return;
    this.#held.delete(held.actorKey);
    this.deps.log.warn('lease_lost', { actor: held.actorKey, epoch: held.epoch, reason });
    this.#evict?.(held.kind, held.key, held.epoch);
  }

  #assertOwned(kind: ActorKind, key: string): void {
    if (this.#owns && !this.#owns(kind, key)) throw new WrongOwnerError(`${kind}:${key} is owned by another node`);
  }

  /** True when this node's membership heartbeat is older than a lease lives: the others dropped it. */
  #detached(): boolean {
    return this.deps.heartbeatAgeMs !== undefined && this.deps.heartbeatAgeMs() > this.#options.ttlMs;
  }

  #until(sentAt: number): number {
    return sentAt + this.#options.ttlMs - this.#options.driftMs;
  }
}
