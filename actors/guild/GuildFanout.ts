import type { DispatchEvent } from '../../proto/gen/chorus/v1/common.js';
import { allowsDispatch, intentOf, type GatedEvent } from '../../src/domain/intents.js';
import { passiveAudience, type GuildPassivity } from './passiveAudience.js';

/** A session subscribed to the guild's dispatches. */
export interface Subscription {
  readonly userId: string;
  readonly intents: bigint;
  /** The session looks at the guild (it sent op 14 / 37): a large guild sends it every message and typing. */
  active: boolean;
}

/**
 * Builds a guild dispatch, gated by the intent the event needs in a guild (src/domain/intents.ts):
 * the payload is serialized here, once, and shared by every receiving session.
 */
export function dispatchEvent(event: GatedEvent, data: unknown): DispatchEvent {
  return { event, dataJson: JSON.stringify(data), intent: intentOf(event, 'guild') };
}

/**
 * The sessions subscribed to one guild and the filter that picks who gets an event: intents, and an
 * audience predicate (usually "can view the channel") evaluated once per user, not per session.
 * One `fanOut` call per event: the system groups the sessions by node.
 */
export class GuildFanout {
  readonly #sessions = new Map<string, Subscription>();
  /**
   * The same subscriptions grouped by user: a dispatch asks its audience once per user by walking the
   * groups, rather than memoizing verdicts in a map built afresh for every event (a thousand entries each).
   */
  readonly #byUser = new Map<string, Map<string, Subscription>>();
  /**
   * The subscribed users who are bots: a large guild sends presences to bots only, and walking every subscribed
   * user for each identify's presence made a connect storm cost the square of the guild's sessions.
   */
  readonly #bots = new Set<string>();

  /** `passivity`: the guild's side of the passive-session rule (passiveAudience.ts); none: every session is active. */
  constructor(
    private readonly fanOut: (sessionIds: readonly string[], event: DispatchEvent) => void,
    private readonly passivity?: GuildPassivity,
  ) {}

  get size(): number {
    return this.#sessions.size;
  }

  /** Sorts the subscribed users into bots again: subscriptions load beside the guild's state on activation. */
  recountBots(): void {
    this.#bots.clear();
    for (const userId of this.#byUser.keys()) if (this.passivity?.isBot(userId) === true) this.#bots.add(userId);
  }

  /** How many users have at least one subscribed session (approximate_presence_count). */
  get userCount(): number {
    return this.#byUser.size;
  }

  /** Subscribes a session (passive); a session subscribing again keeps its activity. */
  subscribe(sessionId: string, userId: string, intents: bigint): void {
    const previous = this.#sessions.get(sessionId);
    if (previous && previous.userId !== userId) this.unsubscribe(sessionId);
    const subscription = { userId, intents, active: previous?.active === true };
    this.#sessions.set(sessionId, subscription);
    let sessions = this.#byUser.get(userId);
    if (!sessions) {
      this.#byUser.set(userId, (sessions = new Map<string, Subscription>()));
      if (this.passivity?.isBot(userId) === true) this.#bots.add(userId);
    }
    sessions.set(sessionId, subscription);
  }

  /** Marks a subscribed session active (it looks at the guild); false when it is not subscribed. */
  activate(sessionId: string): boolean {
    const subscription = this.#sessions.get(sessionId);
    if (subscription) subscription.active = true;
    return subscription !== undefined;
  }

  unsubscribe(sessionId: string): void {
    const subscription = this.#sessions.get(sessionId);
    if (!subscription) return;
    this.#sessions.delete(sessionId);
    const sessions = this.#byUser.get(subscription.userId);
    sessions?.delete(sessionId);
    if (sessions?.size === 0) this.#forgetUser(subscription.userId);
  }

  #forgetUser(userId: string): void {
    this.#byUser.delete(userId);
    this.#bots.delete(userId);
  }

  /** Session ids of one user. */
  sessionsOf(userId: string): string[] {
    return [...(this.#byUser.get(userId)?.keys() ?? [])];
  }

  /** Drops every session of a user; returns them. */
  unsubscribeUser(userId: string): string[] {
    const dropped = this.sessionsOf(userId);
    for (const sessionId of dropped) this.#sessions.delete(sessionId);
    this.#forgetUser(userId);
    return dropped;
  }

  /** Drops every subscription (the guild was deleted). */
  clear(): void {
    this.#sessions.clear();
    this.#byUser.clear();
    this.#bots.clear();
  }

  /** Users with at least one subscribed session. */
  subscribedUsers(): Set<string> {
    return new Set(this.#byUser.keys());
  }

  /**
   * Sends `event` to sessions whose intents allow it and whose user passes `audience`. Sessions of
   * `alwaysUserId` get it regardless of intents (still subject to `audience`): as a second batch
   * marked ungated (intent 0), since sessions filter by intent themselves; the payload is shared. So do the
   * sessions of users `exempt` names (user accounts for PRESENCE_UPDATE, which Discord gates for bots only).
   * In a large guild, messages, reactions and typing skip passive user sessions the event does not name
   * (passiveAudience.ts); `alwaysUserId`'s sessions still get it. `audience` and the passive rule are
   * asked at most once per user, and only for a user with a session the other filters let through.
   */
  send(
    event: DispatchEvent,
    audience: (userId: string) => boolean = () => true,
    alwaysUserId = '',
    exempt?: (userId: string) => boolean,
  ): void {
    this.#sendAmong(this.#byUser.keys(), event, audience, alwaysUserId, exempt);
  }

  /** `send` to the subscribed bots alone (a large guild's presences): a walk of the bots, not of every user. */
  sendToBots(event: DispatchEvent, audience: (userId: string) => boolean): void {
    this.#sendAmong(this.#bots, event, audience, '');
  }

  #sendAmong(
    userIds: Iterable<string>,
    event: DispatchEvent,
    audience: (userId: string) => boolean,
    alwaysUserId: string,
    exempt?: (userId: string) => boolean,
  ): void {
    const passive = this.passivity ? passiveAudience(event, this.passivity) : undefined;
    const targets: string[] = [];
    const own: string[] = [];
    for (const userId of userIds) {
      const sessions = this.#byUser.get(userId);
      if (!sessions) continue;
      const always = (userId === alwaysUserId || exempt?.(userId) === true) && event.intent !== 0;
      let reached: boolean | undefined;
      let allowed: boolean | undefined;
      for (const [sessionId, { intents, active }] of sessions) {
        if (!always && !allowsDispatch(intents, event.intent)) continue;
        if (passive && !active && userId !== alwaysUserId) {
          reached ??= passive(userId);
          if (!reached) continue;
        }
        allowed ??= audience(userId);
        if (!allowed) break; // the user may not see it: none of their sessions
        (always ? own : targets).push(sessionId);
      }
    }
    if (targets.length > 0) this.fanOut(targets, event);
    if (own.length > 0) this.fanOut(own, { ...event, intent: 0 });
  }

  /** Sends `event` to the given sessions only (e.g. GUILD_DELETE to a removed member). */
  sendTo(sessionIds: readonly string[], event: DispatchEvent): void {
    const targets = sessionIds.filter((id) => {
      const subscription = this.#sessions.get(id);
      return subscription !== undefined && allowsDispatch(subscription.intents, event.intent);
    });
    if (targets.length > 0) this.fanOut(targets, event);
  }
}
