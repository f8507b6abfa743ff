import type { Clock } from '../../src/domain/Clock.js';
import { toAppError, WrongOwnerError } from '../../src/domain/errors.js';
import type { Logger } from '../../src/domain/Logger.js';
import { noMetrics, type Metrics } from '../../src/domain/Metrics.js';
import type { SnowflakeGenerator } from '../../src/domain/snowflake.js';
import type { Actor } from './Actor.js';
import type { ActorContext, ActorMessenger } from './ActorContext.js';
import type { ActorKind, CommandOf, ReplyOf } from './ActorKind.js';
import { HostMetrics } from './HostMetrics.js';
import { Mailbox } from './Mailbox.js';
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

type AnyActor = Actor<CommandOf<ActorKind>, ReplyOf<ActorKind>>;

interface Activation {
  readonly kind: ActorKind;
  readonly key: string;
  readonly actor: AnyActor;
  readonly mailbox: Mailbox<CommandOf<ActorKind>, ReplyOf<ActorKind>>;
  state: 'activating' | 'active' | 'stopping';
  lastActiveMs: number;
  readonly timers: Set<ReturnType<typeof setTimeout>>;
  /** The lease epoch this activation holds (cluster mode), set before `activate()`. */
  readonly lease: { epoch: number | undefined };
}

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
  readonly #activations = new Map<string, Activation>();
  readonly #sweeper: ReturnType<typeof setInterval>;
  /** Set by shutdown: no new activation starts (see #activate). */
  #closing = false;
  readonly #metrics: HostMetrics;

  constructor(private readonly deps: ActorHostDeps) {
    this.#metrics = new HostMetrics(deps.metrics ?? noMetrics, () => this.#activations.values());
    const every = Math.max(50, Math.floor(deps.options.idleTimeoutMs / 2));
    this.#sweeper = setInterval(() => this.passivateIdle(), every);
    this.#sweeper.unref();
  }

  /** Number of live activations (for health and benchmarks). */
  get size(): number {
    return this.#activations.size;
  }

  /** True when the actor is active here (activated and not stopping; an activation in progress may still fail). */
  isActive(kind: ActorKind, key: string): boolean {
    return this.#activations.get(`${kind}:${key}`)?.state === 'active';
  }

  /** Keys of this kind's actors active here (for a notice every one of them must hear, e.g. a node left). */
  activeKeys(kind: ActorKind): string[] {
    const keys: string[] = [];
    for (const activation of this.#activations.values()) {
      if (activation.kind === kind && activation.state === 'active') keys.push(activation.key);
    }
    return keys;
  }

  /** Request-reply to a local actor. */
  ask<K extends ActorKind>(kind: K, key: string, command: CommandOf<K>): Promise<ReplyOf<K>> {
    if (this.#closing && !this.#activations.has(`${kind}:${key}`)) return Promise.reject(this.#closed(kind, key));
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
    const id = `${kind}:${key}`;
    const activation = this.#activations.get(id);
    if (!activation || (epoch !== undefined && activation.lease.epoch !== epoch)) return false;
    this.#evict(id, activation);
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
    for (const [id, activation] of this.#activations) {
      if (activation.lastActiveMs <= cutoff && !activation.mailbox.busy && activation.actor.canPassivate()) {
        void this.#stop(id, activation);
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
    const stopping = [...this.#activations].map(([id, activation]) => this.#stop(id, activation));
    await Promise.allSettled(stopping);
  }

  #activate(kind: ActorKind, key: string): Activation {
    const id = `${kind}:${key}`;
    const existing = this.#activations.get(id);
    if (existing) return existing;
    if (this.#closing) throw this.#closed(kind, key);
    const timers = new Set<ReturnType<typeof setTimeout>>();
    const ctx = this.#context(kind, key, id, timers);
    const lease: Activation['lease'] = { epoch: undefined };
    const { guard } = this.deps;
    const fence: CommitFence | undefined = guard
      ? () =>
          lease.epoch === undefined
            ? Promise.reject(new WrongOwnerError(`${id} holds no lease`))
            : guard.assertCommittable(kind, key, lease.epoch)
      : undefined;
    const actor: AnyActor = fence ? this.deps.factory(kind, key, ctx, fence) : this.deps.factory(kind, key, ctx);
    const log = this.deps.log;
    const activation: Activation = {
      kind,
      key,
      lease,
      actor,
      mailbox: new Mailbox<CommandOf<ActorKind>, ReplyOf<ActorKind>>(
        (command) => this.#turn(id, activation, command),
        this.deps.options.mailboxCapacity,
        (error) => {
          if (toAppError(error).kind === 'internal') log.error('actor_tell_failed', { actor: id, err: error });
        },
        // Without metrics the mailbox samples no wait at all (no clock reads per letter).
        this.deps.metrics ? this.#metrics.waitOf(kind) : undefined,
      ),
      state: 'activating',
      lastActiveMs: this.deps.clock.now(),
      timers,
    };
    this.#activations.set(id, activation);
    this.#metrics.activated(kind);
    return activation;
  }

  #closed(kind: ActorKind, key: string): WrongOwnerError {
    return new WrongOwnerError(`${kind}:${key} is not active and this node is shutting down`);
  }

  /** One turn; the first turn of an activation loads its state, so messages sent meanwhile wait in order. */
  async #turn(id: string, activation: Activation, command: CommandOf<ActorKind>): Promise<ReplyOf<ActorKind>> {
    if (activation.state === 'stopping') throw new WrongOwnerError(`${id} stopped`); // evicted meanwhile
    if (activation.state === 'activating') {
      try {
        // The lease comes first: state loaded without it could be overwritten by the owner's writes.
        if (this.deps.guard) activation.lease.epoch = await this.deps.guard.acquire(activation.kind, activation.key);
        if (activation.state !== 'activating') throw new WrongOwnerError(`${id} stopped while activating`);
        await activation.actor.activate(command);
        activation.state = 'active';
      } catch (error) {
        if (this.#activations.get(id) === activation) this.#activations.delete(id);
        activation.mailbox.rejectAll(error);
        void this.#releaseLease(id, activation);
        throw error;
      }
    }
    return activation.actor.handle(command);
  }

  #context(kind: ActorKind, key: string, id: string, timers: Set<ReturnType<typeof setTimeout>>): ActorContext {
    const { messenger } = this.deps;
    return {
      kind,
      key,
      nodeId: this.deps.nodeId,
      clock: this.deps.clock,
      log: this.deps.log.child({ actor: id }),
      ids: this.deps.ids,
      ask: (k, target, command, deadlineMs) => messenger.ask(k, target, command, deadlineMs),
      tell: (k, target, command) => {
        messenger.tell(k, target, command);
      },
      fanOut: (sessionIds, event) => {
        this.#metrics.fannedOut(kind, sessionIds.length);
        messenger.fanOut(sessionIds, event, id);
      },
      pushFrames: (nodeId, socketId, frames, closeCode) => {
        messenger.pushFrames(nodeId, socketId, frames, closeCode);
      },
      tellSelfAfter: (delayMs, command) => {
        const timer = setTimeout(() => {
          timers.delete(timer);
          if (this.#activations.get(id)?.timers === timers) this.tell(kind, key, command);
        }, delayMs);
        timer.unref();
        timers.add(timer);
        return () => {
          clearTimeout(timer);
          timers.delete(timer);
        };
      },
      stopSelf: () => {
        const activation = this.#activations.get(id);
        if (activation?.timers === timers) queueMicrotask(() => void this.#stopWhenIdle(id, activation));
      },
      evictSelf: () => {
        const activation = this.#activations.get(id);
        if (activation?.timers === timers) this.#evict(id, activation);
      },
    };
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
    this.#activations.delete(id);
    activation.state = 'stopping';
    for (const timer of activation.timers) clearTimeout(timer);
    activation.timers.clear();
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
