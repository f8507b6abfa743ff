import assert from 'node:assert/strict';
import { RedisLeaseTable } from '../../../src/store/redis/RedisLeaseTable.js';
import { leaseTableContract } from '../../contract/leaseContract.js';
import { elapseKeys, redisForSuite } from './redisTestKit.js';

describe('RedisLeaseTable', () => {
  const { prefix, redis } = redisForSuite();

  leaseTableContract(() =>
    Promise.resolve({
      table: new RedisLeaseTable(redis(), { keyPrefix: prefix }),
      elapse: (ms: number) => elapseKeys(redis(), `${prefix}lease:*`, ms),
    }),
  );

  it('lets a lease lapse by Redis expiry in real time', async () => {
    const table = new RedisLeaseTable(redis(), { keyPrefix: prefix });
    const key = 'guild:real-time';
    const acquiredAt = performance.now();
    const first = await table.acquire(key, 'a:1@1', 150);
    assert.ok(first);
    // A bounded poll: the thing under test is Redis' own clock, which no event reports.
    let second: { epoch: number } | undefined;
    while (!(second = await table.acquire(key, 'b:1@1', 150))) {
      assert.ok(performance.now() - acquiredAt < 2_000, `lease ${key} still held 2 s after a 150 ms ttl`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    assert.ok(performance.now() - acquiredAt >= 145, 'the lease lived its ttl');
    assert.ok(second.epoch > first.epoch);
  });

  it('answers fence checks asked together each for its own lease, in one MGET', async () => {
    const connection = redis();
    const table = new RedisLeaseTable(connection, { keyPrefix: prefix });
    const held = await table.acquire('channel:fence-held', 'a:1@1', 5_000);
    const taken = await table.acquire('channel:fence-taken', 'b:1@1', 5_000);
    assert.ok(held && taken);
    const sent: string[] = [];
    const counting = new Proxy(connection, {
      get(target, property, receiver) {
        const value: unknown = Reflect.get(target, property, receiver);
        if ((property !== 'get' && property !== 'mGet') || typeof value !== 'function') return value;
        return (...args: unknown[]): unknown => {
          sent.push(property);
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    const batching = new RedisLeaseTable(counting, { keyPrefix: prefix });
    const answers = await Promise.all([
      batching.check('channel:fence-held', 'a:1@1', held.epoch),
      batching.check('channel:fence-taken', 'a:1@1', taken.epoch), // another node holds it
      batching.check('channel:fence-held', 'a:1@1', held.epoch - 1), // an older epoch of the same node
      batching.check('channel:fence-absent', 'a:1@1', 1),
    ]);
    assert.deepEqual(answers, [true, false, false, false]);
    assert.deepEqual(sent, ['mGet']);
    // A check asked while that round trip is out waits for the next one; one alone is a GET.
    const first = batching.check('channel:fence-held', 'a:1@1', held.epoch);
    await Promise.resolve();
    const second = batching.check('channel:fence-taken', 'b:1@1', taken.epoch);
    assert.deepEqual(await Promise.all([first, second]), [true, true]);
    assert.deepEqual(sent, ['mGet', 'get', 'get']);
  });

  it('refuses a client configured with its own key prefix', () => {
    const prefixed = redis().duplicate({ keyPrefix: 'x:' }); // never connected
    assert.throws(() => new RedisLeaseTable(prefixed, { keyPrefix: prefix }), /key prefix/);
  });
});
