import assert from 'node:assert/strict';

import type { Stores } from '../../actors/runtime/ports/stores.js';
import { sortedById } from './contractAssertions.js';
import { aChannel, aDmChannel, aGroupDm, nextId } from './records.js';

/** ChannelStore cases of the storage contract. */
export function channelStoreContract(stores: () => Stores): void {
  const channels = () => stores().channels;

  it('returns a saved channel and replaces it on the next save', async () => {
    const channel = aChannel({
      permission_overwrites: [{ id: nextId(), type: 0, allow: '1024', deny: '0' }],
      fields: { topic: 'rules', nsfw: false },
    });
    await channels().save(channel);
    assert.deepEqual(await channels().get(channel.id), channel);
    const moved = { ...channel, name: 'moved', position: 3, last_message_id: nextId() };
    await channels().save(moved);
    assert.deepEqual(await channels().get(channel.id), moved);
    assert.equal(await channels().get(nextId()), undefined);
  });

  it('deletes a channel', async () => {
    const channel = aChannel();
    await channels().save(channel);
    await channels().delete(channel.id);
    assert.equal(await channels().get(channel.id), undefined);
    assert.deepEqual(await channels().listByGuild(channel.guild_id ?? ''), []);
  });

  it("lists a guild's channels and no others", async () => {
    const guildId = nextId();
    const mine = [aChannel({ guild_id: guildId }), aChannel({ guild_id: guildId, type: 4, name: 'category' })];
    for (const channel of [...mine, aChannel(), aDmChannel(nextId(), nextId())]) await channels().save(channel);
    assert.deepEqual(sortedById(await channels().listByGuild(guildId)), mine);
  });

  it('lists the DMs and group DMs a user is a recipient of, and no guild channels', async () => {
    const [me, friend, other] = [nextId(), nextId(), nextId()];
    const dm = aDmChannel(me, friend);
    const group = aGroupDm([friend, me, other]);
    for (const channel of [dm, group, aDmChannel(friend, other), aChannel()]) await channels().save(channel);
    assert.deepEqual(sortedById(await channels().listPrivate(me)), [dm, group]);
    assert.deepEqual(await channels().listPrivate(nextId()), []);
  });

  it("keeps the Channel actor's fields with the record: read by id, in the guild's list and in a DM's lists", async () => {
    const [me, friend] = [nextId(), nextId()];
    const guildChannel = aChannel({ last_message_id: nextId() });
    const dm = aDmChannel(me, friend);
    for (const channel of [guildChannel, dm]) await channels().save(channel);
    const [newest, pinnedAt] = [nextId(), '2026-11-26T10:00:00.000Z'];
    for (const channel of [guildChannel, dm])
      await channels().saveOwnerFields(channel, { last_message_id: newest, last_pin_timestamp: pinnedAt });
    const owned = { last_message_id: newest, last_pin_timestamp: pinnedAt };
    assert.deepEqual(await channels().get(guildChannel.id), { ...guildChannel, ...owned });
    assert.deepEqual(await channels().listByGuild(guildChannel.guild_id ?? ''), [{ ...guildChannel, ...owned }]);
    for (const user of [me, friend]) assert.deepEqual(await channels().listPrivate(user), [{ ...dm, ...owned }]);
    assert.deepEqual(await channels().findDm(me, friend), { ...dm, ...owned });
    // The pin timestamp is the owner's, null included.
    const newer = nextId();
    await channels().saveOwnerFields(dm, { last_message_id: newer, last_pin_timestamp: null });
    assert.deepEqual(await channels().get(dm.id), { ...dm, last_message_id: newer, last_pin_timestamp: null });
  });

  it("leaves a channel deleted before its actor's fields were written deleted", async () => {
    const channel = aChannel();
    await channels().save(channel);
    await channels().delete(channel.id);
    await channels().saveOwnerFields(channel, { last_message_id: nextId(), last_pin_timestamp: null });
    assert.equal(await channels().get(channel.id), undefined);
    assert.deepEqual(await channels().listByGuild(channel.guild_id ?? ''), []);
  });

  it('finds the DM between two users in either order', async () => {
    const [alice, bob, carol] = [nextId(), nextId(), nextId()];
    const dm = aDmChannel(alice, bob);
    await channels().save(dm);
    await channels().save(aDmChannel(alice, carol));
    assert.deepEqual(await channels().findDm(alice, bob), dm);
    assert.deepEqual(await channels().findDm(bob, alice), dm);
    assert.equal(await channels().findDm(bob, carol), undefined);
  });

  it('does not take a group DM for a DM', async () => {
    const [alice, bob] = [nextId(), nextId()];
    await channels().save(aGroupDm([alice, bob]));
    assert.equal(await channels().findDm(alice, bob), undefined);
  });

  it('stops listing a group DM for a recipient removed from it', async () => {
    const [owner, leaver, stayer] = [nextId(), nextId(), nextId()];
    const group = aGroupDm([owner, leaver, stayer]);
    await channels().save(group);
    const smaller = { ...group, recipient_ids: [owner, stayer] };
    await channels().save(smaller);
    assert.deepEqual(await channels().listPrivate(leaver), []);
    assert.deepEqual(await channels().listPrivate(stayer), [smaller]);
  });

  it('lists a group DM for a recipient added to it', async () => {
    const [owner, joiner] = [nextId(), nextId()];
    const group = aGroupDm([owner, nextId()]);
    await channels().save(group);
    const larger = { ...group, recipient_ids: [...group.recipient_ids, joiner] };
    await channels().save(larger);
    assert.deepEqual(await channels().listPrivate(joiner), [larger]);
    assert.deepEqual(await channels().listPrivate(owner), [larger]);
  });

  it('forgets a deleted DM', async () => {
    const [alice, bob] = [nextId(), nextId()];
    const dm = aDmChannel(alice, bob);
    await channels().save(dm);
    await channels().delete(dm.id);
    assert.equal(await channels().findDm(alice, bob), undefined);
    assert.deepEqual(await channels().listPrivate(alice), []);
  });
}
