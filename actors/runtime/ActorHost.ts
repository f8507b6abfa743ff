import type { Clock } from '../../src/domain/Clock.js';
import { toAppError, WrongOwnerError } from '../../src/domain/errors.js';
import type { Logger } from '../../src/domain/Logger.js';
import { noMetrics, type Metrics } from '../../src/domain/Metrics.js';
import type { SnowflakeGenerator } from '../../src/domain/snowflake.js';
import type { TraceContext } from '../../src/tracing/traceScope.js';
import type { Actor } from './Actor.js';
import { Activation, type AnyActor } from './Activation.js';
import type { ActorContext, ActorMessenger } from './ActorContext.js';
import type { ActorKind, CommandOf, ReplyOf } from './ActorKind.js';
import { ActivationContext, type ContextServices, leaseFence, type SelfControl } from './activationContext.js';
import { HostMetrics } from './HostMetrics.js';
import { Mailbox } from './Mailbox.js';
import { turnInSpan } from './turnSpan.js';
import type { ActivationGuard, CommitFence } from './ports/coordination.js';

/** Options of the local actor host (owned here, composed into Config). */
export interface ActorOptions {
  /** Messages an actor may have waiting before it refuses more. */
  readonly mailboxCapacity: number;
  /** An actor with nothing to do for this long is passivated. */
  readonly idleTimeoutMs: number;
}

/**
 * Builds the actor for a key; the composition root wires storage ports in. With a guard (cluster
 * mode) the host passes `fence`: give the actor `fenceStores(stores, fence)` so a deposed activation's
 * writes are refused. Without one (embedded mode) `fence` is undefined and nothing is wrapped.
 */
export type ActorFactory = <K extends ActorKind>(
  kind: K,
  key: string,
  ctx: ActorContext,
  fence?: CommitFence,
) => Actor<CommandOf<K>, ReplyOf<K>>;

/** What `serveActive` did: served at once (true), asked through the mailbox, or nothing (not active here). */
type Served<K extends ActorKind> = true | Promise<ReplyOf<K>> | undefined;

/** Dependencies of an ActorHost. */
export interface ActorHostDeps {
  readonly nodeId: string;
  readonly factory: ActorFactory;
  readonly messenger: ActorMessenger;
  readonly clock: Clock;
  readonly log: Logger;
  readonly ids: SnowflakeGenerator;
  readonly options: ActorOptions;
  /** Single activation across nodes (cluster mode): a lease per activation, fencing its writes. */
  readonly guard?: ActivationGuard;
  /** Activations, mailbox depth and wait, fan-out sizes (HostMetrics). */
  readonly metrics?: Metrics;
}

/**
 * Runs the activations this node owns: creates an actor on its first message (activation as the
 * first turn, so later messages queue behind it), serves turns through a bounded mailbox, and
 * passivates actors idle for `idleTimeoutMs`.
 */
export class ActorHost {
  /**
   * The activations by kind, then by key: a lookup (a fan-out looks up a thousand sessions by the ids it holds)
   * hashes a key whose hash is cached rather than building a `kind:key` string, and an idle session's two
   * activations are one table entry each (a second table by `kind:key` held two more; issue 15 §3).
   */
  readonly #byKind = new Map<ActorKind, Map<string, Activation>>();
  readonly #sweeper: ReturnType<typeof setInterval>;
  /** Set by shutdown: no new activation starts (see #activate). */
  #closing = false;
  readonly #metrics: HostMetrics;
  readonly #services: ContextServices;
  /** Self control for every context this host makes (one object, not closures per activation). */
  readonly #self: SelfControl = {
    tellSelf: (ctx, command) => {
      if (this.#current(ctx)) this.tell(ctx.kind, ctx.key, command);
    },
    stopSelf: (ctx) => {
      const activation = this.#current(ctx);
      if (activation) queueMicrotask(() => void this.#stopWhenIdle(ctx.id, activation));
    },
    evictSelf: (ctx) => {
      const activation = this.#current(ctx);
      if (activation) this.#evict(ctx.id, activation);
    },
  };

  constructor(private readonly deps: ActorHostDeps) {
    this.#metrics = new HostMetrics(deps.metrics ?? noMetrics, () => this.#all());
    this.#services = { ...deps, metrics: this.#metrics };
    const every = Math.max(50, Math.floor(deps.options.idleTimeoutMs / 2));
    this.#sweeper = setInterval(() => this.passivateIdle(), every);
    this.#sweeper.unref();
  }

  /** Number of live activations (for health and benchmarks). */
  get size(): number {
    let size = 0;
    for (const ofKind of this.#byKind.values()) size += ofKind.size;
    return size;
  }

  *#all(): IterableIterator<Activation> {
    for (const ofKind of this.#byKind.values()) yield* ofKind.values();
  }

  #find(kind: ActorKind, key: string): Activation | undefined {
    return this.#byKind.get(kind)?.get(key);
  }

  /** True when the actor is active here (activated and not stopping; an activation in progress may still fail). */
  isActive(kind: ActorKind, key: string): boolean {
    return this.#byKind.get(kind)?.get(key)?.state === 'active';
  }

  /**
   * For an actor active here: `true` when it served `command` at once (its mailbox idle, Actor.serveNow),
   * else `ask`; undefined, sending nothing, when it is not active here (or still activating). One lookup.
   */
  serveActive<K extends ActorKind>(kind: K, key: string, command: CommandOf<K>): Served<K> {
    const activation = this.#byKind.get(kind)?.get(key);
    if (activation?.state !== 'active') return undefined;
    activation.lastActiveMs = this.deps.clock.now();
    try {
      if (!activation.mailbox.busy && activation.actor.serveNow(command)) return true;
    } catch (error) {
      return Promise.reject(toAppError(error)); // as a failed turn would: the caller's batch goes on
    }
    return activation.mailbox.ask(command) as Promise<ReplyOf<K>>;
  }

  /** Keys of this kind's actors active here (for a notice every one of them must hear, e.g. a node left). */
  activeKeys(kind: ActorKind): string[] {
    const keys: string[] = [];
    for (const activation of this.#byKind.get(kind)?.values() ?? []) {
      if (activation.state === 'active') keys.push(activation.key);
    }
    return keys;
  }

  /** Request-reply to a local actor. */
  ask<K extends ActorKind>(kind: K, key: string, command: CommandOf<K>): Promise<ReplyOf<K>> {
    if (this.#closing && !this.#find(kind, key)) return Promise.reject(this.#closed(kind, key));
    const activation = this.#activate(kind, key);
    activation.lastActiveMs = this.deps.clock.now();
    return activation.mailbox.ask(command) as Promise<ReplyOf<K>>;
  }

  /** One-way message to a local actor; throws ActorOverloadedError when its mailbox is full. */
  tell<K extends ActorKind>(kind: K, key: string, command: CommandOf<K>): void {
    const activation = this.#activate(kind, key);
    activation.lastActiveMs = this.deps.clock.now();
    activation.mailbox.tell(command);
  }

  /**
   * Stops an activation whose lease is lost (or that moved to another node): waiting messages are
   * refused with WrongOwnerError so callers re-resolve the owner. With `epoch`, only the activation
   * holding that lease epoch is stopped. Returns whether one was stopped.
   */
  evict(kind: ActorKind, key: string, epoch?: number): boolean {
    const activation = this.#find(kind, key);
    if (!activation || (epoch !== undefined && activation.lease.epoch !== epoch)) return false;
    this.#evict(activation.id, activation);
    return true;
  }

  #evict(id: string, activation: Activation): void {
    activation.mailbox.rejectAll(new WrongOwnerError(`${id} is no longer owned by this node`));
    void this.#stop(id, activation);
  }

  /** Passivates every idle actor that allows it; returns how many stopped. */
  passivateIdle(): number {
    const cutoff = this.deps.clock.now() - this.deps.options.idleTimeoutMs;
    let stopped = 0;
    for (const activation of this.#all()) {
      if (activation.lastActiveMs <= cutoff && !activation.mailbox.busy && activation.actor.canPassivate()) {
        void this.#stop(activation.id, activation);
        stopped += 1;
      }
    }
    return stopped;
  }

  /**
   * Stops every activation (node shutdown). Messages to actors not active here are refused from now
   * on: the deactivations tell other actors (a Guild tells its channels to drop snapshots), and an
   * actor started now would load state and take a lease that nothing would stop or release.
   */
  async shutdown(): Promise<void> {
    this.#closing = true;
    clearInterval(this.#sweeper);
    const stopping = [...this.#all()].map((activation) => this.#stop(activation.id, activation));
    await Promise.allSettled(stopping);
  }

  #activate(kind: ActorKind, key: string): Activation {
    const existing = this.#find(kind, key);
    if (existing) return existing;
    if (this.#closing) throw this.#closed(kind, key);
    const id = `${kind}:${key}`;
    const ctx = new ActivationContext(kind, key, id, this.#services, this.#self);
    const lease: Activation['lease'] = { epoch: undefined };
    const fence = this.deps.guard ? leaseFence(this.deps.guard, kind, key, lease) : undefined;
    const actor: AnyActor = fence ? this.deps.factory(kind, key, ctx, fence) : this.deps.factory(kind, key, ctx);
    // Without metrics the mailbox samples no wait at all (no clock reads per letter).
    const wait = this.deps.metrics ? this.#metrics.waitOf(kind) : undefined;
    const capacity = this.deps.options.mailboxCapacity;
    const activation = new Activation(ctx, actor, lease, this.deps.clock.now(), (owner) => {
      return new Mailbox(this.#runTurn, capacity, this.#tellFailed, wait, owner);
    });
    let ofKind = this.#byKind.get(kind);
    if (!ofKind) this.#byKind.set(kind, (ofKind = new Map<string, Activation>()));
    ofKind.set(key, activation);
    this.#metrics.activated(kind);
    return activation;
  }

  /** Drops an activation from its kind's table (it failed to activate, or stops). */
  #forget(activation: Activation): void {
    this.#byKind.get(activation.kind)?.delete(activation.key);
  }

  #closed(kind: ActorKind, key: string): WrongOwnerError {
    return new WrongOwnerError(`${kind}:${key} is not active and this node is shutting down`);
  }

  /** Every mailbox's turn (a span around it when its letter came in a trace). */
  readonly #runTurn = (command: CommandOf<ActorKind>, trace: TraceContext | undefined, activation: Activation) =>
    trace === undefined
      ? this.#turn(activation, command)
      : turnInSpan(activation.kind, activation.key, command, trace, (traced) => this.#turn(activation, traced));

  readonly #tellFailed = (error: unknown, _command: CommandOf<ActorKind>, activation: Activation): void => {
    if (toAppError(error).kind === 'internal')
      this.deps.log.error('actor_tell_failed', { actor: activation.id, err: error });
  };

  /** One turn; the first turn of an activation loads its state, so messages sent meanwhile wait in order. */
  async #turn(activation: Activation, command: CommandOf<ActorKind>): Promise<ReplyOf<ActorKind>> {
    const id = activation.id;
    if (activation.state === 'stopping') throw new WrongOwnerError(`${id} stopped`); // evicted meanwhile
    if (activation.state === 'activating') {
      try {
        // The lease comes first: state loaded without it could be overwritten by the owner's writes.
        if (this.deps.guard) activation.lease.epoch = await this.deps.guard.acquire(activation.kind, activation.key);
        if (activation.state !== 'activating') throw new WrongOwnerError(`${id} stopped while activating`);
        await activation.actor.activate(command);
        activation.state = 'active';
      } catch (error) {
        if (this.#find(activation.kind, activation.key) === activation) this.#forget(activation);
        activation.mailbox.rejectAll(error);
        void this.#releaseLease(id, activation);
        throw error;
      }
    }
    return activation.actor.handle(command);
  }

  /** The activation `ctx` belongs to, unless it stopped (a later one under its id is another actor). */
  #current(ctx: ActivationContext): Activation | undefined {
    const activation = this.#find(ctx.kind, ctx.key);
    return activation?.ctx === ctx ? activation : undefined;
  }

  async #stopWhenIdle(id: string, activation: Activation): Promise<void> {
    if (activation.mailbox.busy) {
      activation.lastActiveMs = 0; // the sweeper takes it once the mailbox drains
      return;
    }
    await this.#stop(id, activation);
  }

  async #stop(id: string, activation: Activation): Promise<void> {
    // Removed synchronously, so a message arriving now starts a fresh activation from storage
    // (write-through means storage already holds everything this one acknowledged).
    this.#forget(activation);
    activation.state = 'stopping';
    activation.ctx.clearTimers();
    try {
      await activation.actor.deactivate();
    } catch (error) {
      this.deps.log.error('actor_deactivate_failed', { actor: id, err: error });
    }
    await this.#releaseLease(id, activation); // after deactivate: its last writes still need the lease
  }

  async #releaseLease(id: string, activation: Activation): Promise<void> {
    const { epoch } = activation.lease;
    if (!this.deps.guard || epoch === undefined) return;
    activation.lease.epoch = undefined;
    try {
      await this.deps.guard.release(activation.kind, activation.key, epoch);
    } catch (error) {
      // The lease lapses by itself after its ttl; until then the next owner waits.
      this.deps.log.warn('lease_release_failed', { actor: id, epoch, err: toAppError(error).message });
    }
  }
}
