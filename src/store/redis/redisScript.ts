import { createHash } from 'node:crypto';
import type { RedisConnection } from './connectRedis.js';

/**
 * A Lua script run as EVALSHA, with EVAL after a NOSCRIPT (Redis restarted or flushed its script
 * cache), so each call is one round trip. Plain commands rather than a client-side script registry:
 * with ioredis, a pipeline only had the custom commands defined before it was created, so a script
 * first used while one was pending failed and the client then crashed the process on the pipeline's
 * reply (a node died that way when Redis came back: test/faults/redisOutage.test.ts).
 */
export class RedisScript {
  readonly sha: string;

  constructor(
    readonly name: string,
    readonly lua: string,
  ) {
    this.sha = createHash('sha1').update(lua).digest('hex');
  }

  /** Runs the script atomically with `keys` as KEYS and `args` as ARGV. */
  async run(redis: RedisConnection, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown> {
    try {
      return await redis.sendCommand(this.command('EVALSHA', keys, args));
    } catch (error) {
      if (!isNoScript(error)) throw error;
      return redis.sendCommand(this.command('EVAL', keys, args));
    }
  }

  /** The command line of one call: EVALSHA (by digest) or EVAL (with the source). */
  command(verb: 'EVALSHA' | 'EVAL', keys: readonly string[], args: readonly (string | number)[]): string[] {
    const body = verb === 'EVALSHA' ? this.sha : this.lua;
    return [verb, body, String(keys.length), ...keys, ...args.map(String)];
  }
}

/** Redis does not have the script (restarted, or SCRIPT FLUSH): send its source instead. */
export function isNoScript(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith('NOSCRIPT');
}

/** Refuses a client configured with a key prefix of its own: scripts build key names themselves. */
export function assertNoClientPrefix(redis: RedisConnection): void {
  if (redis.options.keyPrefix) throw new Error('Pass the Redis key prefix to Chorus, not to the Redis client');
}
