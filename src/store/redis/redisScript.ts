import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * A Lua script run as EVALSHA, with EVAL after a NOSCRIPT (Redis restarted or flushed its script
 * cache), so each call is one round trip. Built-in commands rather than ioredis' defineCommand: the
 * clients auto-pipeline, and a pipeline only has the custom commands defined before it was created,
 * so a script first used while one was pending failed, and ioredis then crashed the process on the
 * pipeline's reply (a node died that way when Redis came back: test/faults/redisOutage.test.ts).
 */
export class RedisScript {
  readonly #sha: string;

  constructor(
    readonly name: string,
    private readonly lua: string,
  ) {
    this.#sha = createHash('sha1').update(lua).digest('hex');
  }

  /** Runs the script atomically with `keys` as KEYS and `args` as ARGV. */
  async run(redis: Redis, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown> {
    try {
      return await redis.evalsha(this.#sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return redis.eval(this.lua, keys.length, ...keys, ...args);
    }
  }
}

/** Refuses a client configured with ioredis' keyPrefix: scripts build key names themselves. */
export function assertNoClientPrefix(redis: Redis): void {
  if (redis.options.keyPrefix) throw new Error('Pass the Redis key prefix to Chorus, not to the ioredis client');
}
