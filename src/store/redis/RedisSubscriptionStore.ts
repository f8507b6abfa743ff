import type { GuildSubscription, SubscriptionStore } from '../../../actors/runtime/ports/subscriptionStore.js';
import {
  RedisSessionIndex,
  splitPair,
  type RedisSessionIndexOptions,
  type SessionEntryCodec,
} from './RedisSessionIndex.js';
import type { RedisConnection } from './connectRedis.js';

/** Options of the Redis subscription store. */
export type RedisSubscriptionStoreOptions = RedisSessionIndexOptions;

/** `<user id> <intents>`. */
const SUBSCRIPTION: SessionEntryCodec<GuildSubscription> = {
  encode: (subscription) => `${subscription.userId} ${subscription.intents}`,
  decode: (sessionId, value) => {
    const pair = splitPair(value);
    return pair && { sessionId, userId: pair[0], intents: pair[1] };
  },
};

/**
 * Guild subscriptions in Redis (cluster mode): one hash per guild, `<prefix>guild-subs:<guild id>`,
 * field = session id, value = `<user id> <intents>`. Stale entries (sessions that ended without
 * unsubscribing, e.g. on a node that died) are removed when a fan-out finds their session gone.
 */
export class RedisSubscriptionStore extends RedisSessionIndex<GuildSubscription> implements SubscriptionStore {
  constructor(redis: RedisConnection, options: RedisSubscriptionStoreOptions) {
    super(redis, options, 'guild-subs', SUBSCRIPTION);
  }
}
