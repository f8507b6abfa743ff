/** Outcome of taking one request from a bucket. */
export interface RateLimitHit {
  readonly allowed: boolean;
  readonly limit: number;
  readonly remaining: number;
  /** Until the bucket refills. */
  readonly resetAfterMs: number;
}

/** Counts requests per bucket key in fixed windows (in-process here; Redis in cluster mode). */
export interface RateLimiter {
  hit(key: string, limit: number, windowMs: number): Promise<RateLimitHit>;
}

/** A rate limiter for one process: fixed windows kept in a map, swept as they expire. */
export class InMemoryRateLimiter implements RateLimiter {
  readonly #windows = new Map<string, { count: number; resetAt: number }>();
  #nextSweep = 0;

  constructor(private readonly now: () => number = Date.now) {}

  hit(key: string, limit: number, windowMs: number): Promise<RateLimitHit> {
    const now = this.now();
    if (now >= this.#nextSweep) this.#sweep(now);
    let window = this.#windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + windowMs };
      this.#windows.set(key, window);
    }
    window.count += 1;
    const allowed = window.count <= limit;
    return Promise.resolve({
      allowed,
      limit,
      remaining: Math.max(0, limit - window.count),
      resetAfterMs: window.resetAt - now,
    });
  }

  #sweep(now: number): void {
    for (const [key, window] of this.#windows) if (window.resetAt <= now) this.#windows.delete(key);
    this.#nextSweep = now + 10_000;
  }
}
