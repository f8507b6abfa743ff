import { randomBytes } from 'node:crypto';
import { after, before } from 'mocha';
import { createClient } from 'redis';
import type { RedisConnection } from '../../../src/store/redis/connectRedis.js';

/** The Redis every integration test uses (STYLE S7: real services, never stubbed). */
export const REDIS_URL = 'redis://127.0.0.1:6379';

/** A key prefix of its own for one test run: `chorus_test_<random>:`. */
export function runPrefix(): string {
  return `chorus_test_${randomBytes(6).toString('hex')}:`;
}

/** A plain client (commands queue until connected), speaking RESP2 as the nodes' clients do. */
export async function plainClient(): Promise<RedisConnection> {
  const redis = createClient({ url: REDIS_URL, RESP: 2 });
  redis.on('error', () => undefined); // a failing command fails the test; no listener would end the process
  await redis.connect();
  return redis;
}

/**
 * For the suite it is called in: a connected client (before all) and a key prefix of its own whose
 * keys are deleted afterwards (after all). `redis()` is valid inside the suite's tests.
 */
export function redisForSuite(): { readonly prefix: string; readonly redis: () => RedisConnection } {
  const prefix = runPrefix();
  let client: RedisConnection | undefined;
  before(async () => {
    client = await plainClient();
  });
  after(async () => {
    if (!client) return;
    await deleteKeys(client, prefix);
    client.destroy();
  });
  return {
    prefix,
    redis: () => {
      if (!client) throw new Error('redisForSuite: the client connects in before()');
      return client;
    },
  };
}

async function keysMatching(redis: RedisConnection, pattern: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const reply = await redis.scan(cursor, { MATCH: pattern, COUNT: 1000 });
    keys.push(...reply.keys);
    cursor = reply.cursor;
  } while (cursor !== '0');
  return keys;
}

/** Deletes every key under `prefix` (after() of each suite). */
export async function deleteKeys(redis: RedisConnection, prefix: string): Promise<void> {
  const keys = await keysMatching(redis, `${prefix}*`);
  for (let start = 0; start < keys.length; start += 500) await redis.del(keys.slice(start, start + 500));
}

/**
 * Moves time forward by `ms` for the keys matching `pattern`, as far as their expiry goes: each PTTL
 * is shortened (a key whose time is up is deleted). A key without an expiry keeps living, so a lease
 * or heartbeat written without PX fails the tests that rely on it lapsing.
 */
export async function elapseKeys(redis: RedisConnection, pattern: string, ms: number): Promise<void> {
  const keys = await keysMatching(redis, pattern);
  if (keys.length === 0) return;
  const ttls = await Promise.all(keys.map((key) => redis.pTTL(key)));
  const updates = redis.multi();
  keys.forEach((key, index) => {
    const ttl = ttls[index] ?? -2;
    if (ttl < 0) return; // -1: no expiry; -2: already gone
    if (ttl - ms <= 0) updates.del(key);
    else updates.pExpire(key, ttl - ms);
  });
  await updates.execAsPipeline();
}
