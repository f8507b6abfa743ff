import assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { CallerCache } from '../../../src/http/CallerCache.js';
import type { Caller } from '../../../proto/gen/chorus/v1/common.js';

const caller = (userId: string): Caller => ({ userId }) as Caller;

describe('CallerCache', () => {
  it('returns a remembered caller until its time is up, then forgets it', () => {
    let now = 1_000;
    const cache = new CallerCache(1_000, 10, () => now);
    cache.put('token-a', caller('1'));
    now += 999;
    assert.equal(cache.get('token-a')?.userId, '1');
    now += 1;
    assert.equal(cache.get('token-a'), undefined);
  });

  it('remembers nothing when its time to live is 0', () => {
    const cache = new CallerCache(0);
    cache.put('token-a', caller('1'));
    assert.equal(cache.get('token-a'), undefined);
  });

  it('evicts the least recently stored token when full', () => {
    const cache = new CallerCache(60_000, 2);
    cache.put('token-a', caller('1'));
    cache.put('token-b', caller('2'));
    cache.put('token-a', caller('1')); // stored again: now the newest
    cache.put('token-c', caller('3'));
    assert.equal(cache.get('token-b'), undefined);
    assert.equal(cache.get('token-a')?.userId, '1');
    assert.equal(cache.get('token-c')?.userId, '3');
  });
});
