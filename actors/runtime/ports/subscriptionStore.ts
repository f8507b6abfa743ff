import type { SessionIndexStore } from './sessionIndex.js';

/**
 * The sessions subscribed to a guild's dispatches (one SessionIndexStore owner per guild id), kept
 * outside the Guild actor so that a guild re-activated on another node (its node died, or it
 * passivated) keeps fanning out to the sessions that were subscribed.
 */

/** One session subscribed to a guild. */
export interface GuildSubscription {
  readonly sessionId: string;
  readonly userId: string;
  /** The session's Identify intents, as a decimal string. */
  readonly intents: string;
}

/** Subscriptions per guild. */
export type SubscriptionStore = SessionIndexStore<GuildSubscription>;
