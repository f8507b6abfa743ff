import assert from 'node:assert/strict';
import { snowflakeAt } from '../../../src/domain/snowflake.js';
import { api, startTestServer, type TestServer } from '../../support/testServer.js';
import { fails, guildWorld, send, textChannel, type ApiMessage, type GuildWorld } from './messageFixtures.js';

describe('bulk delete', () => {
  let server: TestServer;
  let world: GuildWorld;
  let channel: string;

  const bulk = (ids: string[], expect: number, user = world.owner) =>
    api<{ code?: number }>(server.api, 'POST', `/channels/${channel}/messages/bulk-delete`, {
      token: user.token,
      body: { messages: ids },
      expect,
    });

  before(async () => {
    server = await startTestServer();
    world = await guildWorld(server.api);
    channel = await textChannel(server.api, world, 'cleanup');
  });

  after(async () => {
    await server.stop();
  });

  it('deletes 2..100 messages for a user with MANAGE_MESSAGES', async () => {
    const a = await send(server.api, world.member, channel, { content: 'a' });
    const b = await send(server.api, world.member, channel, { content: 'b' });
    const keep = await send(server.api, world.member, channel, { content: 'keep' });
    await bulk([a.id, b.id], 204);
    const left = await api<ApiMessage[]>(server.api, 'GET', `/channels/${channel}/messages`, {
      token: world.owner.token,
    });
    assert.deepEqual(
      left.map((message) => message.id),
      [keep.id],
    );
  });

  it('refuses fewer than 2 or more than 100 messages with 50016', async () => {
    const one = await send(server.api, world.member, channel, { content: 'one' });
    assert.equal((await bulk([one.id], 400)).code, 50_016);
    const now = Date.now();
    const many = Array.from({ length: 101 }, (_, index) => snowflakeAt(now - index));
    assert.equal((await bulk(many, 400)).code, 50_016);
  });

  it('refuses messages older than 14 days with 50034', async () => {
    const recent = await send(server.api, world.member, channel, { content: 'recent' });
    const old = snowflakeAt(Date.now() - 15 * 24 * 3_600_000);
    assert.equal((await bulk([recent.id, old], 400)).code, 50_034);
  });

  it('refuses a member without MANAGE_MESSAGES with 50013', async () => {
    const a = await send(server.api, world.member, channel, { content: 'x' });
    const b = await send(server.api, world.member, channel, { content: 'y' });
    const error = await fails(server.api, 'POST', `/channels/${channel}/messages/bulk-delete`, world.member, 403, {
      messages: [a.id, b.id],
    });
    assert.equal(error.code, 50_013);
  });
});
