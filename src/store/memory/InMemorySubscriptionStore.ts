import type { GuildSubscription, SubscriptionStore } from '../../../actors/runtime/ports/subscriptionStore.js';
import { InMemorySessionIndex } from './InMemorySessionIndex.js';

/** Guild subscriptions in this process (embedded mode, unit tests): the semantics of RedisSubscriptionStore. */
export class InMemorySubscriptionStore extends InMemorySessionIndex<GuildSubscription> implements SubscriptionStore {}
