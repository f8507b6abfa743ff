import type { GuildSubscription, SubscriptionStore } from '../../actors/runtime/ports/subscriptionStore.js';
import { sessionIndexContract } from './sessionIndexContract.js';

/**
 * The SubscriptionStore contract (a SessionIndexStore per guild), run unchanged against the in-memory
 * store (unit/) and Redis (integration/).
 */
export function subscriptionStoreContract(create: () => Promise<SubscriptionStore>): void {
  sessionIndexContract(create, (sessionId, variant): GuildSubscription => ({
    sessionId,
    userId: String(7 + variant),
    intents: String(513 + variant),
  }));
}
