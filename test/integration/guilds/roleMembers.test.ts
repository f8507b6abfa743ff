import assert from 'node:assert/strict';
import { Permission } from '../../../src/domain/permissions.js';
import { api, registerUser, type TestUser } from '../../support/testServer.js';
import { createGuild, fails, grant, member, startHarness, type GuildHarness, type TestGuild } from './guildKit.js';

describe("a role's holders: GET .../member-ids and PATCH .../members", () => {
  let h: GuildHarness;
  let target: TestGuild;
  let manager: TestUser;
  let plain: TestUser;
  let roleId = '';
  let managersRoleId = '';

  before(async () => {
    h = await startHarness();
    target = await createGuild(h.api, await registerUser(h.api, 'owner'));
    manager = await member(h.api, target, 'manager');
    managersRoleId = await grant(h.api, target, manager, Permission.MANAGE_ROLES, 'managers');
    plain = await member(h.api, target, 'plain');
    const role = await api<{ id: string }>(h.api, 'POST', `/guilds/${target.guild.id}/roles`, {
      token: target.owner.token,
      body: { name: 'helpers' },
    });
    roleId = role.id;
  });
  after(async () => {
    await h.stop();
  });

  const idsPath = (role: string) => `/guilds/${target.guild.id}/roles/${role}/member-ids`;
  const membersPath = (role: string) => `/guilds/${target.guild.id}/roles/${role}/members`;

  it('gives a role to several members at once, passing over ids that are not members, and lists its holders', async () => {
    const first = await member(h.api, target, 'first');
    const second = await member(h.api, target, 'second');
    const outsider = await registerUser(h.api, 'outsider');
    assert.deepEqual(await api<string[]>(h.api, 'GET', idsPath(roleId), { token: plain.token }), []);
    const given = await api<Record<string, { roles: string[] }>>(h.api, 'PATCH', membersPath(roleId), {
      token: manager.token,
      body: { member_ids: [first.id, second.id, outsider.id] },
    });
    assert.deepEqual(Object.keys(given).sort(), [first.id, second.id].sort());
    assert.ok(Object.values(given).every((held) => held.roles.includes(roleId)));
    const holders = await api<string[]>(h.api, 'GET', idsPath(roleId), { token: plain.token });
    assert.deepEqual(
      holders,
      [first.id, second.id].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1)),
    );
    const read = await api<{ roles: string[] }>(h.api, 'GET', `/guilds/${target.guild.id}/members/${first.id}`, {
      token: plain.token,
    });
    assert.ok(read.roles.includes(roleId));
  });

  it('refuses callers without MANAGE_ROLES (before the body), a role not below theirs, @everyone and bad bodies', async () => {
    await fails(h.api, 'PATCH', membersPath(roleId), plain, 403, 50_013, { member_ids: [plain.id] });
    await fails(h.api, 'PATCH', membersPath(roleId), plain, 403, 50_013, { member_ids: 'all' });
    // Their own top role is not below itself.
    await fails(h.api, 'PATCH', membersPath(managersRoleId), manager, 403, 50_013, { member_ids: [plain.id] });
    await fails(h.api, 'PATCH', membersPath(target.guild.id), manager, 404, 10_011, { member_ids: [plain.id] });
    await fails(h.api, 'PATCH', membersPath(roleId), target.owner, 400, 50_035, { member_ids: 'all' });
  });

  it('answers 404 for an unknown role and to a caller outside the guild', async () => {
    await fails(h.api, 'GET', idsPath('123456789012345678'), plain, 404, 10_011);
    const stranger = await registerUser(h.api, 'stranger');
    await fails(h.api, 'GET', idsPath(roleId), stranger, 404, 10_004);
  });
});
