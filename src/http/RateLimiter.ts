/** Outcome of taking one request from a bucket. */
export interface RateLimitHit {
  readonly allowed: boolean;
  readonly limit: number;
  readonly remaining: number;
  /** Until the bucket refills. */
  readonly resetAfterMs: number;
}

/** One fixed window a request counts against. */
export interface RateLimitWindow {
  readonly key: string;
  readonly limit: number;
  readonly windowMs: number;
}

/**
 * Counts requests per bucket key in fixed windows (in-process here; Redis in cluster mode). A request
 * counts against all its windows at once (the global one and its route's), in one round trip.
 */
export interface RateLimiter {
  /** One hit per window, in the order given. */
  hit(windows: readonly RateLimitWindow[]): Promise<RateLimitHit[]>;
  /**
   * Reads the windows without counting (e.g. GET /gateway/bot's remaining session starts): `allowed`
   * says whether one more hit would pass; a window not open yet reports its full limit and length.
   */
  peek(windows: readonly RateLimitWindow[]): Promise<RateLimitHit[]>;
  /** Closes the windows of these keys at once (a successful login clears its failed attempts). */
  reset(keys: readonly string[]): Promise<void>;
}

/** A rate limiter for one process: fixed windows kept in a map, swept as they expire. */
export class InMemoryRateLimiter implements RateLimiter {
  readonly #windows = new Map<string, { count: number; resetAt: number }>();
  #nextSweep = 0;

  constructor(private readonly now: () => number = Date.now) {}

  hit(windows: readonly RateLimitWindow[]): Promise<RateLimitHit[]> {
    const now = this.now();
    if (now >= this.#nextSweep) this.#sweep(now);
    return Promise.resolve(windows.map((window) => this.#hitOne(window, now)));
  }

  peek(windows: readonly RateLimitWindow[]): Promise<RateLimitHit[]> {
    const now = this.now();
    return Promise.resolve(
      windows.map(({ key, limit, windowMs }) => {
        const window = this.#windows.get(key);
        const open = window !== undefined && window.resetAt > now;
        const count = open ? window.count : 0;
        return {
          allowed: count < limit,
          limit,
          remaining: Math.max(0, limit - count),
          resetAfterMs: open ? window.resetAt - now : windowMs,
        };
      }),
    );
  }

  reset(keys: readonly string[]): Promise<void> {
    for (const key of keys) this.#windows.delete(key);
    return Promise.resolve();
  }

  #hitOne({ key, limit, windowMs }: RateLimitWindow, now: number): RateLimitHit {
    let window = this.#windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + windowMs };
      this.#windows.set(key, window);
    }
    window.count += 1;
    return {
      allowed: window.count <= limit,
      limit,
      remaining: Math.max(0, limit - window.count),
      resetAfterMs: window.resetAt - now,
    };
  }

  #sweep(now: number): void {
    for (const [key, window] of this.#windows) if (window.resetAt <= now) this.#windows.delete(key);
    this.#nextSweep = now + 10_000;
  }
}
