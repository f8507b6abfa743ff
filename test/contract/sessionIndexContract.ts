import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { SessionEntry, SessionIndexStore } from '../../actors/runtime/ports/sessionIndex.js';

/** Builds the entry of `sessionId`; a different `variant` gives the same session different values. */
export type EntryOf<T extends SessionEntry> = (sessionId: string, variant: number) => T;

const bySession = (a: SessionEntry, b: SessionEntry): number => a.sessionId.localeCompare(b.sessionId);

/**
 * What every SessionIndexStore (guild subscriptions, user session lists) promises, run unchanged
 * against the in-memory stores (unit/) and Redis (integration/). Owner ids are fresh per test, so a
 * backend may be shared.
 */
export function sessionIndexContract<T extends SessionEntry>(
  create: () => Promise<SessionIndexStore<T>>,
  entry: EntryOf<T>,
): void {
  let store: SessionIndexStore<T>;
  const run = BigInt(`0x${randomBytes(3).toString('hex')}`) << 22n;
  let counter = 0n;
  const anOwnerId = (): string => String(run + (counter += 1n));

  beforeEach(async () => {
    store = await create();
  });

  it('lists nothing for an owner without entries', async () => {
    assert.deepEqual(await store.list(anOwnerId()), []);
  });

  it('lists what was added, once per session, the last add winning', async () => {
    const owner = anOwnerId();
    await store.add(owner, entry('s1', 0));
    await store.add(owner, entry('s2', 1));
    await store.add(owner, entry('s1', 2));
    assert.deepEqual((await store.list(owner)).sort(bySession), [entry('s1', 2), entry('s2', 1)]);
  });

  it('removes the given sessions only, ignoring absent ones', async () => {
    const owner = anOwnerId();
    for (const id of ['s1', 's2', 's3']) await store.add(owner, entry(id, 0));
    await store.remove(owner, ['s1', 's3', 'never']);
    await store.remove(owner, []);
    assert.deepEqual(await store.list(owner), [entry('s2', 0)]);
  });

  it('keeps owners apart and forgets a deleted owner', async () => {
    const [a, b] = [anOwnerId(), anOwnerId()];
    await store.add(a, entry('s1', 0));
    await store.add(b, entry('s1', 1));
    await store.add(b, entry('s2', 0));
    await store.delete(b);
    assert.deepEqual(await store.list(a), [entry('s1', 0)]);
    assert.deepEqual(await store.list(b), []);
  });

  it('takes a thousand entries issued at once', async () => {
    const owner = anOwnerId();
    const entries = Array.from({ length: 1_000 }, (_, index) => entry(`s${String(index).padStart(4, '0')}`, index));
    await Promise.all(entries.map((one) => store.add(owner, one)));
    assert.deepEqual((await store.list(owner)).sort(bySession), entries);
  });
}
