import type { SessionIndexStore } from './sessionIndex.js';

/**
 * A user's gateway sessions (one SessionIndexStore owner per user id), kept outside the User actor:
 * it may passivate while its user is connected, and a User actor re-activated on another node (its
 * node died) keeps sending DMs, relationship and account events to the sessions it had.
 */

/** One gateway session of a user, as it attached. */
export interface UserSessionEntry {
  readonly sessionId: string;
  readonly shardId: number;
  /** The session's Identify intents, as a decimal string. */
  readonly intents: string;
}

/** Gateway sessions per user. */
export type UserSessionStore = SessionIndexStore<UserSessionEntry>;
