/**
 * Sessions an actor fans out to, kept per owner (a guild's subscribers, a user's gateway sessions)
 * outside the actor, so that the owner re-activated on another node (its node died) or after
 * passivation keeps reaching the sessions it had. Implemented in src/store (in memory for embedded
 * mode, Redis for cluster mode); the entry types and their aliases are in subscriptionStore.ts and
 * userSessionStore.ts.
 */

/** What every entry has: the session it names (one entry per session and owner). */
export interface SessionEntry {
  readonly sessionId: string;
}

/**
 * Session entries per owner. Writes resolve once durable; `add`, `remove` and `delete` are writes the
 * commit fence guards (actors/runtime/fenceStores), so a deposed activation cannot change them.
 */
export interface SessionIndexStore<T extends SessionEntry> {
  /** Adds or replaces the entry of `entry.sessionId`. */
  add(ownerId: string, entry: T): Promise<void>;
  /** Removes these sessions' entries (absent ones are ignored). */
  remove(ownerId: string, sessionIds: readonly string[]): Promise<void>;
  /** Every entry of the owner, in no particular order. */
  list(ownerId: string): Promise<T[]>;
  /** Forgets every entry of the owner (it was deleted). */
  delete(ownerId: string): Promise<void>;
}
