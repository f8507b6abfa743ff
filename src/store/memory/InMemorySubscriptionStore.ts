import type { GuildSubscription, SubscriptionStore } from '../../../actors/runtime/ports/subscriptionStore.js';

/**
 * Guild subscriptions in this process (embedded mode, unit tests): the semantics of
 * RedisSubscriptionStore. They outlive a Guild actor's passivation for as long as the process lives.
 */
export class InMemorySubscriptionStore implements SubscriptionStore {
  readonly #guilds = new Map<string, Map<string, GuildSubscription>>();

  add(guildId: string, subscription: GuildSubscription): Promise<void> {
    let sessions = this.#guilds.get(guildId);
    if (!sessions) this.#guilds.set(guildId, (sessions = new Map<string, GuildSubscription>()));
    sessions.set(subscription.sessionId, { ...subscription });
    return Promise.resolve();
  }

  remove(guildId: string, sessionIds: readonly string[]): Promise<void> {
    const sessions = this.#guilds.get(guildId);
    if (!sessions) return Promise.resolve();
    for (const sessionId of sessionIds) sessions.delete(sessionId);
    if (sessions.size === 0) this.#guilds.delete(guildId);
    return Promise.resolve();
  }

  list(guildId: string): Promise<GuildSubscription[]> {
    return Promise.resolve(
      [...(this.#guilds.get(guildId)?.values() ?? [])].map((subscription) => ({ ...subscription })),
    );
  }

  delete(guildId: string): Promise<void> {
    this.#guilds.delete(guildId);
    return Promise.resolve();
  }
}
