import assert from 'node:assert/strict';
import { ACCESS_MAX_AGE_MS } from '../../../actors/channel/AccessCache.js';
import { DmBlockCache, eitherBlocked } from '../../../actors/channel/dmBlocks.js';
import type { UserRecord } from '../../../actors/runtime/ports/records.js';
import type { UserStore } from '../../../actors/runtime/ports/stores.js';
import type { AppError } from '../../../src/domain/errors.js';
import { aDmChannel, aGroupDm, aUser } from '../../contract/records.js';

const NOW = 1_700_000_000_000;

/** A UserStore over a map, counting reads (the cache exists to avoid them). */
function usersOf(records: UserRecord[]): UserStore & { reads: number } {
  const byId = new Map(records.map((record) => [record.id, record]));
  const store = {
    reads: 0,
    get: (id: string) => {
      store.reads += 1;
      return Promise.resolve(byId.get(id));
    },
    create: () => Promise.resolve(),
    update: (record: UserRecord) => {
      byId.set(record.id, record);
      return Promise.resolve();
    },
    findByEmail: () => Promise.resolve(undefined),
    findByTag: () => Promise.resolve(undefined),
  };
  return store;
}

const refusesWith50007 = (error: AppError) => error.httpStatus === 403 && error.discordCode === 50_007;

describe('DmBlockCache', () => {
  it('sees a block on either side', () => {
    const a = aUser();
    const b = aUser({ relationships: { [a.id]: 2 } });
    assert.equal(eitherBlocked(a, b), true);
    assert.equal(eitherBlocked(b, a), true);
    assert.equal(eitherBlocked(a, aUser({ relationships: { [a.id]: 1 } })), false);
  });

  it('refuses a DM message when a recipient blocked the other, reading the records once', async () => {
    const blocked = aUser();
    const blocker = aUser({ relationships: { [blocked.id]: 2 } });
    const users = usersOf([blocked, blocker]);
    const cache = new DmBlockCache();
    const dm = aDmChannel(blocked.id, blocker.id);
    await assert.rejects(cache.requireUnblocked(dm, users, NOW), refusesWith50007);
    await assert.rejects(cache.requireUnblocked(dm, users, NOW + 1), refusesWith50007);
    assert.equal(users.reads, 2);
  });

  it('reads again after an invalidation or once the answer expired', async () => {
    const a = aUser();
    const b = aUser();
    const users = usersOf([a, b]);
    const cache = new DmBlockCache();
    const dm = aDmChannel(a.id, b.id);
    await cache.requireUnblocked(dm, users, NOW);
    await users.update({ ...b, relationships: { [a.id]: 2 } });
    await cache.requireUnblocked(dm, users, NOW + 1); // cached: no block yet
    cache.invalidate();
    await assert.rejects(cache.requireUnblocked(dm, users, NOW + 2), refusesWith50007);
    await users.update({ ...b, relationships: {} });
    await assert.rejects(cache.requireUnblocked(dm, users, NOW + 3), refusesWith50007);
    await cache.requireUnblocked(dm, users, NOW + 2 + ACCESS_MAX_AGE_MS);
  });

  it('lets group DMs pass without reading anything', async () => {
    const a = aUser();
    const b = aUser({ relationships: { [a.id]: 2 } });
    const users = usersOf([a, b]);
    await new DmBlockCache().requireUnblocked(aGroupDm([a.id, b.id]), users, NOW);
    assert.equal(users.reads, 0);
  });
});
