import type { Redis } from 'ioredis';
import type { GuildSubscription, SubscriptionStore } from '../../../actors/runtime/ports/subscriptionStore.js';
import { RedisBatch } from './RedisBatch.js';
import { assertNoClientPrefix } from './redisScript.js';

/** Options of the Redis subscription store. */
export interface RedisSubscriptionStoreOptions {
  /** Prefix of every key (e.g. `chorus:`). */
  readonly keyPrefix: string;
}

/**
 * Guild subscriptions in Redis (cluster mode): one hash per guild, `<prefix>guild-subs:<guild id>`,
 * field = session id, value = `<user id> <intents>`. Stale entries (sessions that ended without
 * unsubscribing, e.g. on a node that died) are removed when a fan-out finds their session gone.
 */
export class RedisSubscriptionStore implements SubscriptionStore {
  readonly #batch: RedisBatch;
  readonly #prefix: string;

  constructor(redis: Redis, options: RedisSubscriptionStoreOptions) {
    assertNoClientPrefix(redis);
    this.#batch = new RedisBatch(redis);
    this.#prefix = `${options.keyPrefix}guild-subs:`;
  }

  async add(guildId: string, subscription: GuildSubscription): Promise<void> {
    const value = `${subscription.userId} ${subscription.intents}`;
    await this.#batch.command((pipeline) => pipeline.hset(this.#key(guildId), subscription.sessionId, value));
  }

  async remove(guildId: string, sessionIds: readonly string[]): Promise<void> {
    if (sessionIds.length === 0) return;
    await this.#batch.command((pipeline) => pipeline.hdel(this.#key(guildId), ...sessionIds));
  }

  async list(guildId: string): Promise<GuildSubscription[]> {
    const reply = await this.#batch.command((pipeline) => pipeline.hgetall(this.#key(guildId)));
    const subscriptions: GuildSubscription[] = [];
    for (const [sessionId, value] of entriesOf(reply)) {
      const space = value.indexOf(' ');
      if (space <= 0) continue;
      subscriptions.push({ sessionId, userId: value.slice(0, space), intents: value.slice(space + 1) });
    }
    return subscriptions;
  }

  async delete(guildId: string): Promise<void> {
    await this.#batch.command((pipeline) => pipeline.del(this.#key(guildId)));
  }

  #key(guildId: string): string {
    return `${this.#prefix}${guildId}`;
  }
}

/** HGETALL's reply as entries: ioredis gives an object (RESP2), a Map or a flat array (RESP3). */
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
