import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { connectRedis, type RedisConnection } from '../../../src/store/redis/connectRedis.js';
import { createLogger } from '../../../src/domain/Logger.js';
import { RedisBatch } from '../../../src/store/redis/RedisBatch.js';
import { RedisScript } from '../../../src/store/redis/redisScript.js';
import { REDIS_URL, runPrefix } from './redisTestKit.js';

describe('RedisScript', () => {
  let redis: RedisConnection;

  before(async () => {
    // The nodes' client: node-redis pipelines every command handed to it in one event-loop turn.
    redis = await connectRedis(REDIS_URL, createLogger('silent'), { name: 'chorus-test-script' });
  });

  after(() => {
    redis.destroy();
  });

  /** A script echoing ARGV[1] that this Redis has never seen (a unique comment, so a unique SHA). */
  const freshScript = (): RedisScript =>
    new RedisScript('chorusTestEcho', `-- ${randomBytes(8).toString('hex')}\nreturn ARGV[1]`);

  it('runs a script first used while a pipeline of the same client is pending', async () => {
    const pending = redis.get(`${runPrefix()}absent`); // this turn's pipeline
    const reply = await freshScript().run(redis, [], ['ok']);
    assert.equal(reply, 'ok');
    assert.equal(await pending, null);
  });

  it('loads a script Redis does not know (as after a restart) and then runs it from the cache', async () => {
    const script = freshScript();
    assert.equal(await script.run(redis, [], ['first']), 'first');
    assert.equal(await script.run(redis, [], ['second']), 'second');
  });

  it('runs scripts Redis does not know through a batch, each call settling on its own reply', async () => {
    const batch = new RedisBatch(redis);
    const script = freshScript();
    const absent = `${runPrefix()}absent`;
    const replies = await Promise.all([
      batch.script(script, [], ['one']),
      batch.command(['GET', absent]),
      batch.script(script, [], ['two']),
    ]);
    assert.deepEqual(replies, ['one', null, 'two']);
    assert.equal(await batch.script(script, [], ['cached']), 'cached');
  });
});
