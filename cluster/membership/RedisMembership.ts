import type { Redis } from 'ioredis';
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
import { TableMembership } from './TableMembership.js';

const HEARTBEAT = `redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('SADD', KEYS[2], ARGV[3])
return 1`;

// KEYS: member index, view, view ids, version. ARGV: heartbeat key prefix, expected version, floor, channel.
// Heartbeat keys are read by name from the index (Redis Cluster: give the prefix a hash tag).
// Returns {status, version, view json}: -1 conflict, 0 unchanged, 1 written and announced.
const RECONCILE = `local version = tonumber(redis.call('GET', KEYS[4]) or '0')
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
return {1, bumped, view}`;

type ScriptCall = (numberOfKeys: number, ...keysThenArgs: (string | number)[]) => Promise<unknown>;

/**
 * Membership in Redis. Keys under the prefix: `member:<nodeId>` (the node's MemberInfo JSON, PX ttl:
 * its heartbeat), `members` (set of ids that ever beat, pruned by the sweep), `view` (JSON array of the
 * members), `view:ids`, `view:version` (only grows); changes are published on `view:changed`.
 */
export class RedisMembershipTable implements MembershipTable {
  readonly #prefix: string;
  readonly #channel: string;

  constructor(
    private readonly redis: Redis,
    keyPrefix: string,
  ) {
    if (redis.options.keyPrefix) throw new Error('Pass the Redis key prefix to Chorus, not to the ioredis client');
    this.#prefix = `${keyPrefix}membership:`;
    this.#channel = `${this.#prefix}view:changed`;
    redis.defineCommand('chorusMembershipHeartbeat', { lua: HEARTBEAT });
    redis.defineCommand('chorusMembershipReconcile', { lua: RECONCILE });
  }

  async heartbeat(member: MemberInfo, ttlMs: number): Promise<void> {
    const keys = [`${this.#prefix}member:${member.nodeId}`, `${this.#prefix}members`];
    await this.#call(this.#script('chorusMembershipHeartbeat', keys, [JSON.stringify(member), ttlMs, member.nodeId]));
  }

  async remove(nodeId: string): Promise<void> {
    await this.#call(this.redis.del(`${this.#prefix}member:${nodeId}`));
  }

  async read(): Promise<MembershipView> {
    const [version, view] = await this.#call(this.redis.mget(`${this.#prefix}view:version`, `${this.#prefix}view`));
    return parseView(Number(version ?? 0), view ?? '[]');
  }

  async reconcile(expectedVersion: number, floor = 0): Promise<MembershipView> {
    const p = this.#prefix;
    const keys = [`${p}members`, `${p}view`, `${p}view:ids`, `${p}view:version`];
    const reply = await this.#call(
      this.#script('chorusMembershipReconcile', keys, [`${p}member:`, expectedVersion, floor, this.#channel]),
    );
    const [status, version, view] = reply as [number, number, string];
    if (status < 0) throw new VersionConflictError(expectedVersion, version);
    return parseView(version, view);
  }

  async watch(listener: (version: number) => void): Promise<() => Promise<void>> {
    // Subscribing takes a connection of its own; ioredis re-subscribes by itself after a reconnect.
    const subscriber = this.redis.duplicate({
      lazyConnect: true,
      enableOfflineQueue: true,
      connectionName: 'chorus-membership-sub',
    });
    subscriber.on('error', () => undefined); // outages are reported by the heartbeat, once
    subscriber.on('message', (channel: string, message: string) => {
      if (channel === this.#channel) listener(Number(message));
    });
    try {
      await subscriber.connect();
      await subscriber.subscribe(this.#channel);
    } catch (error) {
      subscriber.disconnect();
      throw new ServiceUnavailableError(`Membership watch failed: ${messageOf(error)}`);
    }
    return () => {
      subscriber.disconnect();
      return Promise.resolve();
    };
  }

  #script(name: string, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown> {
    const call = (this.redis as unknown as Record<string, ScriptCall>)[name] as ScriptCall;
    return call.call(this.redis, keys.length, ...keys, ...args);
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
  constructor(redis: Redis, options: RedisMembershipOptions, log: Logger, clock?: Clock) {
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
