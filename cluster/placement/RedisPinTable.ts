import { ServiceUnavailableError } from '../../src/domain/errors.js';
import type { MembershipRedis } from '../membership/RedisMembership.js';
import { luaScript as script, runScript, type LuaScript } from '../membership/luaScript.js';
import { watchAnnouncements } from '../membership/watchAnnouncements.js';
import { assertPin, type PinSet, type PinTable } from './PinTable.js';

// KEYS: pins hash, version. ARGV: known version. Returns {version} while it is the known one (the
// periodic check costs one small reply), else {version, key1, node1, key2, node2, …}.
const READ = script(
  `local version = tonumber(redis.call('GET', KEYS[2]) or '0')
if version == tonumber(ARGV[1]) then return {version} end
local reply = {version}
for _, item in ipairs(redis.call('HGETALL', KEYS[1])) do reply[#reply + 1] = item end
return reply`,
);

// KEYS: pins hash, version. ARGV: channel, key, node ('' removes the pin), now (ms). Returns the new version.
// A version starts from the clock, not from 1: after Redis restarted empty, a new first pin must not
// reuse a version a node still holds (it would take the new pins for the ones it has).
const WRITE = script(
  `if ARGV[3] == '' then redis.call('HDEL', KEYS[1], ARGV[2]) else redis.call('HSET', KEYS[1], ARGV[2], ARGV[3]) end
redis.call('SET', KEYS[2], ARGV[4], 'NX')
local version = redis.call('INCR', KEYS[2])
redis.call('PUBLISH', ARGV[1], version)
return version`,
);

/**
 * Pins in Redis, beside membership: `membership:pins` (hash: actor key → node), `membership:pins:version`
 * (only grows), changes published on `membership:pins:changed`. A change and its version bump are one
 * script, so a reader never sees new pins under an old version.
 */
export class RedisPinTable implements PinTable {
  readonly #keys: readonly string[];
  readonly #channel: string;

  constructor(
    private readonly redis: MembershipRedis,
    keyPrefix: string,
  ) {
    if (redis.options.keyPrefix) throw new Error('Pass the Redis key prefix to Chorus, not to the Redis client');
    const prefix = `${keyPrefix}membership:pins`;
    this.#keys = [prefix, `${prefix}:version`];
    this.#channel = `${prefix}:changed`;
  }

  async read(knownVersion = -1): Promise<PinSet | number> {
    const reply = (await this.#run(READ, [knownVersion])) as (string | number)[];
    const version = Number(reply[0]);
    if (reply.length === 1 && version === knownVersion) return version;
    const pins = new Map<string, string>();
    for (let index = 1; index + 1 < reply.length; index += 2) pins.set(String(reply[index]), String(reply[index + 1]));
    return { version, pins };
  }

  async pin(key: string, target: string): Promise<number> {
    assertPin(key, target);
    return Number(await this.#run(WRITE, [this.#channel, key, target, Date.now()]));
  }

  async unpin(key: string): Promise<number> {
    return Number(await this.#run(WRITE, [this.#channel, key, '', Date.now()]));
  }

  watch(listener: (version: number) => void): Promise<() => Promise<void>> {
    return watchAnnouncements(
      this.redis,
      { connectionName: 'chorus-pins-sub', channel: this.#channel, what: 'Pin' },
      listener,
    );
  }

  async #run(lua: LuaScript, args: readonly (string | number)[]): Promise<unknown> {
    try {
      return await runScript(this.redis, lua, this.#keys, args);
    } catch (error) {
      throw new ServiceUnavailableError(`Pin table unavailable: ${messageOf(error)}`);
    }
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
