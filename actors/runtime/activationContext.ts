import type { DispatchEvent } from '../../proto/gen/chorus/v1/common.js';
import type { Clock } from '../../src/domain/Clock.js';
import { WrongOwnerError } from '../../src/domain/errors.js';
import type { Logger } from '../../src/domain/Logger.js';
import type { SnowflakeGenerator } from '../../src/domain/snowflake.js';
import type { ActorContext, ActorMessenger } from './ActorContext.js';
import type { ActorKind, CommandOf, ReplyOf } from './ActorKind.js';
import type { HostMetrics } from './HostMetrics.js';
import type { ActivationGuard, CommitFence } from './ports/coordination.js';

/** What the host shares with every activation's context. */
export interface ContextServices {
  readonly nodeId: string;
  readonly messenger: ActorMessenger;
  readonly clock: Clock;
  readonly log: Logger;
  readonly ids: SnowflakeGenerator;
  readonly metrics: HostMetrics;
}

/**
 * How an activation acts on itself through the host: one object per host, told which context asks. Each
 * does nothing once the activation that owns `ctx` has stopped (a later one under the same key is another
 * actor and must not be touched).
 */
export interface SelfControl {
  tellSelf(ctx: ActivationContext, command: CommandOf<ActorKind>): void;
  stopSelf(ctx: ActivationContext): void;
  evictSelf(ctx: ActivationContext): void;
}

type Timer = ReturnType<typeof setTimeout>;

/** A self timer's callback (`this`: its Timeout), shared by every context: no closure per timer. */
function selfTimerFired(this: Timer, ctx: ActivationContext, command: CommandOf<ActorKind>): void {
  ctx.timers?.delete(this);
  ctx.self.tellSelf(ctx, command);
}

/**
 * The context of one activation (`id` is its `kind:key`): messaging through the system, fan-out counted
 * per kind, and timers kept in `timers` so the host clears them when the activation stops. A class, so its
 * methods live once on the prototype: an idle session's Session and User activations each held a dozen
 * closures when the context was an object literal (issue 15 §3). The logger and the timer set are made on
 * first use; most activations never log, and an idle one has no timer.
 */
export class ActivationContext implements ActorContext {
  #log: Logger | undefined;
  /** Pending self timers (undefined until the first); the host clears them when the activation stops. */
  timers: Set<Timer> | undefined;

  constructor(
    readonly kind: ActorKind,
    readonly key: string,
    readonly id: string,
    private readonly services: ContextServices,
    readonly self: SelfControl,
  ) {}

  get nodeId(): string {
    return this.services.nodeId;
  }

  get clock(): Clock {
    return this.services.clock;
  }

  get ids(): SnowflakeGenerator {
    return this.services.ids;
  }

  get log(): Logger {
    return (this.#log ??= this.services.log.child({ actor: this.id }));
  }

  ask<K extends ActorKind>(kind: K, key: string, command: CommandOf<K>, deadlineMs?: number): Promise<ReplyOf<K>> {
    return this.services.messenger.ask(kind, key, command, deadlineMs);
  }

  tell<K extends ActorKind>(kind: K, key: string, command: CommandOf<K>): void {
    this.services.messenger.tell(kind, key, command);
  }

  fanOut(sessionIds: readonly string[], event: DispatchEvent): void {
    this.services.metrics.fannedOut(this.kind, sessionIds.length);
    this.services.messenger.fanOut(sessionIds, event, this.id);
  }

  pushFrames(nodeId: string, socketId: string, frames: readonly string[], closeCode?: number): void {
    this.services.messenger.pushFrames(nodeId, socketId, frames, closeCode);
  }

  livesHere(kind: ActorKind, key: string): boolean {
    return this.services.messenger.livesHere(kind, key);
  }

  tellSelfAfter(delayMs: number, command: CommandOf<ActorKind>): () => void {
    const timer = setTimeout(selfTimerFired, delayMs, this, command);
    timer.unref();
    (this.timers ??= new Set()).add(timer);
    return () => {
      clearTimeout(timer);
      this.timers?.delete(timer);
    };
  }

  /** Clears every pending self timer (the activation stopped). */
  clearTimers(): void {
    if (!this.timers) return;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers = undefined;
  }

  stopSelf(): void {
    this.self.stopSelf(this);
  }

  evictSelf(): void {
    this.self.evictSelf(this);
  }
}

/**
 * The commit fence of an activation in cluster mode: a write goes through only while `lease` holds the
 * epoch the guard still knows as current, so a deposed activation's writes are refused.
 */
export function leaseFence(
  guard: ActivationGuard,
  kind: ActorKind,
  key: string,
  lease: { readonly epoch: number | undefined },
): CommitFence {
  return () =>
    lease.epoch === undefined
      ? Promise.reject(new WrongOwnerError(`${kind}:${key} holds no lease`))
      : guard.assertCommittable(kind, key, lease.epoch);
}
