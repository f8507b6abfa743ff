import assert from 'node:assert/strict';
import { ManualClock } from '../../../src/domain/Clock.js';
import { InMemorySessionStore } from '../../../src/store/memory/InMemorySessionStore.js';
import { InMemorySubscriptionStore } from '../../../src/store/memory/InMemorySubscriptionStore.js';
import { InMemoryUserSessionStore } from '../../../src/store/memory/InMemoryUserSessionStore.js';
import { aSessionRecord, sessionStoreContract } from '../../contract/sessionStoreContract.js';
import { subscriptionStoreContract } from '../../contract/subscriptionStoreContract.js';
import { userSessionStoreContract } from '../../contract/userSessionStoreContract.js';

describe('InMemorySessionStore', () => {
  sessionStoreContract(() => {
    const clock = new ManualClock();
    return Promise.resolve({
      store: new InMemorySessionStore(clock),
      elapse: (ms: number) => {
        clock.advance(ms);
        return Promise.resolve();
      },
    });
  });

  it('drops the frames at or below the floor the session moved to (its buffer is bounded by bytes too)', async () => {
    const store = new InMemorySessionStore(new ManualClock());
    const record = aSessionRecord({ seq: 1, floor: 1 });
    await store.save('s1', record, 60_000);
    const frames = [2, 3, 4, 5].map((seq) => ({ seq, event: 'MESSAGE_CREATE', data: `"f${seq}"` }));
    await store.addFrames('s1', frames, { seq: 5, floor: 3, maxFrames: 100, ttlMs: 60_000, after: 1 });
    const loaded = await store.load('s1');
    assert.deepEqual(
      loaded?.frames.map((frame) => frame.seq),
      [4, 5],
    );
    assert.equal(loaded?.record.floor, 3);
  });
});

describe('InMemorySubscriptionStore', () => {
  subscriptionStoreContract(() => Promise.resolve(new InMemorySubscriptionStore()));
});

describe('InMemoryUserSessionStore', () => {
  userSessionStoreContract(() => Promise.resolve(new InMemoryUserSessionStore()));
});
