import type { SessionEntry, SessionIndexStore } from '../../../actors/runtime/ports/sessionIndex.js';
import type { RedisConnection } from './connectRedis.js';
import { RedisBatch } from './RedisBatch.js';
import { assertNoClientPrefix } from './redisScript.js';

/** Options of the Redis session index stores. */
export interface RedisSessionIndexOptions {
  /** Prefix of every key (e.g. `chorus:`). */
  readonly keyPrefix: string;
}

/** How one kind of entry is written as a hash value (the session id is the field) and read back. */
export interface SessionEntryCodec<T extends SessionEntry> {
  encode(entry: T): string;
  /** The entry a stored value holds; undefined for a value this version cannot read (it is skipped). */
  decode(sessionId: string, value: string): T | undefined;
}

/**
 * Session entries in Redis (cluster mode): one hash per owner, `<prefix><kind>:<owner id>`, field =
 * session id, value = the codec's text. Entries do not expire: a session that ended unseen (on a node
 * that died) is removed when a fan-out finds it gone. Commands of one event-loop turn share a pipeline.
 */
export class RedisSessionIndex<T extends SessionEntry> implements SessionIndexStore<T> {
  readonly #batch: RedisBatch;
  readonly #prefix: string;

  constructor(
    redis: RedisConnection,
    options: RedisSessionIndexOptions,
    kind: string,
    private readonly codec: SessionEntryCodec<T>,
  ) {
    assertNoClientPrefix(redis);
    this.#batch = new RedisBatch(redis);
    this.#prefix = `${options.keyPrefix}${kind}:`;
  }

  async add(ownerId: string, entry: T): Promise<void> {
    const value = this.codec.encode(entry);
    await this.#batch.command(['HSET', this.#key(ownerId), entry.sessionId, value]);
  }

  async remove(ownerId: string, sessionIds: readonly string[]): Promise<void> {
    if (sessionIds.length === 0) return;
    await this.#batch.command(['HDEL', this.#key(ownerId), ...sessionIds]);
  }

  async list(ownerId: string): Promise<T[]> {
    const reply = await this.#batch.command(['HGETALL', this.#key(ownerId)]);
    const entries: T[] = [];
    for (const [sessionId, value] of entriesOf(reply)) {
      const entry = this.codec.decode(sessionId, value);
      if (entry) entries.push(entry);
    }
    return entries;
  }

  async delete(ownerId: string): Promise<void> {
    await this.#batch.command(['DEL', this.#key(ownerId)]);
  }

  #key(ownerId: string): string {
    return `${this.#prefix}${ownerId}`;
  }
}

/** Splits `<head> <rest>` at its first space; undefined when there is none or the head is empty. */
export function splitPair(value: string): [string, string] | undefined {
  const space = value.indexOf(' ');
  return space > 0 ? [value.slice(0, space), value.slice(space + 1)] : undefined;
}

/** HGETALL's reply as entries: a flat array as sent (RESP2), or a Map or object (RESP3 type mappings). */
function entriesOf(reply: unknown): [string, string][] {
  if (reply instanceof Map) return [...(reply as Map<string, string>)];
  if (Array.isArray(reply)) {
    const entries: [string, string][] = [];
    for (let index = 0; index + 1 < reply.length; index += 2)
      entries.push([String(reply[index]), String(reply[index + 1])]);
    return entries;
  }
  return Object.entries((reply ?? {}) as Record<string, string>);
}
