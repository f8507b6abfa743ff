import type { RedisConnection } from './connectRedis.js';
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

// One round trip for all of a request's windows: count it in each fixed window (KEYS[i], lasting
// ARGV[i] ms) and report each window's count and remaining life, flattened as {count1, ttl1, ...}.
const HIT = new RedisScript(
  'chorusRateLimitHits',
  `local out = {}
for i, key in ipairs(KEYS) do
  local count = redis.call('INCR', key)
  if count == 1 then redis.call('PEXPIRE', key, ARGV[i]) end
  local ttl = redis.call('PTTL', key)
  if ttl < 0 then redis.call('PEXPIRE', key, ARGV[i]); ttl = tonumber(ARGV[i]) end
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
 * node count). When Redis cannot answer, the request is allowed: limits protect the service, and a
 * coordination outage must not turn into a full outage of the API.
 */
export class RedisRateLimiter {
  constructor(
    private readonly redis: RedisConnection,
    private readonly keyPrefix: string,
  ) {}

  async hit(windows: readonly RateLimitWindow[]): Promise<RateLimitHit[]> {
    try {
      const flat = (await HIT.run(
        this.redis,
        this.#keys(windows),
        windows.map((window) => window.windowMs),
      )) as number[];
      return windows.map(({ limit }, i) => {
        const count = flat[2 * i] ?? 0;
        return {
          allowed: count <= limit,
          limit,
          remaining: Math.max(0, limit - count),
          resetAfterMs: flat[2 * i + 1] ?? 0,
        };
      });
    } catch {
      return unlimited(windows);
    }
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
