/** How long a nonce makes a repeated send return the first message (Discord: "a few minutes"). */
export const NONCE_WINDOW_MS = 5 * 60_000;

/**
 * Nonces recently used per author in one channel, so a retried send (same author, same nonce)
 * returns the message it created instead of a duplicate. Refilled from the newest stored messages
 * when the channel activates, so a retry that reaches a new owner after a failover is still caught.
 */
export class NonceCache {
  readonly #entries = new Map<string, { messageId: string; atMs: number }>();

  constructor(
    private readonly windowMs = NONCE_WINDOW_MS,
    private readonly capacity = 10_000,
  ) {}

  /** The message an author created with this nonce within the window, if any. */
  find(authorId: string, nonce: string, nowMs: number): string | undefined {
    const entry = this.#entries.get(`${authorId}:${nonce}`);
    return entry !== undefined && nowMs - entry.atMs <= this.windowMs ? entry.messageId : undefined;
  }

  /** Records a created message; drops entries past the window (oldest first) and beyond capacity. */
  remember(authorId: string, nonce: string, messageId: string, nowMs: number): void {
    const key = `${authorId}:${nonce}`;
    this.#entries.delete(key);
    this.#entries.set(key, { messageId, atMs: nowMs });
    for (const [oldKey, entry] of this.#entries) {
      if (nowMs - entry.atMs <= this.windowMs && this.#entries.size <= this.capacity) break;
      this.#entries.delete(oldKey);
    }
  }

  /** Entries kept (for tests). */
  get size(): number {
    return this.#entries.size;
  }
}
