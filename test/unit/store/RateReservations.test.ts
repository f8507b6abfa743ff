import assert from 'node:assert/strict';
import { RateReservations, type Reserved } from '../../../src/store/redis/RateReservations.js';

/** One fixed window in a Redis stand-in: INCRBY chunk, reporting the count and the window's remaining life. */
function fakeWindow(
  windowMs: number,
  now: () => number,
): { reserve: (chunk: number) => Reserved; count: () => number } {
  let count = 0;
  return {
    reserve: (chunk) => {
      count += chunk;
      return { chunk, count, ttlMs: windowMs - now() };
    },
    count: () => count,
  };
}

describe('RateReservations', () => {
  const limit = 200;
  const windowMs = 1_000;

  /** A node that served a few hits of `key` one at a time, then from a growing reservation (chunk 4 last). */
  function warmed(key: string): {
    reservations: RateReservations;
    window: ReturnType<typeof fakeWindow>;
  } {
    const now = (): number => 0;
    const reservations = new RateReservations(now);
    const window = fakeWindow(windowMs, now);
    for (let i = 0; i < 5; i += 1) {
      if (reservations.take(key, limit) !== undefined) continue;
      const chunk = reservations.chunkFor(key, limit, windowMs);
      reservations.release(key, chunk);
      assert.ok(reservations.record(key, limit, windowMs, 0, window.reserve(chunk)) >= 1);
    }
    return { reservations, window };
  }

  it('keeps requests missing the reservation in the same turn within half of what the window has left', () => {
    const { reservations, window } = warmed('k');
    const left = limit - window.count();
    // 28 requests arrive before any reply: those the reservation cannot serve each ask Redis for a chunk.
    const chunks: number[] = [];
    for (let i = 0; i < 28; i += 1) {
      if (reservations.take('k', limit) === undefined) chunks.push(reservations.chunkFor('k', limit, windowMs));
    }
    assert.ok(chunks.length > 20, `${chunks.length} requests asked Redis`);
    let claimed = 0;
    for (const chunk of chunks) {
      const half = Math.max(1, Math.floor((left - claimed) / 2));
      assert.ok(chunk <= half, `chunk ${chunk} after ${claimed} claimed of ${left} left (half: ${half})`);
      claimed += chunk;
    }
    assert.ok(claimed <= left, `${claimed} hits reserved of the ${left} the window had left`);
    for (const chunk of chunks) {
      reservations.release('k', chunk);
      reservations.record('k', limit, windowMs, 0, window.reserve(chunk));
    }
    assert.ok(window.count() <= limit, `the window counted ${window.count()} of ${limit}`);
  });

  it('frees a claim when its call settles, answered or failed, so the key is not held small', () => {
    const { reservations } = warmed('k');
    const first = reservations.chunkFor('k', limit, windowMs);
    assert.equal(first, 8, 'the reservation doubles');
    const second = reservations.chunkFor('k', limit, windowMs);
    reservations.release('k', first); // Redis failed: nothing to record
    reservations.release('k', second);
    assert.equal(reservations.chunkFor('k', limit, windowMs), first, 'nothing of the failed calls is still claimed');
  });
});
