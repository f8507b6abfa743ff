import assert from 'node:assert/strict';
import { Permission } from '../../../src/domain/permissions.js';
import { api, registerUser, type TestUser } from '../../support/testServer.js';
import {
  connect,
  createGuild,
  fails,
  grant,
  guildReady,
  member,
  startHarness,
  type GuildHarness,
  type TestGuild,
} from './guildKit.js';

interface ApiRole {
  id: string;
  name: string;
  position: number;
  permissions: string;
  color: number;
}

describe('guild roles', () => {
  let h: GuildHarness;
  let target: TestGuild;
  let plain: TestUser;
  let mod: TestUser;
  let modRole: string;
  let stranger: TestUser;

  before(async () => {
    h = await startHarness();
    target = await createGuild(h.api, await registerUser(h.api, 'owner'));
    plain = await member(h.api, target, 'plain');
    mod = await member(h.api, target, 'mod');
    modRole = await grant(h.api, target, mod, Permission.MANAGE_ROLES | Permission.KICK_MEMBERS, 'mod');
    stranger = await registerUser(h.api, 'stranger');
  });
  after(async () => {
    await h.stop();
  });

  const rolesPath = () => `/guilds/${target.guild.id}/roles`;
  const roles = () => api<ApiRole[]>(h.api, 'GET', rolesPath(), { token: plain.token });

  it('lists roles to members and refuses non-members with 404 10004', async () => {
    const list = await roles();
    assert.ok(list.some((role) => role.id === target.guild.id));
    await fails(h.api, 'GET', rolesPath(), stranger, 404, 10_004);
  });

  it('creates a role just above @everyone with MANAGE_ROLES and dispatches GUILD_ROLE_CREATE', async () => {
    const socket = await connect(h.gatewayUrl, plain);
    try {
      await guildReady(socket, target.guild.id);
      await fails(h.api, 'POST', rolesPath(), plain, 403, 50_013, { name: 'nope' });
      const role = await api<ApiRole>(h.api, 'POST', rolesPath(), {
        token: mod.token,
        body: { name: 'helper', color: 0xff0000, permissions: Permission.KICK_MEMBERS.toString() },
      });
      assert.equal(role.position, 1);
      assert.equal(role.color, 0xff0000);
      const event = await socket.waitForDispatch<{ guild_id: string; role: ApiRole }>(
        'GUILD_ROLE_CREATE',
        (d) => d.role.id === role.id,
      );
      assert.equal(event.d.guild_id, target.guild.id);
      const fetched = await api<ApiRole>(h.api, 'GET', `${rolesPath()}/${role.id}`, { token: plain.token });
      assert.equal(fetched.name, 'helper');
    } finally {
      await socket.close();
    }
  });

  it('refuses to grant permissions the actor lacks (403 50013)', async () => {
    await fails(h.api, 'POST', rolesPath(), mod, 403, 50_013, {
      name: 'x',
      permissions: Permission.BAN_MEMBERS.toString(),
    });
  });

  it('lets a member edit only roles below their highest role', async () => {
    const above = await api<ApiRole>(h.api, 'POST', rolesPath(), {
      token: target.owner.token,
      body: { name: 'above' },
    });
    await api(h.api, 'PATCH', rolesPath(), {
      token: target.owner.token,
      body: [{ id: above.id, position: 50 }],
    });
    await fails(h.api, 'PATCH', `${rolesPath()}/${above.id}`, mod, 403, 50_013, { name: 'hijacked' });
    await fails(h.api, 'PATCH', `${rolesPath()}/${modRole}`, mod, 403, 50_013, { name: 'self' });
    await fails(h.api, 'DELETE', `${rolesPath()}/${above.id}`, mod, 403, 50_013);
    const below = await api<ApiRole>(h.api, 'POST', rolesPath(), { token: mod.token, body: { name: 'below' } });
    const edited = await api<ApiRole>(h.api, 'PATCH', `${rolesPath()}/${below.id}`, {
      token: mod.token,
      body: { name: 'edited', hoist: true },
    });
    assert.equal(edited.name, 'edited');
    await fails(h.api, 'PATCH', `${rolesPath()}/${below.id}`, plain, 403, 50_013, { name: 'x' });
  });

  it('refuses to move a role above the actor and reorders otherwise', async () => {
    const low = await api<ApiRole>(h.api, 'POST', rolesPath(), { token: mod.token, body: { name: 'low' } });
    const list = await roles();
    const modPosition = list.find((role) => role.id === modRole)?.position ?? 0;
    await fails(h.api, 'PATCH', rolesPath(), mod, 403, 50_013, [{ id: low.id, position: modPosition + 5 }]);
    await fails(h.api, 'PATCH', rolesPath(), plain, 403, 50_013, [{ id: low.id, position: 2 }]);
    const reordered = await api<ApiRole[]>(h.api, 'PATCH', rolesPath(), {
      token: target.owner.token,
      body: [{ id: low.id, position: modPosition + 5 }],
    });
    const moved = reordered.find((role) => role.id === low.id);
    assert.ok(moved && moved.position > (reordered.find((role) => role.id === modRole)?.position ?? 0));
  });

  it('answers 404 10011 for an unknown role and 400 for deleting @everyone', async () => {
    await fails(h.api, 'GET', `${rolesPath()}/42`, plain, 404, 10_011);
    await fails(h.api, 'PATCH', `${rolesPath()}/42`, mod, 404, 10_011, { name: 'x' });
    const error = await api<{ code: number }>(h.api, 'DELETE', `${rolesPath()}/${target.guild.id}`, {
      token: target.owner.token,
      expect: 400,
    });
    assert.equal(error.code, 50_028);
  });

  it('deletes a role and takes it from its members, dispatching GUILD_ROLE_DELETE', async () => {
    const role = await grant(h.api, target, plain, 0n, 'temporary');
    const socket = await connect(h.gatewayUrl, plain);
    try {
      await guildReady(socket, target.guild.id);
      await api(h.api, 'DELETE', `${rolesPath()}/${role}`, { token: target.owner.token, expect: 204 });
      await socket.waitForDispatch<{ role_id: string }>('GUILD_ROLE_DELETE', (d) => d.role_id === role);
      const self = await api<{ roles: string[] }>(h.api, 'GET', `/guilds/${target.guild.id}/members/@me`, {
        token: plain.token,
      });
      assert.ok(!self.roles.includes(role));
    } finally {
      await socket.close();
    }
  });

  it('changes @everyone permissions, which changes what members may do', async () => {
    const everyone = `${rolesPath()}/${target.guild.id}`;
    const base = (await roles()).find((role) => role.id === target.guild.id);
    assert.ok(base);
    const withoutInvites = (BigInt(base.permissions) & ~Permission.CREATE_INSTANT_INVITE).toString();
    await api(h.api, 'PATCH', everyone, { token: target.owner.token, body: { permissions: withoutInvites } });
    await fails(h.api, 'POST', `/channels/${target.textChannelId}/invites`, plain, 403, 50_013, {});
    await api(h.api, 'PATCH', everyone, { token: target.owner.token, body: { permissions: base.permissions } });
    await api(h.api, 'POST', `/channels/${target.textChannelId}/invites`, { token: plain.token, body: {} });
  });
});
