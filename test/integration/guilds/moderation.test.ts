import assert from 'node:assert/strict';
import { DEFAULT_USER_RIGHTS, Right } from '../../../src/domain/rights.js';
import { Permission } from '../../../src/domain/permissions.js';
import { api, registerUser, type TestUser } from '../../support/testServer.js';
import {
  connect,
  createGuild,
  fails,
  grant,
  guildReady,
  joinGuild,
  member,
  startHarness,
  type GuildHarness,
  type TestGuild,
} from './guildKit.js';

describe('bans and prune', () => {
  let h: GuildHarness;
  let target: TestGuild;
  let plain: TestUser;
  let banner: TestUser;

  before(async () => {
    h = await startHarness();
    target = await createGuild(h.api, await registerUser(h.api, 'owner'));
    plain = await member(h.api, target, 'plain');
    banner = await member(h.api, target, 'banner');
    await grant(h.api, target, banner, Permission.BAN_MEMBERS | Permission.KICK_MEMBERS);
  });
  after(async () => {
    await h.stop();
  });

  const bansPath = () => `/guilds/${target.guild.id}/bans`;

  it('bans a member: GUILD_DELETE to their socket, and they cannot rejoin (403 40007) until unbanned', async () => {
    const victim = await member(h.api, target, 'victim');
    const socket = await connect(h.gatewayUrl, victim);
    try {
      await guildReady(socket, target.guild.id);
      await fails(h.api, 'PUT', `${bansPath()}/${victim.id}`, plain, 403, 50_013, {});
      await api(h.api, 'PUT', `${bansPath()}/${victim.id}`, {
        token: banner.token,
        body: { reason: 'spam' },
        expect: 204,
      });
      await socket.waitForDispatch<{ id: string }>('GUILD_DELETE', (d) => d.id === target.guild.id);
    } finally {
      await socket.close();
    }
    const ban = await api<{ user: { id: string }; reason: string }>(h.api, 'GET', `${bansPath()}/${victim.id}`, {
      token: banner.token,
    });
    assert.deepEqual([ban.user.id, ban.reason], [victim.id, 'spam']);
    const list = await api<{ user: { id: string } }[]>(h.api, 'GET', bansPath(), { token: banner.token });
    assert.ok(list.some((entry) => entry.user.id === victim.id));
    await fails(h.api, 'GET', bansPath(), plain, 403, 50_013);
    const invite = await api<{ code: string }>(h.api, 'POST', `/channels/${target.textChannelId}/invites`, {
      token: target.owner.token,
      body: {},
    });
    await fails(h.api, 'POST', `/invites/${invite.code}`, victim, 403, 40_007);
    await fails(h.api, 'DELETE', `${bansPath()}/${victim.id}`, plain, 403, 50_013);
    await api(h.api, 'DELETE', `${bansPath()}/${victim.id}`, { token: banner.token, expect: 204 });
    await fails(h.api, 'GET', `${bansPath()}/${victim.id}`, banner, 404, 10_026);
    await joinGuild(h.api, target, victim);
  });

  it('bans a user who is not a member, but never the owner', async () => {
    const outsider = await registerUser(h.api, 'outsider');
    await api(h.api, 'PUT', `${bansPath()}/${outsider.id}`, { token: banner.token, body: {}, expect: 204 });
    await fails(h.api, 'PUT', `${bansPath()}/${target.owner.id}`, banner, 403, 50_013, {});
    await fails(h.api, 'PUT', `${bansPath()}/123456789`, banner, 404, 10_013, {});
  });

  it('tells GUILD_BAN_ADD only to those who may see bans', async () => {
    const outsider = await registerUser(h.api, 'outsider');
    const ownerSocket = await connect(h.gatewayUrl, target.owner);
    try {
      await guildReady(ownerSocket, target.guild.id);
      await api(h.api, 'PUT', `${bansPath()}/${outsider.id}`, { token: banner.token, body: {}, expect: 204 });
      await ownerSocket.waitForDispatch<{ user: { id: string } }>('GUILD_BAN_ADD', (d) => d.user.id === outsider.id);
    } finally {
      await ownerSocket.close();
    }
  });

  it("deletes the banned user's recent messages in every channel when the ban asks (delete_message_seconds)", async () => {
    const victim = await member(h.api, target, 'spammer');
    const second = await api<{ id: string }>(h.api, 'POST', `/guilds/${target.guild.id}/channels`, {
      token: target.owner.token,
      body: { name: 'second', type: 0 },
      expect: 201,
    });
    const post = (channelId: string, user: TestUser, content: string) =>
      api<{ id: string }>(h.api, 'POST', `/channels/${channelId}/messages`, { token: user.token, body: { content } });
    const spam = [
      await post(target.textChannelId, victim, 'spam 1'),
      await post(target.textChannelId, victim, 'spam 2'),
      await post(second.id, victim, 'spam 3'),
    ];
    const kept = await post(target.textChannelId, plain, 'not spam');
    const socket = await connect(h.gatewayUrl, target.owner);
    try {
      await guildReady(socket, target.guild.id);
      const deleted = (channelId: string) =>
        socket.waitForDispatch<{ ids: string[]; channel_id: string }>(
          'MESSAGE_DELETE_BULK',
          (d) => d.channel_id === channelId,
        );
      const inFirst = deleted(target.textChannelId);
      const inSecond = deleted(second.id);
      await api(h.api, 'PUT', `${bansPath()}/${victim.id}`, {
        token: banner.token,
        body: { delete_message_seconds: 3_600 },
        expect: 204,
      });
      assert.deepEqual((await inFirst).d.ids.sort(), [spam[0]?.id, spam[1]?.id].sort());
      assert.deepEqual((await inSecond).d.ids, [spam[2]?.id]);
    } finally {
      await socket.close();
    }
    const left = await api<{ id: string }[]>(h.api, 'GET', `/channels/${target.textChannelId}/messages`, {
      token: target.owner.token,
    });
    const ids = left.map((message) => message.id);
    assert.ok(ids.includes(kept.id), "another member's message stays");
    assert.ok(!ids.some((id) => spam.some((message) => message.id === id)), "the banned user's messages are gone");
    await fails(h.api, 'GET', `/channels/${second.id}/messages/${spam[2]?.id ?? ''}`, target.owner, 404, 10_008);
  });

  it("purges past one page of history, deleting the banned user's messages among others' page by page", async () => {
    const victim = await member(h.api, target, 'flooder');
    const channel = await api<{ id: string }>(h.api, 'POST', `/guilds/${target.guild.id}/channels`, {
      token: target.owner.token,
      body: { name: 'flooded', type: 0 },
      expect: 201,
    });
    const flood: string[] = [];
    for (let index = 0; index < 150; index += 1) {
      const author = index % 5 === 4 ? plain : victim; // 120 by the victim, 30 by another member
      const message = await api<{ id: string }>(h.api, 'POST', `/channels/${channel.id}/messages`, {
        token: author.token,
        body: { content: `flood ${index}` },
      });
      if (author === victim) flood.push(message.id);
    }
    const socket = await connect(h.gatewayUrl, target.owner);
    try {
      await guildReady(socket, target.guild.id);
      const from = socket.frames.length;
      await api(h.api, 'PUT', `${bansPath()}/${victim.id}`, {
        token: banner.token,
        body: { delete_message_days: 1 },
        expect: 204,
      });
      const deleted = new Set<string>();
      while (deleted.size < flood.length) {
        const event = await socket.waitForDispatch<{ ids: string[]; channel_id: string }>(
          'MESSAGE_DELETE_BULK',
          (d) => d.channel_id === channel.id && d.ids.some((id) => !deleted.has(id)),
          { from },
        );
        assert.ok(event.d.ids.length <= 100, 'an event carries at most 100 ids');
        for (const id of event.d.ids) deleted.add(id);
      }
      assert.deepEqual([...deleted].sort(), [...flood].sort());
    } finally {
      await socket.close();
    }
    const left = await api<{ author: { id: string } }[]>(h.api, 'GET', `/channels/${channel.id}/messages?limit=100`, {
      token: target.owner.token,
    });
    assert.equal(left.length, 30);
    assert.ok(left.every((message) => message.author.id === plain.id));
  });

  it("keeps the banned user's messages when the ban does not ask to delete them", async () => {
    const victim = await member(h.api, target, 'quiet');
    const message = await api<{ id: string }>(h.api, 'POST', `/channels/${target.textChannelId}/messages`, {
      token: victim.token,
      body: { content: 'hello' },
    });
    await api(h.api, 'PUT', `${bansPath()}/${victim.id}`, { token: banner.token, body: {}, expect: 204 });
    // A later message in the same channel: the Channel actor has served everything told to it before.
    await api(h.api, 'POST', `/channels/${target.textChannelId}/messages`, {
      token: plain.token,
      body: { content: 'x' },
    });
    const read = await api<{ id: string }>(h.api, 'GET', `/channels/${target.textChannelId}/messages/${message.id}`, {
      token: target.owner.token,
    });
    assert.equal(read.id, message.id);
  });

  it('counts and prunes with KICK_MEMBERS, refusing others', async () => {
    const count = await api<{ pruned: number }>(h.api, 'GET', `/guilds/${target.guild.id}/prune?days=1`, {
      token: banner.token,
    });
    // Everyone joined moments ago, so nobody has been inactive for a day.
    assert.equal(count.pruned, 0);
    await fails(h.api, 'GET', `/guilds/${target.guild.id}/prune`, plain, 403, 50_013);
    await fails(h.api, 'POST', `/guilds/${target.guild.id}/prune`, plain, 403, 50_013, { days: 1 });
    const pruned = await api<{ pruned: number }>(h.api, 'POST', `/guilds/${target.guild.id}/prune`, {
      token: banner.token,
      body: { days: 1 },
    });
    assert.equal(pruned.pruned, 0);
    await fails(h.api, 'POST', `/guilds/${target.guild.id}/prune`, banner, 400, 50_035, { days: 31 });
  });

  it('refuses prune to an account without the KICK_BAN_MEMBERS right', async () => {
    const limited = await h.userWithRights('nokick', DEFAULT_USER_RIGHTS & ~Right.KICK_BAN_MEMBERS);
    const limitedTarget = await createGuild(h.api, limited);
    await fails(h.api, 'POST', `/guilds/${limitedTarget.guild.id}/prune`, limited, 403, 50_013, { days: 1 });
  });
});
