import type { Redis } from 'ioredis';

type ScriptCall = (numberOfKeys: number, ...keysThenArgs: (string | number)[]) => Promise<unknown>;

/**
 * A Lua script bound to clients on first use: ioredis sends EVALSHA and falls back to EVAL after a
 * NOSCRIPT (Redis restarted or flushed its script cache), so each call is one round trip.
 */
export class RedisScript {
  readonly #defined = new WeakSet<Redis>();

  constructor(
    private readonly name: string,
    private readonly lua: string,
  ) {}

  /** Runs the script atomically with `keys` as KEYS and `args` as ARGV. */
  run(redis: Redis, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown> {
    if (!this.#defined.has(redis)) {
      redis.defineCommand(this.name, { lua: this.lua });
      this.#defined.add(redis);
    }
    const call = (redis as unknown as Record<string, ScriptCall>)[this.name] as ScriptCall;
    return call.call(redis, keys.length, ...keys, ...args);
  }
}

/** Refuses a client configured with ioredis' keyPrefix: scripts build key names themselves. */
export function assertNoClientPrefix(redis: Redis): void {
  if (redis.options.keyPrefix) throw new Error('Pass the Redis key prefix to Chorus, not to the ioredis client');
}
