import assert from 'node:assert/strict';

import type { Stores } from '../../actors/runtime/ports/stores.js';
import { assertConflict, sortedById } from './contractAssertions.js';
import { aChannel, aGuild, aMember, aRole, anInvite, nextId } from './records.js';

/** GuildStore cases of the storage contract (deleteGuild also reaches the ChannelStore). */
export function guildStoreContract(stores: () => Stores): void {
  const guilds = () => stores().guilds;
  const byUser = <T extends { user_id: string }>(list: T[]) =>
    [...list].sort((a, b) => a.user_id.localeCompare(b.user_id));
  const byCode = <T extends { code: string }>(list: T[]) => [...list].sort((a, b) => a.code.localeCompare(b.code));

  it('returns a saved guild and replaces it on the next save', async () => {
    const guild = aGuild({ fields: { features: ['COMMUNITY'], banner: null } });
    await guilds().saveGuild(guild);
    assert.deepEqual(await guilds().getGuild(guild.id), guild);
    const renamed = { ...guild, name: 'renamed', fields: { ...guild.fields, description: 'hi' } };
    await guilds().saveGuild(renamed);
    assert.deepEqual(await guilds().getGuild(guild.id), renamed);
    assert.equal(await guilds().getGuild(nextId()), undefined);
  });

  it("saves, replaces and deletes a guild's roles", async () => {
    const guild = aGuild();
    const everyone = aRole({ id: guild.id, guild_id: guild.id, name: '@everyone', position: 0 });
    const moderator = aRole({ guild_id: guild.id, name: 'mod', permissions: '8' });
    await guilds().saveRole(everyone);
    await guilds().saveRole(moderator);
    await guilds().saveRole(aRole({ guild_id: nextId() }));
    assert.deepEqual(sortedById(await guilds().listRoles(guild.id)), [everyone, moderator]);

    const recoloured = { ...moderator, color: 0xff0000, hoist: true };
    await guilds().saveRole(recoloured);
    await guilds().deleteRole(guild.id, everyone.id);
    assert.deepEqual(await guilds().listRoles(guild.id), [recoloured]);
  });

  it("saves, replaces and deletes a guild's members", async () => {
    const guild = aGuild();
    const alice = aMember({ guild_id: guild.id, roles: [nextId()] });
    const bob = aMember({ guild_id: guild.id });
    await guilds().saveMember(alice);
    await guilds().saveMember(bob);
    await guilds().saveMember(aMember({ guild_id: nextId() }));
    assert.deepEqual(byUser(await guilds().listMembers(guild.id)), byUser([alice, bob]));

    const nicked = { ...alice, nick: 'Al' };
    await guilds().saveMember(nicked);
    await guilds().deleteMember(guild.id, bob.user_id);
    assert.deepEqual(await guilds().listMembers(guild.id), [nicked]);
  });

  it('lists the guilds a user is a member of', async () => {
    const userId = nextId();
    const [first, second, other] = [aGuild(), aGuild(), aGuild()];
    await guilds().saveMember(aMember({ guild_id: first.id, user_id: userId }));
    await guilds().saveMember(aMember({ guild_id: second.id, user_id: userId }));
    await guilds().saveMember(aMember({ guild_id: other.id }));
    assert.deepEqual([...(await guilds().guildIdsOfUser(userId))].sort(), [first.id, second.id].sort());

    await guilds().deleteMember(first.id, userId);
    assert.deepEqual(await guilds().guildIdsOfUser(userId), [second.id]);
    assert.deepEqual(await guilds().guildIdsOfUser(nextId()), []);
  });

  it('saves, finds, lists and deletes invites', async () => {
    const guild = aGuild();
    const daily = anInvite({ guild_id: guild.id });
    const forever = anInvite({ guild_id: guild.id, max_age: 0 });
    for (const invite of [daily, forever, anInvite({ guild_id: nextId() })]) await guilds().saveInvite(invite);
    assert.deepEqual(await guilds().getInvite(daily.code), daily);
    assert.deepEqual(byCode(await guilds().listInvites(guild.id)), byCode([daily, forever]));

    await guilds().deleteInvite(daily.code);
    assert.equal(await guilds().getInvite(daily.code), undefined);
    assert.deepEqual(await guilds().listInvites(guild.id), [forever]);
  });

  it('replaces an invite saved again under its code', async () => {
    const invite = anInvite({ guild_id: nextId() });
    await guilds().saveInvite(invite);
    const used = { ...invite, uses: 3 };
    await guilds().saveInvite(used);
    assert.deepEqual(await guilds().getInvite(invite.code), used);
  });

  it('refuses a code already taken by another invite and keeps the first', async () => {
    const first = anInvite({ guild_id: nextId() });
    await guilds().saveInvite(first);
    const clash = anInvite({ code: first.code, guild_id: nextId() });
    await assertConflict(guilds().saveInvite(clash));
    assert.deepEqual(await guilds().getInvite(first.code), first);
    assert.deepEqual(await guilds().listInvites(clash.guild_id ?? ''), []);
  });

  it('keeps invites of a group DM, which have no guild', async () => {
    const invite = anInvite({ guild_id: null });
    await guilds().saveInvite(invite);
    assert.deepEqual(await guilds().getInvite(invite.code), invite);
  });

  it('deletes a guild with its channels, roles, members and invites, and nothing else', async () => {
    const [doomed, kept] = [aGuild(), aGuild()];
    const userId = nextId();
    const seed = async (guildId: string) => {
      const channels = [aChannel({ guild_id: guildId }), aChannel({ guild_id: guildId, type: 2, name: 'voice' })];
      const roles = [aRole({ guild_id: guildId }), aRole({ guild_id: guildId })];
      const members = [aMember({ guild_id: guildId, user_id: userId }), aMember({ guild_id: guildId })];
      const invites = [anInvite({ guild_id: guildId, channel_id: channels[0]?.id ?? '' })];
      for (const channel of channels) await stores().channels.save(channel);
      for (const role of roles) await guilds().saveRole(role);
      for (const member of members) await guilds().saveMember(member);
      for (const invite of invites) await guilds().saveInvite(invite);
      return { channels, roles, members, invites };
    };
    await guilds().saveGuild(doomed);
    await guilds().saveGuild(kept);
    const gone = await seed(doomed.id);
    const left = await seed(kept.id);

    await guilds().deleteGuild(doomed.id);

    assert.equal(await guilds().getGuild(doomed.id), undefined);
    assert.deepEqual(await guilds().listRoles(doomed.id), []);
    assert.deepEqual(await guilds().listMembers(doomed.id), []);
    assert.deepEqual(await guilds().listInvites(doomed.id), []);
    assert.deepEqual(await stores().channels.listByGuild(doomed.id), []);
    for (const channel of gone.channels) assert.equal(await stores().channels.get(channel.id), undefined);
    for (const invite of gone.invites) assert.equal(await guilds().getInvite(invite.code), undefined);
    assert.deepEqual(await guilds().guildIdsOfUser(userId), [kept.id]);

    assert.deepEqual(await guilds().getGuild(kept.id), kept);
    assert.deepEqual(sortedById(await guilds().listRoles(kept.id)), sortedById(left.roles));
    assert.deepEqual(byUser(await guilds().listMembers(kept.id)), byUser(left.members));
    assert.deepEqual(await guilds().listInvites(kept.id), left.invites);
    assert.deepEqual(sortedById(await stores().channels.listByGuild(kept.id)), sortedById(left.channels));
  });
}
