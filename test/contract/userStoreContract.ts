import assert from 'node:assert/strict';

import type { Stores } from '../../actors/runtime/ports/stores.js';
import { assertConflict } from './contractAssertions.js';
import { aUser, nextId } from './records.js';

/** UserStore cases of the storage contract; `stores` is the current test's Stores. */
export function userStoreContract(stores: () => Stores): void {
  const users = () => stores().users;

  it('returns a created user by id', async () => {
    const user = aUser({ notes: { [nextId()]: 'met at the meetup' }, relationships: { [nextId()]: 1 } });
    await users().create(user);
    assert.deepEqual(await users().get(user.id), user);
  });

  it('returns undefined for an unknown id', async () => {
    assert.equal(await users().get(nextId()), undefined);
  });

  it('finds a user by email and by tag', async () => {
    const user = aUser({ discriminator: '4242' });
    await users().create(user);
    assert.deepEqual(await users().findByEmail(user.email ?? ''), user);
    assert.deepEqual(await users().findByTag(user.username, '4242'), user);
    assert.equal(await users().findByTag(user.username, '4243'), undefined);
    assert.equal(await users().findByEmail(`nobody_${nextId()}@example.test`), undefined);
  });

  it('refuses a second account with a taken email and writes nothing of it', async () => {
    const first = aUser();
    await users().create(first);
    const second = aUser({ email: first.email });
    await assertConflict(users().create(second), 'Email already registered');
    assert.equal(await users().get(second.id), undefined);
    assert.equal(await users().findByTag(second.username, second.discriminator), undefined);
    assert.deepEqual(await users().findByEmail(first.email ?? ''), first);
  });

  it('refuses a second account with a taken username and discriminator and writes nothing of it', async () => {
    const first = aUser();
    await users().create(first);
    const second = aUser({ username: first.username, discriminator: first.discriminator });
    await assertConflict(users().create(second), 'Username and tag already taken');
    assert.equal(await users().get(second.id), undefined);
    assert.equal(await users().findByEmail(second.email ?? ''), undefined);
    assert.deepEqual(await users().findByTag(first.username, first.discriminator), first);
  });

  it('lets a username repeat under another discriminator', async () => {
    const first = aUser({ discriminator: '0001' });
    const second = aUser({ username: first.username, discriminator: '0002' });
    await users().create(first);
    await users().create(second);
    assert.deepEqual(await users().findByTag(first.username, '0002'), second);
  });

  it('keeps several accounts without an email (bots)', async () => {
    const botA = aUser({ email: null, password_hash: null, bot: true });
    const botB = aUser({ email: null, password_hash: null, bot: true });
    await users().create(botA);
    await users().create(botB);
    assert.deepEqual(await users().get(botA.id), botA);
    assert.deepEqual(await users().get(botB.id), botB);
  });

  it('replaces the record on update and re-indexes a changed email and tag', async () => {
    const user = aUser();
    await users().create(user);
    const oldEmail = user.email ?? '';
    const oldUsername = user.username;
    const changed = aUser({
      ...user,
      email: `renamed_${nextId()}@example.test`,
      username: `renamed_${user.id}`,
      bio: 'new bio',
      token_generation: 1,
      revoked_tokens: ['abc'],
    });
    await users().update(changed);
    assert.deepEqual(await users().get(user.id), changed);
    assert.deepEqual(await users().findByEmail(changed.email ?? ''), changed);
    assert.deepEqual(await users().findByTag(changed.username, changed.discriminator), changed);
    assert.equal(await users().findByEmail(oldEmail), undefined);
    assert.equal(await users().findByTag(oldUsername, user.discriminator), undefined);
  });

  it('frees the old email on update so another account can take it', async () => {
    const user = aUser();
    await users().create(user);
    await users().update({ ...user, email: `moved_${nextId()}@example.test` });
    const newcomer = aUser({ email: user.email });
    await users().create(newcomer);
    assert.deepEqual(await users().findByEmail(user.email ?? ''), newcomer);
  });

  it('refuses an update to a taken email or tag and keeps the stored record', async () => {
    const taken = aUser();
    const user = aUser();
    await users().create(taken);
    await users().create(user);
    await assertConflict(users().update({ ...user, email: taken.email }), 'Email already registered');
    await assertConflict(
      users().update({ ...user, username: taken.username, discriminator: taken.discriminator }),
      'Username and tag already taken',
    );
    assert.deepEqual(await users().get(user.id), user);
    assert.deepEqual(await users().findByEmail(taken.email ?? ''), taken);
    assert.deepEqual(await users().findByTag(taken.username, taken.discriminator), taken);
  });
}
