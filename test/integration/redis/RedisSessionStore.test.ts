import assert from 'node:assert/strict';
import { RedisSessionStore } from '../../../src/store/redis/RedisSessionStore.js';
import { RedisSubscriptionStore } from '../../../src/store/redis/RedisSubscriptionStore.js';
import { RedisUserSessionStore } from '../../../src/store/redis/RedisUserSessionStore.js';
import { aSessionRecord, sessionStoreContract } from '../../contract/sessionStoreContract.js';
import { subscriptionStoreContract } from '../../contract/subscriptionStoreContract.js';
import { userSessionStoreContract } from '../../contract/userSessionStoreContract.js';
import { elapseKeys, plainClient, redisForSuite } from './redisTestKit.js';

describe('RedisSessionStore', () => {
  const { prefix, redis } = redisForSuite();

  sessionStoreContract(() =>
    Promise.resolve({
      store: new RedisSessionStore(redis(), { keyPrefix: prefix }),
      elapse: (ms: number) => elapseKeys(redis(), `${prefix}session:*`, ms),
    }),
  );

  it('writes the frames of a 1,000-session fan-out in one pipeline', async () => {
    const client = await plainClient();
    // node-redis writes every command it was handed in one event-loop turn as one pipeline (one
    // socket write): count the turns in which the store hands commands to the client.
    const send = client.sendCommand.bind(client);
    let pipelines = 0;
    let turnCounted = false;
    client.sendCommand = (...args: Parameters<typeof send>) => {
      if (!turnCounted) {
        turnCounted = true;
        pipelines += 1;
        setImmediate(() => {
          turnCounted = false;
        });
      }
      return send(...args);
    };
    try {
      const store = new RedisSessionStore(client, { keyPrefix: prefix });
      const ids = Array.from({ length: 1_000 }, (_, index) => `fanout${String(index).padStart(26, '0')}`);
      await Promise.all(ids.map((id) => store.save(id, aSessionRecord(), 60_000)));
      const before = pipelines;
      const frame = { seq: 2, event: 'MESSAGE_CREATE', data: '{}' };
      const started = performance.now();
      await Promise.all(
        ids.map((id) => store.addFrames(id, [frame], { seq: 2, floor: 1, maxFrames: 10, ttlMs: 60_000 })),
      );
      const elapsed = performance.now() - started;
      assert.equal(pipelines - before, 1, '1,000 writes of one event-loop turn leave as one pipeline');
      console.log(`      1,000 session appends in one pipeline: ${elapsed.toFixed(1)} ms`);
      const loaded = await Promise.all([ids[0], ids[999]].map((id) => store.load(id as string)));
      for (const session of loaded) assert.deepEqual(session?.frames, [frame]);
    } finally {
      client.destroy();
    }
  });

  it('refuses a client configured with its own key prefix', () => {
    const prefixed = redis().duplicate({ keyPrefix: 'x:' }); // never connected
    assert.throws(() => new RedisSessionStore(prefixed, { keyPrefix: prefix }), /key prefix/);
  });
});

/** The session indexes under one prefix: guild subscriptions and users' session lists. */
describe('Redis session indexes', () => {
  const { prefix, redis } = redisForSuite();

  describe('RedisSubscriptionStore', () => {
    subscriptionStoreContract(() => Promise.resolve(new RedisSubscriptionStore(redis(), { keyPrefix: prefix })));
  });

  describe('RedisUserSessionStore', () => {
    userSessionStoreContract(() => Promise.resolve(new RedisUserSessionStore(redis(), { keyPrefix: prefix })));

    it('keeps one hash per user, apart from guild subscriptions under the same prefix', async () => {
      const users = new RedisUserSessionStore(redis(), { keyPrefix: prefix });
      const guilds = new RedisSubscriptionStore(redis(), { keyPrefix: prefix });
      await users.add('42', { sessionId: 's1', shardId: 0, intents: '1' });
      await guilds.add('42', { sessionId: 's1', userId: '42', intents: '1' });
      assert.deepEqual({ ...(await redis().hGetAll(`${prefix}user-sessions:42`)) }, { s1: '0 1' });
      await guilds.delete('42');
      assert.deepEqual(await users.list('42'), [{ sessionId: 's1', shardId: 0, intents: '1' }]);
    });
  });
});
