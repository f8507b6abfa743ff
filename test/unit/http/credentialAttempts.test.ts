import assert from 'node:assert/strict';
import { RateLimitedError } from '../../../src/domain/errors.js';
import type { EdgeDeps } from '../../../src/http/EdgeDeps.js';
import { InMemoryRateLimiter } from '../../../src/http/RateLimiter.js';
import { credentialAttempts, lockAfter } from '../../../src/http/credentialAttempts.js';

describe('credentialAttempts', () => {
  let nowMs = 0;
  const limiter = new InMemoryRateLimiter(() => nowMs);
  const guard = credentialAttempts({ limiter, tokenSecret: 'secret' } as unknown as EdgeDeps);
  let address = 0;

  /** One login attempt from a new address; resolves with the wait it was refused with, or 0. */
  async function attempt(login: string, succeeds = false): Promise<number> {
    address += 1;
    const ctx = {
      method: 'POST',
      path: '/api/auth/login',
      ip: `10.0.0.${address}`,
      request: { body: { login } },
      status: 404,
    };
    try {
      await guard(ctx as never, () => {
        ctx.status = succeeds ? 200 : 400;
        return Promise.resolve();
      });
      return 0;
    } catch (error) {
      if (error instanceof RateLimitedError) return error.retryAfterMs;
      throw error;
    }
  }

  it('makes each run of failures wait longer than the last', async () => {
    const waits: number[] = [];
    for (let run = 0; run < 5; run += 1) {
      let wait = 0;
      while (wait === 0) wait = await attempt('victim@example.test');
      waits.push(wait);
      nowMs += wait;
    }
    assert.deepEqual(waits, [60_000, 120_000, 240_000, 480_000, 960_000]);
  });

  it('checks nothing for a route that takes no credential', async () => {
    const ctx = { method: 'GET', path: '/api/users/@me', ip: '10.1.0.1', request: {}, status: 404 };
    let ran = false;
    await guard(ctx as never, () => {
      ran = true;
      return Promise.resolve();
    });
    assert.equal(ran, true);
  });

  it('locks for at most an hour however long the guessing goes on', () => {
    assert.equal(lockAfter(4), 0);
    assert.equal(lockAfter(5), 60_000);
    assert.equal(lockAfter(1_000), 3_600_000);
  });

  it('clears an account’s count on success but keeps other accounts’ counts', async () => {
    for (let n = 0; n < 4; n += 1) await attempt('a@example.test');
    for (let n = 0; n < 4; n += 1) await attempt('b@example.test');
    assert.equal(await attempt('a@example.test', true), 0);
    for (let n = 0; n < 4; n += 1) assert.equal(await attempt('a@example.test'), 0);
    assert.equal(await attempt('b@example.test'), 0);
    assert.ok((await attempt('b@example.test')) > 0);
  });
});
