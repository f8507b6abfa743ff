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
  type ApiChannel,
  type GuildHarness,
  type TestGuild,
} from './guildKit.js';

const VIEW = Permission.VIEW_CHANNEL.toString();

describe('guild channels', () => {
  let h: GuildHarness;
  let target: TestGuild;
  let plain: TestUser;
  let manager: TestUser;
  let stranger: TestUser;

  before(async () => {
    h = await startHarness();
    target = await createGuild(h.api, await registerUser(h.api, 'owner'));
    plain = await member(h.api, target, 'plain');
    manager = await member(h.api, target, 'manager');
    await grant(h.api, target, manager, Permission.MANAGE_CHANNELS | Permission.MANAGE_ROLES);
    stranger = await registerUser(h.api, 'stranger');
  });
  after(async () => {
    await h.stop();
  });

  const channelsPath = () => `/guilds/${target.guild.id}/channels`;
  const newChannel = (body: Record<string, unknown>, by: TestUser = target.owner) =>
    api<ApiChannel>(h.api, 'POST', channelsPath(), { token: by.token, body, expect: 201 });

  describe('POST /guilds/{id}/channels', () => {
    it('creates a channel for a member with MANAGE_CHANNELS', async () => {
      const channel = await newChannel({ name: 'news', type: 5, topic: 'hello' }, manager);
      assert.equal(channel.type, 5);
      assert.equal(channel['topic'], 'hello');
      assert.equal(channel.guild_id, target.guild.id);
    });

    it('answers 403 50013 without MANAGE_CHANNELS and 404 to non-members', async () => {
      await fails(h.api, 'POST', channelsPath(), plain, 403, 50_013, { name: 'nope' });
      await fails(h.api, 'POST', channelsPath(), stranger, 404, 10_004, { name: 'nope' });
    });

    it('requires a name and a guild channel type, and a category of this guild as parent', async () => {
      await fails(h.api, 'POST', channelsPath(), target.owner, 400, 50_035, { type: 0 });
      await fails(h.api, 'POST', channelsPath(), target.owner, 400, 50_035, { name: 'dm', type: 1 });
      await fails(h.api, 'POST', channelsPath(), target.owner, 400, 50_035, {
        name: 'child',
        parent_id: target.textChannelId,
      });
      const category = await newChannel({ name: 'Stuff', type: 4 });
      const child = await newChannel({ name: 'child', parent_id: category.id });
      assert.equal(child.parent_id, category.id);
    });
  });

  describe('PATCH /channels/{id}', () => {
    it('modifies the channel with MANAGE_CHANNELS and dispatches CHANNEL_UPDATE to viewers', async () => {
      const channel = await newChannel({ name: 'renameme' });
      const socket = await connect(h.gatewayUrl, plain);
      try {
        await guildReady(socket, target.guild.id);
        await fails(h.api, 'PATCH', `/channels/${channel.id}`, plain, 403, 50_013, { name: 'x' });
        await fails(h.api, 'PATCH', `/channels/${channel.id}`, stranger, 404, 10_003, { name: 'x' });
        const updated = await api<ApiChannel>(h.api, 'PATCH', `/channels/${channel.id}`, {
          token: manager.token,
          body: { name: 'renamed', rate_limit_per_user: 5 },
        });
        assert.equal(updated.name, 'renamed');
        assert.equal(updated['rate_limit_per_user'], 5);
        await socket.waitForDispatch<ApiChannel>('CHANNEL_UPDATE', (d) => d.id === channel.id && d.name === 'renamed');
        const fetched = await api<ApiChannel>(h.api, 'GET', `/channels/${channel.id}`, { token: plain.token });
        assert.equal(fetched.name, 'renamed');
      } finally {
        await socket.close();
      }
    });
  });

  describe('DELETE /channels/{id}', () => {
    it('deletes with MANAGE_CHANNELS, dispatching CHANNEL_DELETE; others get 403', async () => {
      const channel = await newChannel({ name: 'doomed' });
      const socket = await connect(h.gatewayUrl, plain);
      try {
        await guildReady(socket, target.guild.id);
        await fails(h.api, 'DELETE', `/channels/${channel.id}`, plain, 403, 50_013);
        const deleted = await api<ApiChannel>(h.api, 'DELETE', `/channels/${channel.id}`, { token: manager.token });
        assert.equal(deleted.id, channel.id);
        await socket.waitForDispatch<ApiChannel>('CHANNEL_DELETE', (d) => d.id === channel.id);
        await fails(h.api, 'GET', `/channels/${channel.id}`, plain, 404, 10_003);
      } finally {
        await socket.close();
      }
    });
  });

  describe('PATCH /guilds/{id}/channels', () => {
    it('reorders with MANAGE_CHANNELS and refuses others', async () => {
      const a = await newChannel({ name: 'a' });
      const b = await newChannel({ name: 'b' });
      const body = [
        { id: a.id, position: 40 },
        { id: b.id, position: 30 },
      ];
      await fails(h.api, 'PATCH', channelsPath(), plain, 403, 50_013, body);
      await fails(h.api, 'PATCH', channelsPath(), manager, 400, 50_035, [{ id: '42', position: 1 }]);
      await api(h.api, 'PATCH', channelsPath(), { token: manager.token, body, expect: 204 });
      const channels = await api<ApiChannel[]>(h.api, 'GET', channelsPath(), { token: plain.token });
      assert.equal(channels.find((c) => c.id === a.id)?.position, 40);
      assert.equal(channels.find((c) => c.id === b.id)?.position, 30);
    });
  });

  describe('permission overwrites', () => {
    it('PUT needs MANAGE_ROLES, checks the target, and DELETE answers 404 10009 for a missing overwrite', async () => {
      const channel = await newChannel({ name: 'perms' });
      const path = `/channels/${channel.id}/permissions/${plain.id}`;
      const body = { id: plain.id, type: 1, allow: '0', deny: Permission.SEND_MESSAGES.toString() };
      await fails(h.api, 'PUT', path, plain, 403, 50_013, body);
      await fails(h.api, 'PUT', `/channels/${channel.id}/permissions/42`, manager, 404, 10_011, {
        ...body,
        id: '42',
        type: 0,
      });
      await api(h.api, 'PUT', path, { token: manager.token, body, expect: 204 });
      const fetched = await api<ApiChannel>(h.api, 'GET', `/channels/${channel.id}`, { token: plain.token });
      assert.deepEqual(fetched.permission_overwrites, [body]);
      await fails(h.api, 'DELETE', path, plain, 403, 50_013);
      await api(h.api, 'DELETE', path, { token: manager.token, expect: 204 });
      await fails(h.api, 'DELETE', path, manager, 404, 10_009);
    });

    it('refuses to grant through an overwrite a permission the actor lacks', async () => {
      const channel = await newChannel({ name: 'grant' });
      await fails(h.api, 'PUT', `/channels/${channel.id}/permissions/${plain.id}`, manager, 403, 50_013, {
        id: plain.id,
        type: 1,
        allow: Permission.BAN_MEMBERS.toString(),
        deny: '0',
      });
    });

    it('hides the channel and its events from a member an overwrite denies VIEW_CHANNEL', async () => {
      const channel = await newChannel({ name: 'secret' });
      const socket = await connect(h.gatewayUrl, plain);
      try {
        await guildReady(socket, target.guild.id);
        await api(h.api, 'PUT', `/channels/${channel.id}/permissions/${plain.id}`, {
          token: target.owner.token,
          body: { id: plain.id, type: 1, allow: '0', deny: VIEW },
          expect: 204,
        });
        // Losing sight of the channel reads as its deletion for that member.
        await socket.waitForDispatch<ApiChannel>('CHANNEL_DELETE', (d) => d.id === channel.id);
        await fails(h.api, 'GET', `/channels/${channel.id}`, plain, 403, 50_001);
        const listed = await api<ApiChannel[]>(h.api, 'GET', channelsPath(), { token: plain.token });
        assert.ok(!listed.some((c) => c.id === channel.id));
        const from = socket.frames.length;
        await api(h.api, 'PATCH', `/channels/${channel.id}`, { token: target.owner.token, body: { topic: 'hidden' } });
        await api(h.api, 'POST', `/channels/${channel.id}/messages`, {
          token: target.owner.token,
          body: { content: 'psst' },
        });
        // A later event in a visible channel: once it arrives, the hidden ones would have arrived first.
        await api(h.api, 'POST', `/channels/${target.textChannelId}/messages`, {
          token: target.owner.token,
          body: { content: 'hello all' },
        });
        await socket.waitForDispatch<{ content: string }>('MESSAGE_CREATE', (d) => d.content === 'hello all', { from });
        const leaked = socket.frames
          .slice(from)
          .filter((f) => f.op === 0 && (f.d as { id?: string; channel_id?: string }).channel_id === channel.id);
        assert.deepEqual(leaked, []);
        assert.ok(
          !socket.frames.slice(from).some((f) => f.t === 'CHANNEL_UPDATE' && (f.d as { id: string }).id === channel.id),
        );
        // Lifting the overwrite brings the channel back as a CHANNEL_CREATE.
        await api(h.api, 'DELETE', `/channels/${channel.id}/permissions/${plain.id}`, {
          token: target.owner.token,
          expect: 204,
        });
        await socket.waitForDispatch<ApiChannel>('CHANNEL_CREATE', (d) => d.id === channel.id);
      } finally {
        await socket.close();
      }
    });
  });
});
