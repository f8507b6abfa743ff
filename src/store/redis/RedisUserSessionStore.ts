import type { UserSessionEntry, UserSessionStore } from '../../../actors/runtime/ports/userSessionStore.js';
import {
  RedisSessionIndex,
  splitPair,
  type RedisSessionIndexOptions,
  type SessionEntryCodec,
} from './RedisSessionIndex.js';
import type { RedisConnection } from './connectRedis.js';

/** `<shard id> <intents>`; a value without an integer shard is not read. */
const USER_SESSION: SessionEntryCodec<UserSessionEntry> = {
  encode: (entry) => `${entry.shardId} ${entry.intents}`,
  decode: (sessionId, value) => {
    const pair = splitPair(value);
    const shardId = Number(pair?.[0]);
    return pair && Number.isInteger(shardId) ? { sessionId, shardId, intents: pair[1] } : undefined;
  },
};

/**
 * A user's gateway sessions in Redis (cluster mode): one hash per user, `<prefix>user-sessions:<user
 * id>`, field = session id, value = `<shard id> <intents>`. Entries of sessions that ended unseen (on a
 * node that died) are removed when a fan-out from the User actor finds the session gone.
 */
export class RedisUserSessionStore extends RedisSessionIndex<UserSessionEntry> implements UserSessionStore {
  constructor(redis: RedisConnection, options: RedisSessionIndexOptions) {
    super(redis, options, 'user-sessions', USER_SESSION);
  }
}
