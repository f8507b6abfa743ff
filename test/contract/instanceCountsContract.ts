import assert from 'node:assert/strict';
import type { Stores } from '../../actors/runtime/ports/stores.js';
import type { InstanceCounts } from '../../src/domain/InstanceCounter.js';
import { aGuild, aMember, aMessage, aUser, nextId } from './records.js';

/** What changed between two readings of the counts. */
function delta(before: InstanceCounts, after: InstanceCounts): Record<keyof InstanceCounts, number> {
  const change = (name: keyof InstanceCounts) => (after[name] ?? Number.NaN) - (before[name] ?? Number.NaN);
  return { user: change('user'), guild: change('guild'), message: change('message'), members: change('members') };
}

/**
 * What every counting backend must do (GET /policies/stats/, `chorus stats`): count what was written and
 * what was deleted, nothing else; a record saved again is not counted again. Measured as the change from
 * the counts before each test, so a backend may share one database between tests.
 */
export function instanceCountsContract(open: () => Promise<Stores>): void {
  let stores: Stores;
  let before: InstanceCounts;
  const counts = async (): Promise<InstanceCounts> => {
    const read = await stores.counts?.counts();
    assert.ok(read, 'the backend counts');
    return read;
  };
  beforeEach(async () => {
    stores = await open();
    before = await counts();
  });
  afterEach(async () => {
    await stores.close();
  });

  it('counts users, guilds, memberships and messages as they are written', async () => {
    const users = [aUser(), aUser(), aUser()];
    for (const user of users) await stores.users.create(user);
    const guild = aGuild();
    await stores.guilds.saveGuild(guild);
    await stores.guilds.saveGuild({ ...guild, name: 'renamed' }); // an update is not a second guild
    for (const user of users) await stores.guilds.saveMember(aMember({ guild_id: guild.id, user_id: user.id }));
    const first = users[0]?.id ?? '';
    await stores.guilds.saveMember(aMember({ guild_id: guild.id, user_id: first, nick: 'again' })); // nor a member
    const channelId = nextId();
    for (let index = 0; index < 4; index += 1) await stores.messages.insert(aMessage({ channel_id: channelId }));
    assert.deepEqual(delta(before, await counts()), { user: 3, guild: 1, message: 4, members: 3 });
  });

  it('stops counting what was deleted, a deleted guild with its members', async () => {
    const user = aUser();
    await stores.users.create(user);
    const guild = aGuild();
    await stores.guilds.saveGuild(guild);
    await stores.guilds.saveMember(aMember({ guild_id: guild.id, user_id: user.id }));
    const message = aMessage({ channel_id: nextId() });
    await stores.messages.insert(message);
    await stores.messages.delete(message.channel_id, [message.id, nextId()]); // an unknown id uncounts nothing
    await stores.guilds.deleteGuild(guild.id);
    assert.deepEqual(delta(before, await counts()), { user: 1, guild: 0, message: 0, members: 0 });
  });

  it('uncounts a member who left, once', async () => {
    const user = aUser();
    const guild = aGuild();
    await stores.guilds.saveGuild(guild);
    await stores.guilds.saveMember(aMember({ guild_id: guild.id, user_id: user.id }));
    await stores.guilds.deleteMember(guild.id, user.id);
    await stores.guilds.deleteMember(guild.id, user.id);
    assert.deepEqual(delta(before, await counts()), { user: 0, guild: 1, message: 0, members: 0 });
  });
}
