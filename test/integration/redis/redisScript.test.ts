import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { RedisScript } from '../../../src/store/redis/redisScript.js';
import { REDIS_URL, runPrefix } from './redisTestKit.js';

describe('RedisScript', () => {
  let redis: Redis;

  before(async () => {
    // As connectRedis configures the nodes' clients.
    redis = new Redis(REDIS_URL, { lazyConnect: true, enableAutoPipelining: true, maxRetriesPerRequest: 1 });
    await redis.connect();
  });

  after(() => {
    redis.disconnect();
  });

  /** A script echoing ARGV[1] that this Redis has never seen (a unique comment, so a unique SHA). */
  const freshScript = (): RedisScript =>
    new RedisScript('chorusTestEcho', `-- ${randomBytes(8).toString('hex')}\nreturn ARGV[1]`);

  it('runs a script first used while an auto-pipeline of the same client is pending', async () => {
    const pending = redis.get(`${runPrefix()}absent`); // opens this turn's pipeline
    const reply = await freshScript().run(redis, [], ['ok']);
    assert.equal(reply, 'ok');
    assert.equal(await pending, null);
  });

  it('loads a script Redis does not know (as after a restart) and then runs it from the cache', async () => {
    const script = freshScript();
    assert.equal(await script.run(redis, [], ['first']), 'first');
    assert.equal(await script.run(redis, [], ['second']), 'second');
  });
});
