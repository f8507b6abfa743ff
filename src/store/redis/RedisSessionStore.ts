import type {
  BufferedFrame,
  FrameProgress,
  SessionRecord,
  SessionStore,
  StoredSession,
} from '../../../actors/runtime/ports/sessionStore.js';
import { keptFrameOf, keptFrameText } from '../../../actors/runtime/dispatchFrames.js';
import { WrongOwnerError } from '../../domain/errors.js';
import type { RedisConnection } from './connectRedis.js';
import { RedisBatch } from './RedisBatch.js';
import { assertNoClientPrefix, RedisScript } from './redisScript.js';

/** What a script answers when the session was written by another activation meanwhile. */
const STALE = -1;

// KEYS: record hash, frames list. ARGV: ttl, seq, then field/value pairs. Replaces the record, unless
// the stored seq is above this one (a deposed activation's late write).
const SAVE = new RedisScript(
  'chorusSessionSave',
  `local stored = tonumber(redis.call('HGET', KEYS[1], 'seq'))
if stored and stored > tonumber(ARGV[2]) then return ${STALE} end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], unpack(ARGV, 3))
redis.call('PEXPIRE', KEYS[1], ARGV[1])
redis.call('PEXPIRE', KEYS[2], ARGV[1])
return 1`,
);

// KEYS: record hash, frames list. ARGV: ttl, maxFrames, seq, floor, after ('' = any), then "seq frame"
// items. A session that is gone (ended, expired) stays gone: a late write must not bring back half of
// it. A write based on a seq the store no longer has is refused (another activation wrote since).
const ADD_FRAMES = new RedisScript(
  'chorusSessionAddFrames',
  `local stored = redis.call('HGET', KEYS[1], 'seq')
if not stored then return 0 end
if ARGV[5] ~= '' and stored ~= ARGV[5] then return ${STALE} end
for first = 6, #ARGV, 1000 do
  redis.call('RPUSH', KEYS[2], unpack(ARGV, first, math.min(first + 999, #ARGV)))
end
local keep = tonumber(ARGV[2])
if keep > 0 then redis.call('LTRIM', KEYS[2], -keep, -1) else redis.call('DEL', KEYS[2]) end
redis.call('HSET', KEYS[1], 'seq', ARGV[3], 'floor', ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[1])
redis.call('PEXPIRE', KEYS[2], ARGV[1])
return 1`,
);

// One atomic read of both keys.
const LOAD = new RedisScript(
  'chorusSessionLoad',
  `return {redis.call('HGETALL', KEYS[1]), redis.call('LRANGE', KEYS[2], 0, -1)}`,
);

const TOUCH = new RedisScript(
  'chorusSessionTouch',
  `redis.call('PEXPIRE', KEYS[1], ARGV[1])
redis.call('PEXPIRE', KEYS[2], ARGV[1])
return 1`,
);

/** Options of the Redis session store. */
export interface RedisSessionStoreOptions {
  /** Prefix of every key (e.g. `chorus:`). */
  readonly keyPrefix: string;
}

/**
 * Gateway sessions in Redis, shared by every node (cluster mode): `<prefix>session:{id}` is a hash
 * with the record, `<prefix>session:{id}:frames` a list of `"<seq> <frame>"` capped at the resume
 * buffer size; both expire together (PEXPIRE, refreshed by every write). Each operation is one
 * script, so it is atomic, and the commands of one event-loop turn travel as one pipeline. The session
 * id is the hash tag, so both keys of a session share a Redis Cluster slot.
 */
export class RedisSessionStore implements SessionStore {
  readonly #batch: RedisBatch;
  readonly #prefix: string;

  constructor(redis: RedisConnection, options: RedisSessionStoreOptions) {
    assertNoClientPrefix(redis);
    this.#batch = new RedisBatch(redis);
    this.#prefix = `${options.keyPrefix}session:`;
  }

  async save(sessionId: string, record: SessionRecord, ttlMs: number): Promise<void> {
    const reply = await this.#batch.script(SAVE, this.#keys(sessionId), [
      ttlOf(ttlMs),
      record.seq,
      ...fieldsOf(record),
    ]);
    if (reply === STALE) throw staleWrite(sessionId);
  }

  async addFrames(sessionId: string, frames: readonly BufferedFrame[], progress: FrameProgress): Promise<void> {
    const items = frames.map((frame) => `${frame.seq} ${keptFrameText(frame)}`);
    const after = progress.after ?? '';
    const args = [
      ttlOf(progress.ttlMs),
      Math.max(0, progress.maxFrames),
      progress.seq,
      progress.floor,
      after,
      ...items,
    ];
    const reply = await this.#batch.script(ADD_FRAMES, this.#keys(sessionId), args);
    if (reply === STALE) throw staleWrite(sessionId);
  }

  async load(sessionId: string): Promise<StoredSession | undefined> {
    const [flat, items] = (await this.#batch.script(LOAD, this.#keys(sessionId), [])) as [string[], string[]];
    const fields = new Map<string, string>();
    for (let index = 0; index + 1 < flat.length; index += 2)
      fields.set(flat[index] as string, flat[index + 1] as string);
    const record = recordOf(fields);
    if (!record) return undefined;
    const frames: BufferedFrame[] = [];
    for (const item of items) {
      const frame = keptFrameOf(item.slice(item.indexOf(' ') + 1));
      if (frame) frames.push(frame);
    }
    return { record, frames };
  }

  async touch(sessionId: string, ttlMs: number): Promise<void> {
    await this.#batch.script(TOUCH, this.#keys(sessionId), [ttlOf(ttlMs)]);
  }

  async delete(sessionId: string): Promise<void> {
    const [record, frames] = this.#keys(sessionId);
    await this.#batch.command(['DEL', record, frames]);
  }

  #keys(sessionId: string): [string, string] {
    const record = `${this.#prefix}{${sessionId}}`;
    return [record, `${record}:frames`];
  }
}

function staleWrite(sessionId: string): WrongOwnerError {
  return new WrongOwnerError(`session:${sessionId} was written by another activation`);
}

/** PEXPIRE needs a positive integer. */
function ttlOf(ttlMs: number): number {
  return Math.max(1, Math.ceil(ttlMs));
}

function fieldsOf(record: SessionRecord): string[] {
  return [
    'user_id',
    record.userId,
    'bot',
    record.bot ? '1' : '0',
    'rights',
    record.rights,
    'intents',
    record.intents,
    'shard_id',
    String(record.shardId),
    'shard_count',
    String(record.shardCount),
    'capabilities',
    String(record.capabilities),
    'guild_ids',
    record.guildIds.join(','),
    'status',
    record.status,
    'seq',
    String(record.seq),
    'floor',
    String(record.floor),
    'socket_node',
    record.socket?.nodeId ?? '',
    'socket_id',
    record.socket?.socketId ?? '',
    'created_at',
    String(record.createdAtMs),
    'detached_at',
    record.detachedAtMs === undefined ? '' : String(record.detachedAtMs),
  ];
}

/** The record a hash holds; undefined when it holds none (a session that never was, or is gone). */
function recordOf(fields: ReadonlyMap<string, string>): SessionRecord | undefined {
  const userId = fields.get('user_id');
  if (!userId) return undefined;
  const text = (name: string): string => fields.get(name) ?? '';
  const socketNode = text('socket_node');
  const socketId = text('socket_id');
  const detachedAt = text('detached_at');
  return {
    userId,
    bot: text('bot') === '1',
    rights: text('rights') || '0',
    intents: text('intents') || '0',
    shardId: Number(text('shard_id')),
    shardCount: Number(text('shard_count')),
    // Sessions saved before capabilities were kept get the legacy READY shape.
    capabilities: Number(text('capabilities')) || 0,
    guildIds: text('guild_ids') ? text('guild_ids').split(',') : [],
    status: text('status') || 'online',
    seq: Number(text('seq')),
    floor: Number(text('floor')),
    socket: socketNode && socketId ? { nodeId: socketNode, socketId } : undefined,
    createdAtMs: Number(text('created_at')),
    detachedAtMs: detachedAt ? Number(detachedAt) : undefined,
  };
}
