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

  it('refuses a client configured with its own key prefix', () => {
    const prefixed = redis().duplicate({ keyPrefix: 'x:' }); // never connected
    assert.throws(() => new RedisLeaseTable(prefixed, { keyPrefix: prefix }), /key prefix/);
  });
});
