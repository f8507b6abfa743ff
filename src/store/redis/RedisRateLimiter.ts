import type { RedisConnection } from './connectRedis.js';
import { RateReservations } from './RateReservations.js';
import { RedisScript } from './redisScript.js';

/** Shapes of src/http's RateLimiter types (structural: the store does not import the edge). */
interface RateLimitHit {
  readonly allowed: boolean;
  readonly limit: number;
  readonly remaining: number;
  readonly resetAfterMs: number;
}
interface RateLimitWindow {
  readonly key: string;
  readonly limit: number;
  readonly windowMs: number;
}

// One round trip for all of a request's windows this node cannot serve from its reservations: add
// ARGV[2i] hits to each fixed window (KEYS[i], lasting ARGV[2i-1] ms; see RateReservations) and report
// each window's count and remaining life, flattened as {count1, ttl1, ...}.
const RESERVE = new RedisScript(
  'chorusRateLimitReserve',
  `local out = {}
for i, key in ipairs(KEYS) do
  local count = redis.call('INCRBY', key, ARGV[2 * i])
  local ttl = redis.call('PTTL', key)
  if ttl < 0 then redis.call('PEXPIRE', key, ARGV[2 * i - 1]); ttl = tonumber(ARGV[2 * i - 1]) end
  out[#out + 1] = count
  out[#out + 1] = ttl
end
return out`,
);

// The same windows read without counting: {count1, ttl1, ...}, ttl -2 for a window not open.
const PEEK = new RedisScript(
  'chorusRateLimitPeek',
  `local out = {}
for i, key in ipairs(KEYS) do
  out[#out + 1] = tonumber(redis.call('GET', key) or '0')
  out[#out + 1] = redis.call('PTTL', key)
end
return out`,
);

/**
 * Rate-limit windows shared by every node of a cluster (a user's budget does not multiply with the
 * node count). A busy short window is reserved in chunks and granted on the node (RateReservations),
 * so most requests make no round trip. When Redis cannot answer, the request is allowed: limits protect
 * the service, and a coordination outage must not turn into a full outage of the API.
 */
export class RedisRateLimiter {
  readonly #reservations: RateReservations;

  constructor(
    private readonly redis: RedisConnection,
    private readonly keyPrefix: string,
    private readonly now: () => number = Date.now,
  ) {
    this.#reservations = new RateReservations(now);
  }

  async hit(windows: readonly RateLimitWindow[]): Promise<RateLimitHit[]> {
    const hits = windows.map(({ key, limit }): RateLimitHit | undefined => {
      const grant = this.#reservations.take(key, limit);
      return grant && { limit, ...grant };
    });
    const asked = windows.filter((_, i) => hits[i] === undefined);
    if (asked.length === 0) return hits as RateLimitHit[];
    const chunks = asked.map(({ key, limit, windowMs }) => this.#reservations.chunkFor(key, limit, windowMs));
    const sentAt = this.now();
    let flat: number[];
    try {
      const args = asked.flatMap((window, i) => [window.windowMs, chunks[i] ?? 1]);
      flat = (await RESERVE.run(this.redis, this.#keys(asked), args)) as number[];
    } catch {
      flat = [];
    } finally {
      // Answered or not, these chunks are no longer on their way (an answer is recorded just below).
      asked.forEach(({ key }, i) => {
        this.#reservations.release(key, chunks[i] ?? 1);
      });
    }
    let next = 0;
    return windows.map((window, i) => {
      const local = hits[i];
      if (local !== undefined) return local;
      const j = next++;
      const [count, ttl] = [flat[2 * j], flat[2 * j + 1]];
      if (count === undefined || ttl === undefined) return unlimited([window])[0] as RateLimitHit;
      const { key, limit, windowMs } = window;
      const chunk = chunks[j] ?? 1;
      const granted = this.#reservations.record(key, limit, windowMs, sentAt, { chunk, count, ttlMs: ttl });
      return {
        allowed: granted >= 1,
        limit,
        remaining: Math.max(0, limit - count + Math.max(0, granted - 1)),
        resetAfterMs: ttl,
      };
    });
  }

  /** Reads the windows without counting; `allowed` says whether one more hit would pass. */
  async peek(windows: readonly RateLimitWindow[]): Promise<RateLimitHit[]> {
    try {
      const flat = (await PEEK.run(this.redis, this.#keys(windows), [])) as number[];
      return windows.map(({ limit, windowMs }, i) => {
        const ttl = flat[2 * i + 1] ?? -2;
        const count = ttl === -2 ? 0 : (flat[2 * i] ?? 0); // -2: no such key (never opened, or expired)
        return {
          allowed: count < limit,
          limit,
          remaining: Math.max(0, limit - count),
          resetAfterMs: ttl > 0 ? ttl : windowMs,
        };
      });
    } catch {
      return unlimited(windows);
    }
  }

  /** Closes the windows of these keys; when Redis cannot answer, they simply expire as usual. */
  async reset(keys: readonly string[]): Promise<void> {
    if (keys.length === 0) return;
    this.#reservations.forget(keys);
    try {
      await this.redis.del(keys.map((key) => `${this.keyPrefix}rl:${key}`));
    } catch {
      // Nothing to undo: the windows run out by themselves.
    }
  }

  #keys(windows: readonly RateLimitWindow[]): string[] {
    return windows.map((window) => `${this.keyPrefix}rl:${window.key}`);
  }
}

/** Redis did not answer: every window reads as unused (see the class comment). */
function unlimited(windows: readonly RateLimitWindow[]): RateLimitHit[] {
  return windows.map(({ limit, windowMs }) => ({ allowed: true, limit, remaining: limit, resetAfterMs: windowMs }));
}
