/**
 * Users noted per channel before the channel counts as holding everyone's snapshot (it is then told
 * of every member's change): bounds this map at about the channels' own cache size.
 */
const USERS_PER_CHANNEL = 1_000;

/** The channel may hold any user's snapshot. */
const EVERYONE = 'everyone';

/**
 * The channels that were answered a channel_access since they were last told to drop it, and for
 * which users: whom the Guild tells `invalidate_access` when what a snapshot carries changes. Telling
 * only these (not every channel of the guild) keeps idle channels asleep. Part of the Guild's
 * in-memory state: a new activation holds nobody, so a stopping one tells its holders first.
 */
export class AccessHolders {
  readonly #byChannel = new Map<string, Set<string> | typeof EVERYONE>();

  /** Number of channels holding snapshots. */
  get size(): number {
    return this.#byChannel.size;
  }

  /** `channelId` was answered `userId`'s snapshot. */
  note(channelId: string, userId: string): void {
    const users = this.#byChannel.get(channelId);
    if (users === EVERYONE) return;
    if (users === undefined) {
      this.#byChannel.set(channelId, new Set([userId]));
      return;
    }
    users.add(userId);
    if (users.size > USERS_PER_CHANNEL) this.#byChannel.set(channelId, EVERYONE);
  }

  /** Every holder, forgotten: they are told to drop every snapshot. */
  takeAll(): string[] {
    const channelIds = [...this.#byChannel.keys()];
    this.#byChannel.clear();
    return channelIds;
  }

  /** The channels that may hold `userId`'s snapshot; they forget that user (they are told to drop it). */
  takeUser(userId: string): string[] {
    const channelIds: string[] = [];
    for (const [channelId, users] of this.#byChannel) {
      if (users === EVERYONE) {
        channelIds.push(channelId); // still holds other users' snapshots: stays noted
      } else if (users.delete(userId)) {
        channelIds.push(channelId);
        if (users.size === 0) this.#byChannel.delete(channelId);
      }
    }
    return channelIds;
  }

  /** Forgets a channel (told to drop every snapshot, or deleted); true when it held any. */
  takeChannel(channelId: string): boolean {
    return this.#byChannel.delete(channelId);
  }
}
