import type { Redis } from 'ioredis';
import { RedisScript } from './redisScript.js';

/** Shape of src/http's RateLimitHit (structural: the store does not import the edge). */
interface RateLimitHit {
  readonly allowed: boolean;
  readonly limit: number;
  readonly remaining: number;
  readonly resetAfterMs: number;
}

// One round trip: count the request in its fixed window and report the window's remaining life.
const HIT = new RedisScript(
  'chorusRateLimitHit',
  `local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {count, ttl}`,
);

/**
 * Rate-limit windows shared by every node of a cluster (a user's budget does not multiply with the
 * node count). When Redis cannot answer, the request is allowed: limits protect the service, and a
 * coordination outage must not turn into a full outage of the API.
 */
export class RedisRateLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix: string,
  ) {}

  async hit(key: string, limit: number, windowMs: number): Promise<RateLimitHit> {
    try {
      const [count, ttl] = (await HIT.run(this.redis, [`${this.keyPrefix}rl:${key}`], [windowMs])) as [number, number];
      return { allowed: count <= limit, limit, remaining: Math.max(0, limit - count), resetAfterMs: ttl };
    } catch {
      return { allowed: true, limit, remaining: limit, resetAfterMs: windowMs };
    }
  }
}
