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
});
