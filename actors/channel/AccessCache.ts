import type { ChannelAccessReply } from '../../proto/gen/chorus/v1/guild.js';
import type { Access } from './channelAccess.js';

/**
 * How long a snapshot is trusted without word from the Guild. Invalidations are tells, so one can be
 * lost: a Guild activation that died without telling its holders (kill -9 of its node), a tell
 * dropped by a full mailbox. This bounds how long such a loss leaves a stale permission in force.
 * It must also outlast any ask deadline (5 s by default), since `minVersion` is kept this long.
 */
export const ACCESS_MAX_AGE_MS = 30_000;

/** Users whose snapshots one channel keeps; beyond it the oldest fetched is dropped. */
export const ACCESS_CACHE_USERS = 1_000;

interface Entry {
  readonly access: Access;
  readonly expiresAtMs: number;
}

/**
 * The permission snapshots a channel got from its Guild, per user (DESIGN §4 step 2), so a user's
 * second message asks the Guild nothing. The Guild remembers who holds snapshots and tells them
 * `invalidate_access` whenever what a snapshot carries changes (roles, overwrites, the member object)
 * and when it deactivates. Only the ChannelActor's turns touch it.
 */
export class AccessCache {
  /** Insertion order is fetch order: the first entry is the oldest, evicted first. */
  readonly #entries = new Map<string, Entry>();
  /**
   * The newest version an invalidation carried. A reply older than it was computed before that change
   * and is used for its one request but not kept: the tell and the reply travel on different calls,
   * so the reply may arrive last. Kept only ACCESS_MAX_AGE_MS (longer than any ask can wait for its
   * reply), so a Guild re-activated on a node whose clock is behind is cached again soon after.
   */
  #minVersion = 0n;
  #minVersionUntilMs = 0;

  /** Number of users cached. */
  get size(): number {
    return this.#entries.size;
  }

  /** The cached access of `userId`, unless it is missing or expired. */
  get(userId: string, nowMs: number): Access | undefined {
    const entry = this.#entries.get(userId);
    if (entry === undefined) return undefined;
    if (entry.expiresAtMs > nowMs) return entry.access;
    this.#entries.delete(userId);
    return undefined;
  }

  /**
   * Keeps a Guild reply, unless it predates an invalidation already received or is already past its
   * `valid_until_ms` (a running timeout ends then; permissions change with time, with no tell).
   * Returns whether it was kept.
   */
  put(access: Access, reply: ChannelAccessReply, nowMs: number): boolean {
    if (nowMs < this.#minVersionUntilMs && BigInt(reply.version || '0') < this.#minVersion) return false;
    const validUntilMs = Number(reply.validUntilMs || '0');
    const expiresAtMs =
      validUntilMs > 0 ? Math.min(validUntilMs, nowMs + ACCESS_MAX_AGE_MS) : nowMs + ACCESS_MAX_AGE_MS;
    if (expiresAtMs <= nowMs) return false;
    this.#entries.delete(access.userId); // re-inserted last: it is now the newest
    this.#entries.set(access.userId, { access, expiresAtMs });
    while (this.#entries.size > ACCESS_CACHE_USERS) {
      const oldest = this.#entries.keys().next();
      if (oldest.done === true) break;
      this.#entries.delete(oldest.value);
    }
    return true;
  }

  /** The Guild changed what snapshots carry: drops `userId`'s (everyone's when empty). */
  invalidate(version: string, userId: string, nowMs: number): void {
    const changed = BigInt(version || '0');
    if (changed > this.#minVersion || nowMs >= this.#minVersionUntilMs) this.#minVersion = changed;
    this.#minVersionUntilMs = nowMs + ACCESS_MAX_AGE_MS;
    if (userId === '') this.#entries.clear();
    else this.#entries.delete(userId);
  }
}
