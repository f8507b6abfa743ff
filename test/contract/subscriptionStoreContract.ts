import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { GuildSubscription, SubscriptionStore } from '../../actors/runtime/ports/subscriptionStore.js';

const bySession = (a: GuildSubscription, b: GuildSubscription): number => a.sessionId.localeCompare(b.sessionId);

/**
 * The SubscriptionStore contract, run unchanged against the in-memory store (unit/) and Redis
 * (integration/). Guild ids are fresh per test, so a backend may be shared.
 */
export function subscriptionStoreContract(create: () => Promise<SubscriptionStore>): void {
  let store: SubscriptionStore;
  const run = BigInt(`0x${randomBytes(3).toString('hex')}`) << 22n;
  let counter = 0n;
  const aGuildId = (): string => String(run + (counter += 1n));
  const sub = (sessionId: string, userId = '7', intents = '513'): GuildSubscription => ({ sessionId, userId, intents });

  beforeEach(async () => {
    store = await create();
  });

  it('lists nothing for a guild without subscriptions', async () => {
    assert.deepEqual(await store.list(aGuildId()), []);
  });

  it('lists what was added, once per session, the last add winning', async () => {
    const guild = aGuildId();
    await store.add(guild, sub('s1'));
    await store.add(guild, sub('s2', '8', '0'));
    await store.add(guild, sub('s1', '7', '1'));
    assert.deepEqual((await store.list(guild)).sort(bySession), [sub('s1', '7', '1'), sub('s2', '8', '0')]);
  });

  it('removes the given sessions only, ignoring absent ones', async () => {
    const guild = aGuildId();
    for (const id of ['s1', 's2', 's3']) await store.add(guild, sub(id));
    await store.remove(guild, ['s1', 's3', 'never']);
    await store.remove(guild, []);
    assert.deepEqual(await store.list(guild), [sub('s2')]);
  });

  it('keeps guilds apart and forgets a deleted guild', async () => {
    const [a, b] = [aGuildId(), aGuildId()];
    await store.add(a, sub('s1'));
    await store.add(b, sub('s1'));
    await store.add(b, sub('s2'));
    await store.delete(b);
    assert.deepEqual(await store.list(a), [sub('s1')]);
    assert.deepEqual(await store.list(b), []);
  });

  it('takes a thousand subscriptions issued at once', async () => {
    const guild = aGuildId();
    const subs = Array.from({ length: 1_000 }, (_, index) => sub(`s${String(index).padStart(4, '0')}`, String(index)));
    await Promise.all(subs.map((subscription) => store.add(guild, subscription)));
    assert.deepEqual((await store.list(guild)).sort(bySession), subs);
  });
}
