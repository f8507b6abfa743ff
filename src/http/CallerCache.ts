import type { Caller } from '../../proto/gen/chorus/v1/common.js';

/** Tokens remembered at most; the oldest entry goes first when full. */
const DEFAULT_MAX_ENTRIES = 10_000;

/**
 * Callers this edge authenticated through a User actor on ANOTHER node, remembered for `ttlMs`, so a
 * client sending a burst of requests costs one cross-node hop per ttl instead of one per request.
 * Tokens whose User actor is local are never cached (the ask is a mailbox post), so in embedded mode
 * and for locally owned users a revoked token fails at once; a token revoked on another node keeps
 * working here for at most `ttlMs` (1 s by default; 0 turns the cache off).
 */
export class CallerCache {
  readonly #entries = new Map<string, { caller: Caller; expiresAt: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = DEFAULT_MAX_ENTRIES,
    private readonly now: () => number = Date.now,
  ) {}

  get(token: string): Caller | undefined {
    const entry = this.#entries.get(token);
    if (entry === undefined) return undefined;
    if (entry.expiresAt > this.now()) return entry.caller;
    this.#entries.delete(token);
    return undefined;
  }

  put(token: string, caller: Caller): void {
    if (this.ttlMs <= 0) return;
    this.#entries.delete(token); // re-inserted last: Map order is the eviction order
    this.#entries.set(token, { caller, expiresAt: this.now() + this.ttlMs });
    if (this.#entries.size > this.maxEntries) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
  }
}
