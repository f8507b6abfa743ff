import assert from 'node:assert/strict';

import type { Stores } from '../../actors/runtime/ports/stores.js';
import { sortedById } from './contractAssertions.js';
import { anApplication, nextId } from './records.js';

/** ApplicationStore cases of the storage contract. */
export function applicationStoreContract(stores: () => Stores): void {
  const applications = () => stores().applications;

  it('returns a created application by id', async () => {
    const application = anApplication({ extra: { redirect_uris: ['https://example.test/cb'] } });
    await applications().create(application);
    assert.deepEqual(await applications().get(application.id), application);
    assert.equal(await applications().get(nextId()), undefined);
  });

  it('replaces the record on update', async () => {
    const application = anApplication();
    await applications().create(application);
    const changed = { ...application, name: 'renamed', description: 'now with a bot', bot_user_id: nextId() };
    await applications().update(changed);
    assert.deepEqual(await applications().get(application.id), changed);
    assert.deepEqual(await applications().findByBotUser(changed.bot_user_id), changed);
  });

  it("lists an owner's applications and no others", async () => {
    const ownerId = nextId();
    const mine = [anApplication({ owner_id: ownerId }), anApplication({ owner_id: ownerId })];
    for (const application of [...mine, anApplication()]) await applications().create(application);
    assert.deepEqual(sortedById(await applications().listByOwner(ownerId)), mine);
    assert.deepEqual(await applications().listByOwner(nextId()), []);
  });

  it('keeps the private signing key with the record, and a record without one stays without', async () => {
    const signingKey =
      '-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIDRtLbisU1x//IwWPtMg9D4vSb0TV/ke03sY2vbwK83C\n-----END PRIVATE KEY-----\n';
    const ownerId = nextId();
    const legacy = anApplication({ owner_id: ownerId });
    await applications().create(legacy);
    assert.equal((await applications().get(legacy.id))?.signing_key, undefined);
    const keyed = { ...legacy, signing_key: signingKey, verify_key: 'b'.repeat(64), bot_user_id: nextId() };
    await applications().update(keyed);
    assert.deepEqual(await applications().get(legacy.id), keyed);
    assert.deepEqual(await applications().listByOwner(ownerId), [keyed]);
    assert.deepEqual(await applications().findByBotUser(keyed.bot_user_id), keyed);
  });

  it('finds the application of a bot user', async () => {
    const botUserId = nextId();
    const application = anApplication({ bot_user_id: botUserId });
    await applications().create(anApplication());
    await applications().create(application);
    assert.deepEqual(await applications().findByBotUser(botUserId), application);
    assert.equal(await applications().findByBotUser(nextId()), undefined);
  });
}
