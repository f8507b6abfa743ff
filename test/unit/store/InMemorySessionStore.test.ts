import { ManualClock } from '../../../src/domain/Clock.js';
import { InMemorySessionStore } from '../../../src/store/memory/InMemorySessionStore.js';
import { InMemorySubscriptionStore } from '../../../src/store/memory/InMemorySubscriptionStore.js';
import { sessionStoreContract } from '../../contract/sessionStoreContract.js';
import { subscriptionStoreContract } from '../../contract/subscriptionStoreContract.js';

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
});

describe('InMemorySubscriptionStore', () => {
  subscriptionStoreContract(() => Promise.resolve(new InMemorySubscriptionStore()));
});
