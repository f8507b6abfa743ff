import assert from 'node:assert/strict';
import { Permission } from '../../../src/domain/permissions.js';
import { api, registerUser, type TestUser } from '../../support/testServer.js';
import {
  ALL_TEST_INTENTS,
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

interface ApiMember {
  user: { id: string; username: string };
  nick: string | null;
  roles: string[];
  joined_at: string;
}

describe('guild members', () => {
  let h: GuildHarness;
  let target: TestGuild;
  let plain: TestUser;
  let stranger: TestUser;

  before(async () => {
    h = await startHarness();
    target = await createGuild(h.api, await registerUser(h.api, 'owner'));
    plain = await member(h.api, target, 'plain');
    stranger = await registerUser(h.api, 'stranger');
  });
  after(async () => {
    await h.stop();
  });

  const membersPath = () => `/guilds/${target.guild.id}/members`;

  describe('reading', () => {
    it('lists members in user id order with limit and after', async () => {
      const all = await api<ApiMember[]>(h.api, 'GET', `${membersPath()}?limit=1000`, { token: plain.token });
      assert.ok(all.length >= 2);
      const ids = all.map((m) => m.user.id);
      assert.deepEqual(
        ids,
        [...ids].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1)),
      );
      const page = await api<ApiMember[]>(h.api, 'GET', `${membersPath()}?limit=1&after=${ids[0] ?? ''}`, {
        token: plain.token,
      });
      assert.deepEqual(
        page.map((m) => m.user.id),
        [ids[1]],
      );
      await fails(h.api, 'GET', `${membersPath()}?limit=0`, plain, 400, 50_035);
      await fails(h.api, 'GET', membersPath(), stranger, 404, 10_004);
    });

    it('searches members by username prefix', async () => {
      const found = await api<ApiMember[]>(h.api, 'GET', `${membersPath()}/search?query=${plain.username}&limit=5`, {
        token: target.owner.token,
      });
      assert.deepEqual(
        found.map((m) => m.user.id),
        [plain.id],
      );
    });

    it('gets one member, @me included, and answers 404 10007 for a non-member', async () => {
      const self = await api<ApiMember>(h.api, 'GET', `${membersPath()}/@me`, { token: plain.token });
      assert.equal(self.user.id, plain.id);
      await fails(h.api, 'GET', `${membersPath()}/${stranger.id}`, plain, 404, 10_007);
    });
  });

  describe('nicknames', () => {
    it('lets a member set their own nickname (CHANGE_NICKNAME) and reset it with null', async () => {
      const changed = await api<{ nick: string }>(h.api, 'PATCH', `${membersPath()}/@me/nick`, {
        token: plain.token,
        body: { nick: 'Plainly' },
      });
      assert.deepEqual(changed, { nick: 'Plainly' });
      const reset = await api<ApiMember>(h.api, 'PATCH', `${membersPath()}/@me`, {
        token: plain.token,
        body: { nick: null },
      });
      assert.equal(reset.nick, null);
    });

    it("needs MANAGE_NICKNAMES and a higher role to change another member's nickname", async () => {
      const other = await member(h.api, target, 'other');
      const path = `${membersPath()}/${other.id}`;
      await fails(h.api, 'PATCH', path, plain, 403, 50_013, { nick: 'x' });
      const renamer = await member(h.api, target, 'renamer');
      await grant(h.api, target, renamer, Permission.MANAGE_NICKNAMES);
      const renamed = await api<ApiMember>(h.api, 'PATCH', path, { token: renamer.token, body: { nick: 'Renamed' } });
      assert.equal(renamed.nick, 'Renamed');
      await fails(h.api, 'PATCH', `${membersPath()}/${target.owner.id}`, renamer, 403, 50_013, { nick: 'boss' });
    });
  });

  describe('roles', () => {
    it('needs MANAGE_ROLES and only assigns roles below the actor', async () => {
      const manager = await member(h.api, target, 'manager');
      const managerRole = await grant(h.api, target, manager, Permission.MANAGE_ROLES);
      const low = await api<{ id: string }>(h.api, 'POST', `/guilds/${target.guild.id}/roles`, {
        token: target.owner.token,
        body: { name: 'low' },
      });
      const rolePath = `${membersPath()}/${plain.id}/roles/${low.id}`;
      await fails(h.api, 'PUT', rolePath, plain, 403, 50_013);
      await fails(h.api, 'PUT', `${membersPath()}/${plain.id}/roles/${managerRole}`, manager, 403, 50_013);
      await fails(h.api, 'PUT', `${membersPath()}/${plain.id}/roles/42`, manager, 404, 10_011);
      await api(h.api, 'PUT', rolePath, { token: manager.token, expect: 204 });
      const patched = await api<ApiMember>(h.api, 'PATCH', `${membersPath()}/${plain.id}`, {
        token: manager.token,
        body: { roles: [] },
      });
      assert.deepEqual(patched.roles, []);
      await fails(h.api, 'PATCH', `${membersPath()}/${plain.id}`, plain, 403, 50_013, { roles: [low.id] });
      await api(h.api, 'PUT', rolePath, { token: manager.token, expect: 204 });
      await fails(h.api, 'DELETE', rolePath, plain, 403, 50_013);
      await api(h.api, 'DELETE', rolePath, { token: manager.token, expect: 204 });
    });

    it('tells the member GUILD_MEMBER_UPDATE about their own roles even without the GUILD_MEMBERS intent', async () => {
      const socket = await connect(h.gatewayUrl, plain, 1);
      try {
        await guildReady(socket, target.guild.id);
        const role = await grant(h.api, target, plain, 0n, 'badge');
        await socket.waitForDispatch<ApiMember>(
          'GUILD_MEMBER_UPDATE',
          (d) => d.user.id === plain.id && d.roles.includes(role),
        );
      } finally {
        await socket.close();
      }
    });
  });

  describe('joining, leaving and kicking', () => {
    it('dispatches GUILD_MEMBER_ADD when someone joins', async () => {
      const socket = await connect(h.gatewayUrl, target.owner);
      try {
        await guildReady(socket, target.guild.id);
        const newcomer = await registerUser(h.api, 'newcomer');
        await joinGuild(h.api, target, newcomer);
        const event = await socket.waitForDispatch<ApiMember & { guild_id: string }>(
          'GUILD_MEMBER_ADD',
          (d) => d.user.id === newcomer.id,
        );
        assert.equal(event.d.guild_id, target.guild.id);
      } finally {
        await socket.close();
      }
    });

    it('kicks with KICK_MEMBERS: GUILD_DELETE to the kicked socket, GUILD_MEMBER_REMOVE to others', async () => {
      const victim = await member(h.api, target, 'victim');
      const kicker = await member(h.api, target, 'kicker');
      await grant(h.api, target, kicker, Permission.KICK_MEMBERS);
      const victimSocket = await connect(h.gatewayUrl, victim);
      const ownerSocket = await connect(h.gatewayUrl, target.owner, ALL_TEST_INTENTS);
      try {
        await guildReady(victimSocket, target.guild.id);
        await guildReady(ownerSocket, target.guild.id);
        await fails(h.api, 'DELETE', `${membersPath()}/${victim.id}`, plain, 403, 50_013);
        await fails(h.api, 'DELETE', `${membersPath()}/${victim.id}`, stranger, 404, 10_004);
        await api(h.api, 'DELETE', `${membersPath()}/${victim.id}`, { token: kicker.token, expect: 204 });
        await victimSocket.waitForDispatch<{ id: string }>('GUILD_DELETE', (d) => d.id === target.guild.id);
        await ownerSocket.waitForDispatch<{ user: { id: string } }>(
          'GUILD_MEMBER_REMOVE',
          (d) => d.user.id === victim.id,
        );
        await fails(h.api, 'GET', `/guilds/${target.guild.id}`, victim, 404, 10_004);
        // After the kick the victim hears nothing more from the guild.
        const from = victimSocket.frames.length;
        await api(h.api, 'PATCH', `/guilds/${target.guild.id}`, {
          token: target.owner.token,
          body: { name: 'After kick' },
        });
        await ownerSocket.waitForDispatch<{ name: string }>('GUILD_UPDATE', (d) => d.name === 'After kick');
        assert.ok(!victimSocket.frames.slice(from).some((f) => f.t === 'GUILD_UPDATE'));
      } finally {
        await victimSocket.close();
        await ownerSocket.close();
      }
    });

    it('refuses to kick someone with an equal or higher role, or the owner', async () => {
      const a = await member(h.api, target, 'peerA');
      const b = await member(h.api, target, 'peerB');
      const role = await grant(h.api, target, a, Permission.KICK_MEMBERS, 'peer');
      await api(h.api, 'PUT', `${membersPath()}/${b.id}/roles/${role}`, { token: target.owner.token, expect: 204 });
      await fails(h.api, 'DELETE', `${membersPath()}/${b.id}`, a, 403, 50_013);
      await fails(h.api, 'DELETE', `${membersPath()}/${target.owner.id}`, a, 403, 50_013);
    });

    it('lets a member leave, but not the owner', async () => {
      const leaver = await member(h.api, target, 'leaver');
      await api(h.api, 'DELETE', `${membersPath()}/@me`, { token: leaver.token, expect: 204 });
      await fails(h.api, 'GET', `/guilds/${target.guild.id}`, leaver, 404, 10_004);
      await fails(h.api, 'DELETE', `${membersPath()}/@me`, target.owner, 400, 50_055);
    });
  });
});
