import type { SubscriptionStore } from '../runtime/ports/subscriptionStore.js';
import type { GuildFanout } from './GuildFanout.js';

/**
 * A guild's session subscriptions, written through to the SubscriptionStore before the in-memory
 * fan-out set changes, and loaded back on activation: a Guild actor re-activated on another node (its
 * node died) or after passivation keeps fanning out to the sessions that were subscribed. Entries of
 * sessions that ended unseen are dropped when a fan-out reports them gone (an `unsubscribe` tell).
 */
export class GuildSubscriptions {
  constructor(
    private readonly fanout: GuildFanout,
    private readonly store: SubscriptionStore,
    private readonly guildId: string,
  ) {}

  /** Fills the fan-out set from the store (activation). */
  async load(): Promise<void> {
    for (const { sessionId, userId, intents } of await this.store.list(this.guildId)) {
      this.fanout.subscribe(sessionId, userId, /^\d+$/.test(intents) ? BigInt(intents) : 0n);
    }
  }

  /** Subscribes a session once the store has it. */
  async subscribe(sessionId: string, userId: string, intents: bigint): Promise<void> {
    await this.store.add(this.guildId, { sessionId, userId, intents: intents.toString() });
    this.fanout.subscribe(sessionId, userId, intents);
  }

  /** Unsubscribes sessions (idempotent). */
  async unsubscribe(sessionIds: readonly string[]): Promise<void> {
    for (const sessionId of sessionIds) this.fanout.unsubscribe(sessionId);
    await this.store.remove(this.guildId, sessionIds);
  }

  /** Unsubscribes every session of a user (removed from the guild); returns them. */
  async unsubscribeUser(userId: string): Promise<string[]> {
    const dropped = this.fanout.unsubscribeUser(userId);
    await this.store.remove(this.guildId, dropped);
    return dropped;
  }

  /** Drops every subscription (the guild was deleted). */
  async clear(): Promise<void> {
    this.fanout.clear();
    await this.store.delete(this.guildId);
  }
}
