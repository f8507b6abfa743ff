import assert from 'node:assert/strict';
import { DEFAULT_USER_RIGHTS, Right } from '../../../src/domain/rights.js';
import { DEFAULT_EVERYONE_PERMISSIONS, Permission } from '../../../src/domain/permissions.js';
import { api, registerUser } from '../../support/testServer.js';
import {
  connect,
  createGuild,
  fails,
  grant,
  guildReady,
  member,
  startHarness,
  type ApiChannel,
  type ApiGuild,
  type GuildHarness,
} from './guildKit.js';

describe('guilds', () => {
  let h: GuildHarness;
  before(async () => {
    h = await startHarness();
  });
  after(async () => {
    await h.stop();
  });

  describe('POST /guilds', () => {
    it('creates @everyone, the owner and a general channel inside "Text Channels"', async () => {
      const owner = await registerUser(h.api, 'owner');
      const guild = await api<ApiGuild>(h.api, 'POST', '/guilds', {
        token: owner.token,
        body: { name: 'Home' },
        expect: 201,
      });
      assert.equal(guild.name, 'Home');
      assert.equal(guild.owner_id, owner.id);
      const everyone = guild.roles.find((role) => role.id === guild.id);
      assert.equal(everyone?.name, '@everyone');
      assert.equal(everyone?.permissions, DEFAULT_EVERYONE_PERMISSIONS.toString());
      const channels = await api<ApiChannel[]>(h.api, 'GET', `/guilds/${guild.id}/channels`, { token: owner.token });
      const category = channels.find((c) => c.type === 4 && c.name === 'Text Channels');
      const general = channels.find((c) => c.type === 0 && c.name === 'general');
      assert.ok(category && general);
      assert.equal(general.parent_id, category.id);
      assert.equal(general.guild_id, guild.id);
      assert.equal(guild.system_channel_id, general.id);
      const self = await api<{ user: { id: string } }>(h.api, 'GET', `/guilds/${guild.id}/members/${owner.id}`, {
        token: owner.token,
      });
      assert.equal(self.user.id, owner.id);
    });

    it('honours the channels of the body, with placeholder ids for parents', async () => {
      const owner = await registerUser(h.api, 'owner');
      const guild = await api<ApiGuild>(h.api, 'POST', '/guilds', {
        token: owner.token,
        expect: 201,
        body: {
          name: 'Templated',
          channels: [
            { id: '1', name: 'Info', type: 4 },
            { id: '2', name: 'rules', type: 0, parent_id: '1' },
          ],
          system_channel_id: '2',
        },
      });
      const channels = await api<ApiChannel[]>(h.api, 'GET', `/guilds/${guild.id}/channels`, { token: owner.token });
      assert.deepEqual(channels.map((c) => c.name).sort(), ['Info', 'rules']);
      const rules = channels.find((c) => c.name === 'rules');
      assert.equal(rules?.parent_id, channels.find((c) => c.name === 'Info')?.id);
      assert.equal(guild.system_channel_id, rules?.id);
    });

    it('refuses a missing name with 50035 naming the field', async () => {
      const owner = await registerUser(h.api, 'owner');
      const error = await fails(h.api, 'POST', '/guilds', owner, 400, 50_035, {});
      assert.ok(error.errors?.['name']);
    });

    it('refuses an account without the CREATE_GUILDS right (403 50013)', async () => {
      const user = await h.userWithRights('norights', DEFAULT_USER_RIGHTS & ~Right.CREATE_GUILDS);
      await fails(h.api, 'POST', '/guilds', user, 403, 50_013, { name: 'Nope' });
    });

    it('answers 401 without a token', async () => {
      await fails(h.api, 'POST', '/guilds', undefined, 401, 0, { name: 'Nope' });
    });
  });

  describe('GET /guilds/{id}', () => {
    it('answers members with counts on request and non-members with 404 10004', async () => {
      const owner = await registerUser(h.api, 'owner');
      const target = await createGuild(h.api, owner);
      await member(h.api, target);
      const guild = await api<ApiGuild>(h.api, 'GET', `/guilds/${target.guild.id}?with_counts=true`, {
        token: owner.token,
      });
      assert.equal(guild['approximate_member_count'], 2);
      const stranger = await registerUser(h.api, 'stranger');
      await fails(h.api, 'GET', `/guilds/${target.guild.id}`, stranger, 404, 10_004);
      await fails(h.api, 'GET', `/guilds/123456789`, owner, 404, 10_004);
    });
  });

  describe('PATCH /guilds/{id}', () => {
    it('needs MANAGE_GUILD (403 50013), 404 for non-members, and dispatches GUILD_UPDATE', async () => {
      const owner = await registerUser(h.api, 'owner');
      const target = await createGuild(h.api, owner);
      const plain = await member(h.api, target);
      const stranger = await registerUser(h.api, 'stranger');
      const path = `/guilds/${target.guild.id}`;
      await fails(h.api, 'PATCH', path, plain, 403, 50_013, { name: 'Renamed' });
      await fails(h.api, 'PATCH', path, stranger, 404, 10_004, { name: 'Renamed' });
      const socket = await connect(h.gatewayUrl, plain);
      try {
        await guildReady(socket, target.guild.id);
        const manager = await member(h.api, target, 'manager');
        await grant(h.api, target, manager, Permission.MANAGE_GUILD);
        const updated = await api<ApiGuild>(h.api, 'PATCH', path, { token: manager.token, body: { name: 'Renamed' } });
        assert.equal(updated.name, 'Renamed');
        const event = await socket.waitForDispatch<{ id: string; name: string }>(
          'GUILD_UPDATE',
          (d) => d.name === 'Renamed',
        );
        assert.equal(event.d.id, target.guild.id);
      } finally {
        await socket.close();
      }
    });

    it('stores an icon given as a data URI by its hash', async () => {
      const owner = await registerUser(h.api, 'owner');
      const target = await createGuild(h.api, owner);
      const png =
        'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
      const updated = await api<ApiGuild>(h.api, 'PATCH', `/guilds/${target.guild.id}`, {
        token: owner.token,
        body: { icon: png },
      });
      assert.match(String(updated['icon']), /^[0-9a-f]{32}$/);
      await fails(h.api, 'PATCH', `/guilds/${target.guild.id}`, owner, 400, 50_035, { icon: 'not an image' });
    });

    it('refuses a system channel that is not in the guild (50035)', async () => {
      const owner = await registerUser(h.api, 'owner');
      const target = await createGuild(h.api, owner);
      await fails(h.api, 'PATCH', `/guilds/${target.guild.id}`, owner, 400, 50_035, { system_channel_id: '42' });
    });
  });

  describe('DELETE /guilds/{id}', () => {
    it('is for the owner only: 403 for a member, even an administrator, and 404 for others', async () => {
      const owner = await registerUser(h.api, 'owner');
      const target = await createGuild(h.api, owner);
      const admin = await member(h.api, target, 'admin');
      await grant(h.api, target, admin, Permission.ADMINISTRATOR);
      const stranger = await registerUser(h.api, 'stranger');
      await fails(h.api, 'DELETE', `/guilds/${target.guild.id}`, admin, 403, 50_013);
      await fails(h.api, 'DELETE', `/guilds/${target.guild.id}`, stranger, 404, 10_004);
    });

    it('deletes the guild and sends GUILD_DELETE to its members', async () => {
      const owner = await registerUser(h.api, 'owner');
      const target = await createGuild(h.api, owner);
      const plain = await member(h.api, target);
      const socket = await connect(h.gatewayUrl, plain);
      try {
        await guildReady(socket, target.guild.id);
        await api(h.api, 'DELETE', `/guilds/${target.guild.id}`, { token: owner.token, expect: 204 });
        await socket.waitForDispatch<{ id: string }>('GUILD_DELETE', (d) => d.id === target.guild.id);
        await fails(h.api, 'GET', `/guilds/${target.guild.id}`, owner, 404, 10_004);
        await fails(h.api, 'GET', `/channels/${target.textChannelId}`, owner, 404, 10_003);
      } finally {
        await socket.close();
      }
    });

    it('also accepts POST /guilds/{id}/delete, as older clients send it', async () => {
      const owner = await registerUser(h.api, 'owner');
      const target = await createGuild(h.api, owner);
      await api(h.api, 'POST', `/guilds/${target.guild.id}/delete`, { token: owner.token, expect: 204 });
      await fails(h.api, 'GET', `/guilds/${target.guild.id}`, owner, 404, 10_004);
    });
  });

  describe('GUILD_CREATE', () => {
    it('carries the guild with its extras, and only the channels the user may view', async () => {
      const owner = await registerUser(h.api, 'owner');
      const target = await createGuild(h.api, owner);
      const hidden = await api<ApiChannel>(h.api, 'POST', `/guilds/${target.guild.id}/channels`, {
        token: owner.token,
        expect: 201,
        body: {
          name: 'staff',
          permission_overwrites: [
            { id: target.guild.id, type: 0, allow: '0', deny: Permission.VIEW_CHANNEL.toString() },
          ],
        },
      });
      const plain = await registerUser(h.api, 'plain');
      const socket = await connect(h.gatewayUrl, plain);
      try {
        const invite = await api<{ code: string }>(h.api, 'POST', `/channels/${target.textChannelId}/invites`, {
          token: owner.token,
          body: {},
        });
        await api(h.api, 'POST', `/invites/${invite.code}`, { token: plain.token });
        const payload = await guildReady(socket, target.guild.id);
        const channels = payload['channels'] as ApiChannel[];
        assert.ok(channels.some((c) => c.id === target.textChannelId));
        assert.ok(!channels.some((c) => c.id === hidden.id));
        assert.equal(channels[0]?.guild_id, undefined);
        assert.equal(payload['member_count'], 2);
        assert.equal(payload['unavailable'], false);
        assert.ok(Array.isArray(payload['members']) && Array.isArray(payload['voice_states']));
        assert.ok(Array.isArray(payload['roles']) && Array.isArray(payload['emojis']));
      } finally {
        await socket.close();
      }
    });
  });
});
