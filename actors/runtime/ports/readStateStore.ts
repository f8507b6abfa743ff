/** Where one user stopped reading one channel (READY `read_state` entries). */
export interface ReadStateRecord {
  readonly user_id: string;
  readonly channel_id: string;
  /** The last message the user acked or sent there ('0' when mentioned before acking anything). */
  readonly last_message_id: string;
  /** Mentions of the user since that message. */
  readonly mention_count: number;
  /** ISO timestamp of the newest pin the user saw, or null. */
  readonly last_pin_timestamp: string | null;
}

/**
 * Read states, one row per (user, channel the user acked, posted in or was mentioned in): bounded by the
 * channels a user ever touched, read all at once by the User actor, which owns them.
 */
export interface ReadStateStore {
  /** The user's read states in channel id order. */
  list(userId: string): Promise<ReadStateRecord[]>;
  /** Inserts or replaces the read states (one user's), each keyed by (user_id, channel_id). */
  save(states: readonly ReadStateRecord[]): Promise<void>;
}
