import assert from 'node:assert/strict';
import { RedisRateLimiter } from '../../../src/store/redis/RedisRateLimiter.js';
import { redisForSuite } from './redisTestKit.js';

describe('RedisRateLimiter', () => {
  const { prefix, redis } = redisForSuite();

  it('counts a request against each of its windows in one call, each with its own lifetime', async () => {
    const limiter = new RedisRateLimiter(redis(), prefix);
    const windows = [
      { key: 'global:7', limit: 2, windowMs: 1_000 },
      { key: 'messages:1:7', limit: 1, windowMs: 60_000 },
    ];
    const [global, bucket] = await limiter.hit(windows);
    assert.equal(global?.allowed, true);
    assert.equal(global?.remaining, 1);
    assert.ok(global !== undefined && global.resetAfterMs > 0 && global.resetAfterMs <= 1_000);
    assert.equal(bucket?.allowed, true);
    assert.ok(bucket !== undefined && bucket.resetAfterMs > 1_000 && bucket.resetAfterMs <= 60_000);
    const [again, refused] = await limiter.hit(windows);
    assert.equal(again?.allowed, true);
    assert.equal(refused?.allowed, false);
    assert.equal(refused?.remaining, 0);
  });

  it('shares the windows between limiters of different nodes', async () => {
    const windows = [{ key: 'global:shared', limit: 1, windowMs: 10_000 }];
    const [first] = await new RedisRateLimiter(redis(), prefix).hit(windows);
    const [second] = await new RedisRateLimiter(redis(), prefix).hit(windows);
    assert.equal(first?.allowed, true);
    assert.equal(second?.allowed, false);
  });

  it('reads windows without counting, as every node sees them', async () => {
    const window = { key: 'gw:starts:peek', limit: 2, windowMs: 60_000 };
    const reader = new RedisRateLimiter(redis(), prefix);
    assert.deepEqual(await reader.peek([window]), [{ allowed: true, limit: 2, remaining: 2, resetAfterMs: 60_000 }]);
    await new RedisRateLimiter(redis(), prefix).hit([window]);
    for (let read = 0; read < 2; read += 1) {
      const [peeked] = await reader.peek([window]);
      assert.equal(peeked?.allowed, true);
      assert.equal(peeked?.remaining, 1);
      assert.ok(peeked !== undefined && peeked.resetAfterMs > 0 && peeked.resetAfterMs <= 60_000);
    }
    await reader.hit([window]);
    const [spent] = await reader.peek([window]);
    assert.equal(spent?.allowed, false);
    assert.equal(spent?.remaining, 0);
  });

  it('closes reset windows for every node at once', async () => {
    const window = { key: 'auth:reset', limit: 1, windowMs: 60_000 };
    await new RedisRateLimiter(redis(), prefix).hit([window]);
    const [spent] = await new RedisRateLimiter(redis(), prefix).peek([window]);
    assert.equal(spent?.allowed, false);
    await new RedisRateLimiter(redis(), prefix).reset([window.key]);
    const [fresh] = await new RedisRateLimiter(redis(), prefix).hit([window]);
    assert.equal(fresh?.allowed, true);
  });
});
