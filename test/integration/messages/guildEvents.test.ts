import assert from 'node:assert/strict';
import { GatewayClient } from '../../support/GatewayClient.js';
import { api, startTestServer, type TestServer } from '../../support/testServer.js';
import { guildWorld, send, textChannel, type GuildWorld } from './messageFixtures.js';

/** GUILDS | GUILD_MESSAGES | GUILD_MESSAGE_REACTIONS | GUILD_MESSAGE_TYPING | MESSAGE_CONTENT. */
const GUILD_INTENTS = (1 << 0) | (1 << 9) | (1 << 10) | (1 << 11) | (1 << 15);

type Data = Record<string, unknown>;

describe('guild message events', () => {
  let server: TestServer;
  let world: GuildWorld;
  let channel: string;
  let gateway: GatewayClient;

  before(async () => {
    server = await startTestServer();
    world = await guildWorld(server.api);
    channel = await textChannel(server.api, world, 'events');
    ({ client: gateway } = await GatewayClient.identified(server.gatewayUrl, world.member.token, {
      intents: GUILD_INTENTS,
    }));
  });

  after(async () => {
    await gateway.close();
    await server.stop();
  });

  it('dispatches MESSAGE_CREATE with guild_id and member, then UPDATE and DELETE', async () => {
    const from = gateway.frames.length;
    const sent = await send(server.api, world.owner, channel, { content: 'event time', nonce: 'n-1' });
    const created = await gateway.waitForDispatch<Data>('MESSAGE_CREATE', (d) => d['id'] === sent.id, { from });
    assert.equal(created.d['guild_id'], world.guildId);
    assert.equal(created.d['content'], 'event time');
    assert.equal(created.d['nonce'], 'n-1');
    assert.equal((created.d['author'] as { id: string }).id, world.owner.id);
    assert.ok(Array.isArray((created.d['member'] as { roles?: unknown }).roles));

    await api(server.api, 'PATCH', `/channels/${channel}/messages/${sent.id}`, {
      token: world.owner.token,
      body: { content: 'event time (edited)' },
    });
    const updated = await gateway.waitForDispatch<Data>('MESSAGE_UPDATE', (d) => d['id'] === sent.id, { from });
    assert.equal(updated.d['content'], 'event time (edited)');

    await api(server.api, 'DELETE', `/channels/${channel}/messages/${sent.id}`, {
      token: world.owner.token,
      expect: 204,
    });
    const deleted = await gateway.waitForDispatch<Data>('MESSAGE_DELETE', (d) => d['id'] === sent.id, { from });
    assert.deepEqual(deleted.d, { id: sent.id, channel_id: channel, guild_id: world.guildId });
  });

  it('dispatches reaction, pin and typing events', async () => {
    const from = gateway.frames.length;
    const sent = await send(server.api, world.owner, channel, { content: 'react' });
    await api(server.api, 'PUT', `/channels/${channel}/messages/${sent.id}/reactions/${encodeURIComponent('🔥')}/@me`, {
      token: world.owner.token,
      expect: 204,
    });
    const reaction = await gateway.waitForDispatch<Data>('MESSAGE_REACTION_ADD', (d) => d['message_id'] === sent.id, {
      from,
    });
    assert.deepEqual(reaction.d['emoji'], { id: null, name: '🔥' });
    assert.equal(reaction.d['guild_id'], world.guildId);
    assert.equal(reaction.d['message_author_id'], world.owner.id);

    await api(server.api, 'PUT', `/channels/${channel}/pins/${sent.id}`, { token: world.owner.token, expect: 204 });
    const pins = await gateway.waitForDispatch<Data>('CHANNEL_PINS_UPDATE', (d) => d['channel_id'] === channel, {
      from,
    });
    assert.equal(typeof pins.d['last_pin_timestamp'], 'string');

    await api(server.api, 'POST', `/channels/${channel}/typing`, { token: world.owner.token, expect: 204 });
    const typing = await gateway.waitForDispatch<Data>('TYPING_START', (d) => d['channel_id'] === channel, { from });
    assert.equal(typing.d['user_id'], world.owner.id);
    assert.equal(typing.d['guild_id'], world.guildId);
  });

  it('dispatches MESSAGE_DELETE_BULK with the ids', async () => {
    const a = await send(server.api, world.owner, channel, { content: 'a' });
    const b = await send(server.api, world.owner, channel, { content: 'b' });
    const from = gateway.frames.length;
    await api(server.api, 'POST', `/channels/${channel}/messages/bulk-delete`, {
      token: world.owner.token,
      body: { messages: [a.id, b.id] },
      expect: 204,
    });
    const bulk = await gateway.waitForDispatch<Data>('MESSAGE_DELETE_BULK', (d) => d['channel_id'] === channel, {
      from,
    });
    assert.deepEqual(bulk.d['ids'], [a.id, b.id]);
  });
});
