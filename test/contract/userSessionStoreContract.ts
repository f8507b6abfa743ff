import assert from 'node:assert/strict';
import type { UserSessionEntry, UserSessionStore } from '../../actors/runtime/ports/userSessionStore.js';
import { sessionIndexContract } from './sessionIndexContract.js';

/**
 * The UserSessionStore contract (a SessionIndexStore per user), run unchanged against the in-memory
 * store (unit/) and Redis (integration/).
 */
export function userSessionStoreContract(create: () => Promise<UserSessionStore>): void {
  sessionIndexContract(create, (sessionId, variant): UserSessionEntry => ({
    sessionId,
    shardId: variant % 16,
    intents: String(513 + variant),
  }));

  it('keeps shard ids and intents beyond 2^53 exactly as attached', async () => {
    const store = await create();
    const userId = `${Date.now()}${process.pid}`;
    const entries: UserSessionEntry[] = [
      { sessionId: 'a'.repeat(32), shardId: 0, intents: '0' },
      { sessionId: 'b'.repeat(32), shardId: 1023, intents: String((1n << 60n) + 1n) },
    ];
    for (const entry of entries) await store.add(userId, entry);
    const listed = await store.list(userId);
    assert.deepEqual(
      listed.sort((x, y) => x.sessionId.localeCompare(y.sessionId)),
      entries,
    );
    await store.delete(userId);
  });
}
