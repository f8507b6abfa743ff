import type { RedisClientType } from 'redis';
import type { Clock } from '../../src/domain/Clock.js';
import { ServiceUnavailableError } from '../../src/domain/errors.js';
import type { Logger } from '../../src/domain/Logger.js';
import {
  VersionConflictError,
  viewOf,
  type MemberInfo,
  type MembershipOptions,
  type MembershipTable,
  type MembershipView,
} from './Membership.js';
import { luaScript as script, runScript, type LuaScript } from './luaScript.js';
import { TableMembership } from './TableMembership.js';
import { watchAnnouncements } from './watchAnnouncements.js';

/**
 * The node's coordination client (src/store/redis/connectRedis): node-redis speaking RESP2, commands
 * failing fast during an outage. Named here because the cluster does not import the store.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- node-redis' own "no modules" defaults
export type MembershipRedis = RedisClientType<{}, {}, {}, 2>;

const HEARTBEAT = script(
  `redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('SADD', KEYS[2], ARGV[3])
return 1`,
);

// KEYS: member index, view, view ids, version. ARGV: heartbeat key prefix, expected version, floor, channel.
// Heartbeat keys are read by name from the index (Redis Cluster: give the prefix a hash tag).
// Returns {status, version, view json}: -1 conflict, 0 unchanged, 1 written and announced.
const RECONCILE = script(
  `local version = tonumber(redis.call('GET', KEYS[4]) or '0')
if version ~= tonumber(ARGV[2]) then return {-1, version, ''} end
local ids = redis.call('SMEMBERS', KEYS[1])
table.sort(ids)
local infos, live = {}, {}
for _, id in ipairs(ids) do
  local info = redis.call('GET', ARGV[1] .. id)
  if info then
    infos[#infos + 1] = info
    live[#live + 1] = id
  else
    redis.call('SREM', KEYS[1], id)
  end
end
local joined = table.concat(live, '\\n')
local floor = tonumber(ARGV[3])
if joined == (redis.call('GET', KEYS[3]) or '') and version >= floor then
  return {0, version, redis.call('GET', KEYS[2]) or '[]'}
end
local bumped = math.max(version, floor) + 1
local view = '[' .. table.concat(infos, ',') .. ']'
redis.call('SET', KEYS[4], bumped)
redis.call('SET', KEYS[2], view)
redis.call('SET', KEYS[3], joined)
redis.call('PUBLISH', ARGV[4], bumped)
return {1, bumped, view}`,
);

/**
 * Membership in Redis. Keys under the prefix: `member:<nodeId>` (the node's MemberInfo JSON, PX ttl:
 * its heartbeat), `members` (set of ids that ever beat, pruned by the sweep), `view` (JSON array of the
 * members), `view:ids`, `view:version` (only grows); changes are published on `view:changed`.
 */
export class RedisMembershipTable implements MembershipTable {
  readonly #prefix: string;
  readonly #channel: string;

  constructor(
    private readonly redis: MembershipRedis,
    keyPrefix: string,
  ) {
    if (redis.options.keyPrefix) throw new Error('Pass the Redis key prefix to Chorus, not to the Redis client');
    this.#prefix = `${keyPrefix}membership:`;
    this.#channel = `${this.#prefix}view:changed`;
  }

  async heartbeat(member: MemberInfo, ttlMs: number): Promise<void> {
    const keys = [`${this.#prefix}member:${member.nodeId}`, `${this.#prefix}members`];
    await this.#call(this.#run(HEARTBEAT, keys, [JSON.stringify(member), ttlMs, member.nodeId]));
  }

  async remove(nodeId: string): Promise<void> {
    await this.#call(this.redis.del(`${this.#prefix}member:${nodeId}`));
  }

  async read(): Promise<MembershipView> {
    const [version, view] = await this.#call(this.redis.mGet([`${this.#prefix}view:version`, `${this.#prefix}view`]));
    return parseView(Number(version ?? 0), view ?? '[]');
  }

  async reconcile(expectedVersion: number, floor = 0): Promise<MembershipView> {
    const p = this.#prefix;
    const keys = [`${p}members`, `${p}view`, `${p}view:ids`, `${p}view:version`];
    const reply = await this.#call(this.#run(RECONCILE, keys, [`${p}member:`, expectedVersion, floor, this.#channel]));
    const [status, version, view] = reply as [number, number, string];
    if (status < 0) throw new VersionConflictError(expectedVersion, version);
    return parseView(version, view);
  }

  watch(listener: (version: number) => void): Promise<() => Promise<void>> {
    return watchAnnouncements(
      this.redis,
      { connectionName: 'chorus-membership-sub', channel: this.#channel, what: 'Membership' },
      listener,
    );
  }

  #run(lua: LuaScript, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown> {
    return runScript(this.redis, lua, keys, args);
  }

  async #call<T>(reply: Promise<T>): Promise<T> {
    try {
      return await reply;
    } catch (error) {
      throw new ServiceUnavailableError(`Membership table unavailable: ${messageOf(error)}`);
    }
  }
}

/** Options of RedisMembership: the protocol timing plus where its keys live. */
export interface RedisMembershipOptions extends Partial<MembershipOptions> {
  /** Prefix of every key (e.g. `chorus:`). */
  readonly keyPrefix: string;
}

/** Membership of a cluster node, kept in Redis. */
export class RedisMembership extends TableMembership {
  constructor(redis: MembershipRedis, options: RedisMembershipOptions, log: Logger, clock?: Clock) {
    const { keyPrefix, ...timing } = options;
    super(new RedisMembershipTable(redis, keyPrefix), timing, log, clock);
  }
}

function parseView(version: number, json: string): MembershipView {
  const nodes = JSON.parse(json) as MemberInfo[];
  return viewOf(version, nodes);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
