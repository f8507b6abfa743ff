import { ForbiddenError } from '../../src/domain/errors.js';
import type { ChannelRecord, UserRecord } from '../runtime/ports/records.js';
import type { UserStore } from '../runtime/ports/stores.js';
import { ACCESS_MAX_AGE_MS } from './AccessCache.js';
import { ChannelType } from './channelJson.js';

/** Discord's relationship type of a block (the blocker's side; the blocked user's side shows nothing). */
const BLOCKED = 2;

/** True when either user has blocked the other (each record holds only its owner's side). */
export function eitherBlocked(
  a: Pick<UserRecord, 'id' | 'relationships'>,
  b: Pick<UserRecord, 'id' | 'relationships'>,
): boolean {
  return a.relationships[b.id] === BLOCKED || b.relationships[a.id] === BLOCKED;
}

/** What Discord answers a message, or a group DM addition, between users with a block between them. */
const CANNOT_MESSAGE = (): ForbiddenError => new ForbiddenError('Cannot send messages to this user', 50_007);

/**
 * Refuses a reaction in a private channel (DM or group DM) to a message whose author blocked the reacting
 * user: 403 90001, as Discord answers. Reactions in guild channels are not affected.
 */
export async function requireReactionUnblocked(
  channel: ChannelRecord,
  authorId: string,
  reactorId: string,
  users: UserStore,
): Promise<void> {
  if (channel.guild_id !== null || authorId === reactorId) return;
  const author = await users.get(authorId);
  if (author?.relationships[reactorId] === BLOCKED) throw new ForbiddenError('Reaction was blocked', 90_001);
}

/** Refuses adding `added` to a group DM when the adder and they block each other either way: 403 50007. */
export async function requireAddable(adderId: string, added: UserRecord, users: UserStore): Promise<void> {
  if (added.relationships[adderId] === BLOCKED) throw CANNOT_MESSAGE();
  const adder = await users.get(adderId);
  if (adder && eitherBlocked(adder, added)) throw CANNOT_MESSAGE();
}

/**
 * Whether the two recipients of a 1:1 DM block each other, read once from the UserStore and kept
 * for the activation. The blocker's User actor asks this channel `invalidate_access` after it
 * stored a block or unblock (and before it replies), so the next message reads the records again.
 * Like the Guild's snapshots, the answer expires: a lost invalidation stays in force only so long.
 * Only the ChannelActor's turns touch it.
 */
export class DmBlockCache {
  #blocked: boolean | undefined;
  #expiresAtMs = 0;

  /** Drops the cached answer. */
  invalidate(): void {
    this.#blocked = undefined;
  }

  /**
   * Refuses a message in a 1:1 DM when either recipient blocked the other: 403 50007, as Discord
   * answers both the blocked user and the blocker. Group DMs and guild channels pass.
   */
  async requireUnblocked(channel: ChannelRecord, users: UserStore, nowMs: number): Promise<void> {
    if (channel.type !== ChannelType.DM) return;
    if (this.#blocked === undefined || this.#expiresAtMs <= nowMs) {
      this.#blocked = await this.#read(channel, users);
      this.#expiresAtMs = nowMs + ACCESS_MAX_AGE_MS;
    }
    if (this.#blocked) throw CANNOT_MESSAGE();
  }

  async #read(channel: ChannelRecord, users: UserStore): Promise<boolean> {
    const [firstId, secondId] = channel.recipient_ids;
    if (firstId === undefined || secondId === undefined) return false;
    const [first, second] = await Promise.all([users.get(firstId), users.get(secondId)]);
    return first !== undefined && second !== undefined && eitherBlocked(first, second);
  }
}
