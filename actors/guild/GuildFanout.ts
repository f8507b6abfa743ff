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

  /** `passivity`: the guild's side of the passive-session rule (passiveAudience.ts); none: every session is active. */
  constructor(
    private readonly fanOut: (sessionIds: readonly string[], event: DispatchEvent) => void,
    private readonly passivity?: GuildPassivity,
  ) {}

  get size(): number {
    return this.#sessions.size;
  }

  /** Subscribes a session (passive); a session subscribing again keeps its activity. */
  subscribe(sessionId: string, userId: string, intents: bigint): void {
    const active = this.#sessions.get(sessionId)?.active === true;
    this.#sessions.set(sessionId, { userId, intents, active });
  }

  /** Marks a subscribed session active (it looks at the guild); false when it is not subscribed. */
  activate(sessionId: string): boolean {
    const subscription = this.#sessions.get(sessionId);
    if (subscription) subscription.active = true;
    return subscription !== undefined;
  }

  unsubscribe(sessionId: string): void {
    this.#sessions.delete(sessionId);
  }

  /** Session ids of one user. */
  sessionsOf(userId: string): string[] {
    const out: string[] = [];
    for (const [sessionId, subscription] of this.#sessions) if (subscription.userId === userId) out.push(sessionId);
    return out;
  }

  /** Drops every session of a user; returns them. */
  unsubscribeUser(userId: string): string[] {
    const dropped = this.sessionsOf(userId);
    for (const sessionId of dropped) this.#sessions.delete(sessionId);
    return dropped;
  }

  /** Drops every subscription (the guild was deleted). */
  clear(): void {
    this.#sessions.clear();
  }

  /** Users with at least one subscribed session. */
  subscribedUsers(): Set<string> {
    const users = new Set<string>();
    for (const subscription of this.#sessions.values()) users.add(subscription.userId);
    return users;
  }

  /**
   * Sends `event` to sessions whose intents allow it and whose user passes `audience`. Sessions of
   * `alwaysUserId` get it regardless of intents (still subject to `audience`): as a second batch
   * marked ungated (intent 0), since sessions filter by intent themselves; the payload is shared. So do the
   * sessions of users `exempt` names (user accounts for PRESENCE_UPDATE, which Discord gates for bots only).
   * In a large guild, messages, reactions and typing skip passive user sessions the event does not name
   * (passiveAudience.ts); `alwaysUserId`'s sessions still get it.
   */
  send(
    event: DispatchEvent,
    audience: (userId: string) => boolean = () => true,
    alwaysUserId = '',
    exempt?: (userId: string) => boolean,
  ): void {
    const verdicts = new Map<string, boolean>();
    const passive = this.passivity ? passiveAudience(event, this.passivity) : undefined;
    const passiveVerdicts = new Map<string, boolean>();
    const targets: string[] = [];
    const own: string[] = [];
    for (const [sessionId, { userId, intents, active }] of this.#sessions) {
      const always = (userId === alwaysUserId || exempt?.(userId) === true) && event.intent !== 0;
      if (!always && !allowsDispatch(intents, event.intent)) continue;
      if (passive && !active && userId !== alwaysUserId) {
        let reached = passiveVerdicts.get(userId);
        if (reached === undefined) {
          reached = passive(userId);
          passiveVerdicts.set(userId, reached);
        }
        if (!reached) continue;
      }
      let allowed = verdicts.get(userId);
      if (allowed === undefined) {
        allowed = audience(userId);
        verdicts.set(userId, allowed);
      }
      if (allowed) (always ? own : targets).push(sessionId);
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
