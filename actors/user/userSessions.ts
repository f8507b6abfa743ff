import type { DispatchEvent } from '../../proto/gen/chorus/v1/common.js';
import { allowsDispatch } from '../../src/domain/intents.js';

interface SessionEntry {
  readonly shardId: number;
  readonly intents: bigint;
}

/** The live gateway sessions of one user, with the shard and intents each identified with. */
export class UserSessions {
  readonly #sessions = new Map<string, SessionEntry>();

  /** Adds or replaces a session (a resume re-attaches with the same id). */
  attach(sessionId: string, shardId: number, intents: string): void {
    this.#sessions.set(sessionId, { shardId, intents: /^\d+$/.test(intents) ? BigInt(intents) : 0n });
  }

  /** Forgets a session that ended. */
  detach(sessionId: string): void {
    this.#sessions.delete(sessionId);
  }

  /** True when the session is in the list. */
  has(sessionId: string): boolean {
    return this.#sessions.has(sessionId);
  }

  /** Every session id (guild joins and leaves go to all shards: each session picks its own). */
  all(): string[] {
    return [...this.#sessions.keys()];
  }

  /** Sessions that get a user-level event: shard 0 (where DMs live) and intents that allow it. */
  recipientsOf(event: DispatchEvent): string[] {
    const ids: string[] = [];
    for (const [id, entry] of this.#sessions) {
      if (entry.shardId === 0 && allowsDispatch(entry.intents, event.intent)) ids.push(id);
    }
    return ids;
  }
}
