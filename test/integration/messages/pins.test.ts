import assert from 'node:assert/strict';
import { api, startTestServer, type TestServer } from '../../support/testServer.js';
import { fails, guildWorld, send, textChannel, type ApiMessage, type GuildWorld } from './messageFixtures.js';

describe('pins, typing and acks', () => {
  let server: TestServer;
  let world: GuildWorld;
  let channel: string;

  before(async () => {
    server = await startTestServer();
    world = await guildWorld(server.api);
    channel = await textChannel(server.api, world, 'pins');
  });

  after(async () => {
    await server.stop();
  });

  it('pins and unpins with MANAGE_MESSAGES, listed newest pin first', async () => {
    const first = await send(server.api, world.member, channel, { content: 'pin me' });
    const second = await send(server.api, world.member, channel, { content: 'pin me too' });
    await api(server.api, 'PUT', `/channels/${channel}/pins/${first.id}`, { token: world.owner.token, expect: 204 });
    await api(server.api, 'PUT', `/channels/${channel}/messages/pins/${second.id}`, {
      token: world.owner.token,
      expect: 204,
    });
    const pins = await api<ApiMessage[]>(server.api, 'GET', `/channels/${channel}/pins`, { token: world.member.token });
    assert.deepEqual(
      pins.map((message) => message.id),
      [second.id, first.id],
    );
    assert.ok(pins.every((message) => message.pinned));
    const paged = await api<{ items: { pinned_at: string; message: ApiMessage }[]; has_more: boolean }>(
      server.api,
      'GET',
      `/channels/${channel}/messages/pins?limit=1`,
      { token: world.member.token },
    );
    assert.equal(paged.items.length, 1);
    assert.equal(paged.items[0]?.message.id, second.id);
    assert.ok(!Number.isNaN(Date.parse(paged.items[0]?.pinned_at ?? '')));
    assert.equal(paged.has_more, true);
    await api(server.api, 'DELETE', `/channels/${channel}/pins/${first.id}`, { token: world.owner.token, expect: 204 });
    const after = await api<ApiMessage>(server.api, 'GET', `/channels/${channel}/messages/${first.id}`, {
      token: world.owner.token,
    });
    assert.equal(after.pinned, false);
  });

  it('refuses to pin without MANAGE_MESSAGES or PIN_MESSAGES (50013)', async () => {
    const message = await send(server.api, world.member, channel, { content: 'no pin' });
    const error = await fails(server.api, 'PUT', `/channels/${channel}/pins/${message.id}`, world.member, 403);
    assert.equal(error.code, 50_013);
  });

  it('answers 10008 when pinning an unknown message', async () => {
    const error = await fails(server.api, 'PUT', `/channels/${channel}/pins/123456789012345678`, world.owner, 404);
    assert.equal(error.code, 10_008);
  });

  it('answers 204 to typing, and 10003 to a non-member', async () => {
    await api(server.api, 'POST', `/channels/${channel}/typing`, { token: world.member.token, expect: 204 });
    const error = await fails(server.api, 'POST', `/channels/${channel}/typing`, world.outsider, 404);
    assert.equal(error.code, 10_003);
  });

  it('acknowledges a message with {token: null}', async () => {
    const message = await send(server.api, world.owner, channel, { content: 'ack me' });
    const ack = await api<{ token: null }>(server.api, 'POST', `/channels/${channel}/messages/${message.id}/ack`, {
      token: world.member.token,
      body: {},
    });
    assert.deepEqual(ack, { token: null });
  });
});
