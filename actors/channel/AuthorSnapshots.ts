import { publicUserOf, type PublicUser } from './publicUser.js';
import { isJsonObject, parseJson } from '../../src/domain/jsonValue.js';

/** An author's public user object, and the same serialized once for storage. */
export interface AuthorSnapshot {
  readonly user: PublicUser;
  readonly json: string;
}

/**
 * Turns the member JSON of a caller's access snapshot into the author snapshot stored with a message. The last
 * snapshot per author is kept with the JSON it came from, so a run of messages by the same author
 * parses and serializes the author once, not per message.
 */
export class AuthorSnapshots {
  readonly #byUser = new Map<string, { source: string; snapshot: AuthorSnapshot }>();

  constructor(private readonly capacity = 1_000) {}

  /**
   * The snapshot of `userId` from the `user` inside the member JSON (guild channels), else `fallback` (the user
   * as the channel's user store has it, or `{id}`).
   */
  resolve(userId: string, memberJson: string, fallback: () => PublicUser): AuthorSnapshot {
    const source = memberJson;
    const cached = this.#byUser.get(userId);
    if (cached !== undefined && source !== '' && cached.source === source) return cached.snapshot;
    const user = this.#fromMember(userId, memberJson) ?? fallback();
    const snapshot = { user, json: JSON.stringify(user) };
    if (source !== '') {
      this.#byUser.delete(userId);
      this.#byUser.set(userId, { source, snapshot });
      if (this.#byUser.size > this.capacity) {
        const oldest = this.#byUser.keys().next();
        if (oldest.done !== true) this.#byUser.delete(oldest.value);
      }
    }
    return snapshot;
  }

  #fromMember(userId: string, memberJson: string): PublicUser | undefined {
    if (memberJson === '') return undefined;
    try {
      const member = parseJson(memberJson);
      const user = publicUserOf(isJsonObject(member) ? member['user'] : undefined);
      return user?.id === userId ? user : undefined;
    } catch {
      return undefined;
    }
  }
}
