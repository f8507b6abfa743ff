import assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { InMemoryRateLimiter } from '../../../src/http/RateLimiter.js';

describe('InMemoryRateLimiter', () => {
  it('counts one request against each of its windows and answers them in order', async () => {
    let now = 0;
    const limiter = new InMemoryRateLimiter(() => now);
    const windows = [
      { key: 'global:1', limit: 3, windowMs: 1_000 },
      { key: 'messages:9:1', limit: 1, windowMs: 5_000 },
    ];
    const [global, bucket] = await limiter.hit(windows);
    assert.deepEqual(global, { allowed: true, limit: 3, remaining: 2, resetAfterMs: 1_000 });
    assert.deepEqual(bucket, { allowed: true, limit: 1, remaining: 0, resetAfterMs: 5_000 });
    now = 400;
    const [, second] = await limiter.hit(windows);
    assert.deepEqual(second, { allowed: false, limit: 1, remaining: 0, resetAfterMs: 4_600 });
  });

  it('starts a fresh window once the old one has passed', async () => {
    let now = 0;
    const limiter = new InMemoryRateLimiter(() => now);
    const window = { key: 'global:1', limit: 1, windowMs: 1_000 };
    await limiter.hit([window]);
    now = 1_000;
    const [hit] = await limiter.hit([window]);
    assert.equal(hit?.allowed, true);
    assert.equal(hit?.remaining, 0);
  });

  it('reads windows without counting: a window not open yet reports its full limit and length', async () => {
    let now = 0;
    const limiter = new InMemoryRateLimiter(() => now);
    const window = { key: 'gw:starts:1', limit: 2, windowMs: 1_000 };
    assert.deepEqual(await limiter.peek([window]), [{ allowed: true, limit: 2, remaining: 2, resetAfterMs: 1_000 }]);
    await limiter.hit([window]);
    now = 300;
    const peeked = { allowed: true, limit: 2, remaining: 1, resetAfterMs: 700 };
    assert.deepEqual(await limiter.peek([window]), [peeked]);
    assert.deepEqual(await limiter.peek([window]), [peeked]);
    await limiter.hit([window]);
    assert.deepEqual(await limiter.peek([window]), [{ allowed: false, limit: 2, remaining: 0, resetAfterMs: 700 }]);
    now = 1_000;
    assert.deepEqual(await limiter.peek([window]), [{ allowed: true, limit: 2, remaining: 2, resetAfterMs: 1_000 }]);
  });

  it('closes reset windows at once', async () => {
    const limiter = new InMemoryRateLimiter(() => 0);
    const window = { key: 'auth:reset', limit: 1, windowMs: 60_000 };
    await limiter.hit([window]);
    assert.equal((await limiter.peek([window]))[0]?.allowed, false);
    await limiter.reset([window.key]);
    assert.equal((await limiter.hit([window]))[0]?.allowed, true);
  });
});
