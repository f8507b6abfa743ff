import type { ActorHost } from '../actors/runtime/ActorHost.js';
import { ActorKind } from '../actors/runtime/ActorKind.js';
import type { DispatchEvent } from '../proto/gen/chorus/v1/common.js';
import type { SessionCommand } from '../proto/gen/chorus/v1/session.js';
import { toAppError } from '../src/domain/errors.js';
import type { Logger } from '../src/domain/Logger.js';

/** What delivery needs from the local host. */
export type SessionHost = Pick<ActorHost, 'serveActive' | 'tell' | 'ask' | 'evict'>;

/** How SessionDelivery reaches the rest of the system. */
export interface SessionDeliveryDeps {
  readonly host: SessionHost;
  readonly log: Logger;
  /** True while this node owns the session under its current view. */
  readonly owns: (sessionId: string) => boolean;
  /** Sends an event on to the session's owner under the current view (it moved while activating). */
  readonly reroute: (sessionId: string, event: DispatchEvent, source: string) => void;
  /** Tells `source` (`kind:key`) to forget sessions that no longer exist. */
  readonly forget: (source: string, sessionIds: readonly string[]) => void;
}

/** A session being activated, and the events that arrived for it meanwhile, in arrival order. */
interface Activating {
  readonly events: DispatchEvent[];
  readonly sources: Set<string>;
  readonly since: number;
  attempts: number;
  /** Batches waiting for the activation's outcome (their senders acknowledge once it is known). */
  readonly settled: (() => void)[];
}

/** How long an activation that fails for a passing reason (a lapsing lease) is retried. */
const RETRY_FOR_MS = 15_000;
/** Events held for one session while it activates; past this the session is invalidated instead. */
const MAX_HELD = 10_000;

/** What a batch every session took at once answers. */
const DELIVERED: Promise<void> = Promise.resolve();

const dispatch = (event: DispatchEvent): SessionCommand => ({ command: { $case: 'dispatch', dispatch: event } });

/** The batches waiting on an activation learn its outcome. */
function settle(activating: Activating): void {
  for (const resolve of activating.settled.splice(0)) resolve();
}

/**
 * Hands fan-out batches to the Session actors of this node (DESIGN §4 step 4, §8.5). An active session
 * with an idle mailbox takes the event at once, in this loop (Actor.serveNow); a busy one gets it queued
 * behind what it has, so a session's events never overtake each other. An inactive one is activated by the dispatch: it loads itself from the SessionStore
 * (its node died, or it was handed off) and events arriving meanwhile wait here, in order, until the
 * activation is through. A session the store does not know is gone: its events are dropped and the
 * actors that sent them are told to forget it. An activation refused for a passing reason (the dead
 * owner's lease has not lapsed yet) is retried, or forwarded when the session moved meanwhile.
 * A session whose mailbox is full is invalidated rather than silently missing the event (§8.7).
 */
export class SessionDelivery {
  readonly #activating = new Map<string, Activating>();

  constructor(private readonly deps: SessionDeliveryDeps) {}

  /**
   * Delivers one event to sessions hosted here. Settles (never rejects) once every session took it:
   * journaled it, or it was re-routed, or the session was found gone or invalidated. A remote sender
   * acknowledges the batch only then, so a node that dies with the event queued loses nothing.
   */
  deliver(sessionIds: readonly string[], event: DispatchEvent, source: string): Promise<void> {
    const { host } = this.deps;
    const command = dispatch(event); // one command object for the whole batch
    const taken: Promise<void>[] = [];
    for (const sessionId of sessionIds) {
      const waiting = this.#activating.size > 0 ? this.#activating.get(sessionId) : undefined;
      // An active session (nearly all of them) takes the event in one lookup, in the host: an idle one
      // journals and pushes it right here (no turn, no promise), a busy one queues it behind what it has.
      const asked = waiting ? undefined : host.serveActive(ActorKind.Session, sessionId, command);
      if (asked === true) continue;
      if (waiting) {
        if (waiting.events.length >= MAX_HELD) this.#giveUp(sessionId, waiting, 'too many events held');
        else {
          waiting.events.push(event);
          if (source) waiting.sources.add(source);
          taken.push(new Promise((resolve) => waiting.settled.push(resolve)));
        }
      } else if (asked) {
        taken.push(this.#outcome(asked, sessionId, event, source));
      } else {
        const activating: Activating = {
          events: [event],
          sources: new Set(),
          since: Date.now(),
          attempts: 0,
          settled: [],
        };
        if (source) activating.sources.add(source);
        taken.push(new Promise((resolve) => activating.settled.push(resolve)));
        this.#activating.set(sessionId, activating);
        this.#activate(sessionId, activating);
      }
    }
    return taken.length === 0 ? DELIVERED : Promise.all(taken).then(() => undefined);
  }

  /** Sessions with events held while they activate (for health and tests). */
  get activating(): number {
    return this.#activating.size;
  }

  /**
   * One event to an active session, as an ask so its outcome is known: a session evicted before it
   * journaled the event (its lease was lost) has it re-routed to its owner under the current view.
   */
  #tell(sessionId: string, event: DispatchEvent, command: SessionCommand, source: string): Promise<void> {
    return this.#outcome(this.deps.host.ask(ActorKind.Session, sessionId, command), sessionId, event, source);
  }

  /** What becomes of an event a session was asked to take: nothing more, re-routed, or the session invalidated. */
  #outcome(asked: Promise<unknown>, sessionId: string, event: DispatchEvent, source: string): Promise<void> {
    return asked.then(
      () => undefined,
      (error: unknown) => {
        const err = toAppError(error);
        if (err.kind === 'overloaded') this.#invalidate(sessionId, 'mailbox full');
        else if (err.kind === 'moved' || err.kind === 'unavailable') this.deps.reroute(sessionId, event, source);
        else if (err.kind !== 'not_found') {
          this.deps.log.warn('session_dispatch_dropped', { session: sessionId, err: err.message });
        }
      },
    );
  }

  /** The first held event activates the session through an ask, so its outcome is known here. */
  #activate(sessionId: string, activating: Activating): void {
    const first = activating.events[0];
    if (!first) {
      this.#activating.delete(sessionId);
      settle(activating);
      return;
    }
    this.deps.host.ask(ActorKind.Session, sessionId, dispatch(first)).then(
      () => {
        if (this.#activating.get(sessionId) !== activating) return; // given up meanwhile
        activating.events.shift();
        this.#activating.delete(sessionId);
        const [source = ''] = activating.sources;
        const told = activating.events.map((event) => this.#tell(sessionId, event, dispatch(event), source));
        void Promise.all(told).then(() => {
          settle(activating);
        });
      },
      (error: unknown) => {
        this.#failed(sessionId, activating, error);
      },
    );
  }

  #failed(sessionId: string, activating: Activating, error: unknown): void {
    if (this.#activating.get(sessionId) !== activating) return; // given up meanwhile
    const err = toAppError(error);
    if (err.kind === 'not_found') {
      // Ended, expired or never identified: whoever fanned out to it holds a stale subscription.
      this.#activating.delete(sessionId);
      for (const source of activating.sources) this.deps.forget(source, [sessionId]);
      settle(activating);
      return;
    }
    const passing = err.kind === 'moved' || err.kind === 'unavailable';
    if (!passing || Date.now() - activating.since > RETRY_FOR_MS) {
      this.#giveUp(sessionId, activating, err.message);
      return;
    }
    activating.attempts += 1;
    const delayMs = Math.min(1_000, 25 * 2 ** Math.min(activating.attempts, 6));
    setTimeout(() => {
      this.#retry(sessionId, activating);
    }, delayMs).unref();
  }

  #retry(sessionId: string, activating: Activating): void {
    if (this.#activating.get(sessionId) !== activating) return;
    if (this.deps.owns(sessionId)) {
      this.#activate(sessionId, activating);
      return;
    }
    this.#activating.delete(sessionId);
    const [source = ''] = activating.sources;
    for (const event of activating.events) this.deps.reroute(sessionId, event, source);
    settle(activating);
  }

  /** The events cannot be delivered: the session must not go on as if it had them. */
  #giveUp(sessionId: string, activating: Activating, reason: string): void {
    this.#activating.delete(sessionId);
    settle(activating);
    this.deps.log.warn('session_dispatch_dropped', {
      session: sessionId,
      events: activating.events.length,
      err: reason,
    });
    this.#invalidate(sessionId, `events dropped: ${reason}`);
  }

  /** Evicts the session (dropping its queue) and has a fresh activation end it and close its socket. */
  #invalidate(sessionId: string, reason: string): void {
    const { host, log } = this.deps;
    log.warn('session_invalidated', { session: sessionId, reason });
    host.evict(ActorKind.Session, sessionId);
    try {
      host.tell(ActorKind.Session, sessionId, { command: { $case: 'invalidate', invalidate: { reason } } });
    } catch (error) {
      log.warn('session_invalidate_failed', { session: sessionId, err: toAppError(error).message });
    }
  }
}
