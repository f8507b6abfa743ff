import assert from 'node:assert/strict';
import { DEFAULT_EVERYONE_PERMISSIONS, Permission } from '../../src/domain/permissions.js';
import { grant, member } from '../integration/guilds/guildKit.js';
import { api, registerUser, startTestServer, type TestServer, type TestUser } from '../support/testServer.js';
import { lockedGuild, refused, type LockedGuild } from './accessRulesKit.js';
import { send } from './securityKit.js';

describe('security: guild settings reads need MANAGE_GUILD; widget images need a token', () => {
  let server: TestServer;
  let base: string;
  let world: LockedGuild;
  let manager: TestUser;
  let stranger: TestUser;

  before(async () => {
    server = await startTestServer();
    base = server.api;
    world = await lockedGuild(base, DEFAULT_EVERYONE_PERMISSIONS, 'Reads');
    manager = await member(base, world.target, 'manager');
    await grant(base, world.target, manager, Permission.MANAGE_GUILD, 'managers');
    stranger = await registerUser(base, 'stranger');
    await api(base, 'POST', `/guilds/${world.guildId}/templates`, {
      token: world.owner.token,
      body: { name: 'Blueprint' },
    });
  });

  after(async () => {
    await server.stop();
  });

  for (const route of ['templates', 'widget']) {
    it(`refuses GET /guilds/{id}/${route} to a plain member (403 50013) and serves it with MANAGE_GUILD`, async () => {
      const path = `/guilds/${world.guildId}/${route}`;
      await refused(base, 'GET', path, world.plain.token, 403, 50_013);
      await refused(base, 'GET', path, stranger.token, 404, 10_004);
      for (const allowed of [manager, world.owner]) {
        const answer = await api(base, 'GET', path, { token: allowed.token });
        assert.equal(typeof answer, 'object');
      }
    });
  }

  it('lists the guild template to a manager', async () => {
    const listed = await api<{ name: string }[]>(base, 'GET', `/guilds/${world.guildId}/templates`, {
      token: manager.token,
    });
    assert.deepEqual(
      listed.map((template) => template.name),
      ['Blueprint'],
    );
  });

  for (const image of ['widget.json', 'widget.png']) {
    it(`answers 401 on GET /guilds/{id}/${image} without a valid token, and serves any signed-in user`, async () => {
      const path = `/guilds/${world.guildId}/${image}`;
      await refused(base, 'GET', path, undefined, 401, 0);
      await refused(base, 'GET', `${path}/`, undefined, 401, 0);
      await refused(base, 'GET', path, 'not-a-token', 401, 0);
      await api(base, 'PATCH', `/guilds/${world.guildId}/widget`, {
        token: world.owner.token,
        body: { enabled: false, channel_id: world.channelId },
      });
      await refused(base, 'GET', path, stranger.token, 403, 50_004);
      await api(base, 'PATCH', `/guilds/${world.guildId}/widget`, {
        token: world.owner.token,
        body: { enabled: true, channel_id: world.channelId },
      });
      const served = await send(base, 'GET', path, { auth: stranger.token });
      assert.equal(served.status, 200, served.text);
      assert.match(served.headers.get('content-type') ?? '', image.endsWith('png') ? /image\/png/ : /json/);
    });
  }
});
