import { ManualClock } from '../../../src/domain/Clock.js';
import { InMemorySessionStore } from '../../../src/store/memory/InMemorySessionStore.js';
import { InMemorySubscriptionStore } from '../../../src/store/memory/InMemorySubscriptionStore.js';
import { InMemoryUserSessionStore } from '../../../src/store/memory/InMemoryUserSessionStore.js';
import { sessionStoreContract } from '../../contract/sessionStoreContract.js';
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
});

describe('InMemorySubscriptionStore', () => {
  subscriptionStoreContract(() => Promise.resolve(new InMemorySubscriptionStore()));
});

describe('InMemoryUserSessionStore', () => {
  userSessionStoreContract(() => Promise.resolve(new InMemoryUserSessionStore()));
});
