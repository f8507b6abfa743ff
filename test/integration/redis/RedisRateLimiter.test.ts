import assert from 'node:assert/strict';
import type { RedisConnection } from '../../../src/store/redis/connectRedis.js';
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

  /** The connection with its round trips counted (every limiter call is one sendCommand). */
  function counted(): { connection: RedisConnection; trips: () => number } {
    let trips = 0;
    const client = redis();
    const connection = new Proxy(client, {
      get(target, property, receiver) {
        if (property !== 'sendCommand') return Reflect.get(target, property, receiver) as unknown;
        return (...args: Parameters<RedisConnection['sendCommand']>) => {
          trips += 1;
          return target.sendCommand(...args);
        };
      },
    });
    return { connection, trips: () => trips };
  }

  it('grants a busy short window from reservations: the limit exactly, in few round trips', async () => {
    const { connection, trips } = counted();
    const limiter = new RedisRateLimiter(connection, prefix);
    const window = { key: 'global:busy', limit: 300, windowMs: 10_000 };
    let allowed = 0;
    for (let i = 0; i < 400; i += 1) if ((await limiter.hit([window]))[0]?.allowed) allowed += 1;
    assert.equal(allowed, 300, 'one node wastes none of its reservations');
    assert.ok(trips() < 40, `${trips()} round trips for 400 hits`);
  });

  it('never lets the nodes together grant more than a reserved window’s limit', async () => {
    const window = { key: 'global:spread', limit: 100, windowMs: 10_000 };
    const nodes = [0, 1, 2].map(() => new RedisRateLimiter(redis(), prefix));
    let allowed = 0;
    for (let i = 0; i < 300; i += 1) {
      const [hit] = await (nodes[i % 3] as RedisRateLimiter).hit([window]);
      if (hit?.allowed) allowed += 1;
    }
    assert.ok(allowed <= 100, `${allowed} granted`);
    // What a node reserved and did not use before the limit is lost to the others: a little, not most.
    assert.ok(allowed >= 80, `${allowed} granted of 100`);
  });

  /** The window's count in Redis, as every node sees it (every hit and reservation). */
  async function windowCount(key: string): Promise<number> {
    return Number((await redis().get(`${prefix}rl:${key}`)) ?? 0);
  }

  /** Five hits one after another: the node holds a reservation, and the next one doubles (to 8). */
  async function warm(limiter: RedisRateLimiter, window: { key: string; limit: number; windowMs: number }) {
    for (let i = 0; i < 5; i += 1) assert.equal((await limiter.hit([window]))[0]?.allowed, true);
    assert.equal(await windowCount(window.key), 7, '1 + 2 + 4 reserved');
  }

  it('keeps concurrent requests missing the reservation within what the window has left', async () => {
    const limiter = new RedisRateLimiter(redis(), prefix);
    const window = { key: 'global:burst', limit: 200, windowMs: 10_000 };
    await warm(limiter, window);
    // 30 requests in one turn: 2 from the reservation, 28 asking Redis before any reply is recorded.
    const hits = await Promise.all(Array.from({ length: 30 }, () => limiter.hit([window])));
    const count = await windowCount(window.key);
    assert.ok(count <= window.limit, `this node reserved ${count} of the window's ${window.limit}`);
    assert.ok(
      hits.every(([hit]) => hit?.allowed),
      'every request of the burst is granted',
    );
    const [fromOther] = await new RedisRateLimiter(redis(), prefix).hit([window]);
    assert.equal(fromOther?.allowed, count < window.limit, 'another node gets what this one did not claim');
  });

  it('frees what a failed reservation claimed: the next one is sized as if it never happened', async () => {
    let failing = false;
    const client = redis();
    const flaky = new Proxy(client, {
      get(target, property, receiver) {
        if (property !== 'sendCommand') return Reflect.get(target, property, receiver) as unknown;
        return (...args: Parameters<RedisConnection['sendCommand']>) =>
          failing ? Promise.reject(new Error('Redis is down')) : target.sendCommand(...args);
      },
    });
    const limiter = new RedisRateLimiter(flaky, prefix);
    const window = { key: 'global:flaky', limit: 200, windowMs: 10_000 };
    await warm(limiter, window);
    failing = true;
    const hits = await Promise.all(Array.from({ length: 30 }, () => limiter.hit([window])));
    assert.ok(
      hits.every(([hit]) => hit?.allowed),
      'Redis down: allowed',
    );
    failing = false;
    await limiter.hit([window]);
    assert.equal(await windowCount(window.key), 7 + 8, 'the next reservation doubles, none of the failed is held');
  });

  it('counts small or long windows hit by hit on every node (login attempts, 5 messages per 5 s)', async () => {
    const { connection, trips } = counted();
    const limiter = new RedisRateLimiter(connection, prefix);
    const small = { key: 'messages:9:7', limit: 5, windowMs: 5_000 };
    const long = { key: 'auth:ip:60000', limit: 20, windowMs: 60_000 };
    for (let i = 0; i < 4; i += 1) await limiter.hit([small, long]);
    assert.equal(trips(), 4);
    const [fromOther] = await new RedisRateLimiter(redis(), prefix).peek([small, long]);
    assert.equal(fromOther?.remaining, 1, 'another node sees every hit');
  });
});
