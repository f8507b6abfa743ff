/**
 * The sessions subscribed to a guild's dispatches, kept outside the Guild actor so that a guild
 * re-activated on another node (its node died, or it passivated) keeps fanning out to the sessions
 * that were subscribed. Implemented in src/store (in memory for embedded mode, Redis for cluster mode).
 */

/** One session subscribed to a guild. */
export interface GuildSubscription {
  readonly sessionId: string;
  readonly userId: string;
  /** The session's Identify intents, as a decimal string. */
  readonly intents: string;
}

/**
 * Subscriptions per guild. Writes resolve once durable; `add`, `remove` and `delete` are writes the
 * commit fence guards (actors/runtime/fenceStores), so a deposed Guild activation cannot change them.
 */
export interface SubscriptionStore {
  /** Adds or replaces the subscription of `subscription.sessionId`. */
  add(guildId: string, subscription: GuildSubscription): Promise<void>;
  /** Removes these sessions' subscriptions (absent ones are ignored). */
  remove(guildId: string, sessionIds: readonly string[]): Promise<void>;
  /** Every subscription of the guild, in no particular order. */
  list(guildId: string): Promise<GuildSubscription[]>;
  /** Forgets every subscription of the guild (it was deleted). */
  delete(guildId: string): Promise<void>;
}
