import assert from 'node:assert/strict';
import { after, before, describe, it } from 'mocha';
import { GatewayClient } from '../../support/GatewayClient.js';
import { api, registerUser, startTestServer, type TestServer, type TestUser } from '../../support/testServer.js';
import { createGuild, joinGuild, postMessage, type TestGuild } from './gatewayFixtures.js';

const GUILDS = 1 << 0;
const GUILD_MESSAGES = 1 << 9;
const MESSAGE_CONTENT = 1 << 15;

describe('gateway dispatches', () => {
  let server: TestServer;
  let alice: TestUser;
  let guild: TestGuild;
  const open: GatewayClient[] = [];
  const identified = async (token: string, extra: Record<string, unknown> = {}): Promise<GatewayClient> => {
    const { client } = await GatewayClient.identified(server.gatewayUrl, token, extra);
    open.push(client);
    return client;
  };

  before(async () => {
    server = await startTestServer();
    alice = await registerUser(server.api, 'alice');
    guild = await createGuild(server.api, alice.token, 'lobby');
  });
  after(async () => {
    await Promise.all(open.map((client) => client.drop()));
    await server.stop();
  });

  it('inlines the guilds of a user account in READY', async () => {
    const client = await identified(alice.token);
    const ready = client.dispatches('READY')[0]?.d;
    const guilds = ready?.['guilds'] as { id: string; channels: { id: string }[]; members: unknown[] }[];
    assert.deepEqual(
      guilds.map((entry) => entry.id),
      [guild.id],
    );
    assert.ok(guilds[0]?.channels.some((channel) => channel.id === guild.channelId));
    assert.equal(client.dispatches('GUILD_CREATE').length, 0);
  });

  it('delivers messages posted over HTTP as MESSAGE_CREATE with increasing sequence numbers', async () => {
    const client = await identified(alice.token);
    const sent = [];
    for (const content of ['one', 'two', 'three'])
      sent.push(await postMessage(server.api, alice.token, guild.channelId, content));
    const last = sent.at(-1)?.id;
    await client.waitForDispatch<{ id: string }>('MESSAGE_CREATE', (d) => d.id === last);
    const creates = client.dispatches<{ id: string; content: string; guild_id: string }>('MESSAGE_CREATE');
    assert.deepEqual(
      creates.map((frame) => frame.d.content),
      ['one', 'two', 'three'],
    );
    assert.equal(creates[0]?.d.guild_id, guild.id);
    const seqs = creates.map((frame) => frame.s ?? 0);
    assert.deepEqual(seqs, [seqs[0], (seqs[0] ?? 0) + 1, (seqs[0] ?? 0) + 2]);
    assert.ok((seqs[0] ?? 0) > 1);
  });

  it('sends no MESSAGE_CREATE to a session without GUILD_MESSAGES', async () => {
    const withIntent = await identified(alice.token, { intents: GUILDS | GUILD_MESSAGES | MESSAGE_CONTENT });
    const without = await identified(alice.token, { intents: GUILDS });
    const message = await postMessage(server.api, alice.token, guild.channelId, 'gated');
    await withIntent.waitForDispatch<{ id: string }>('MESSAGE_CREATE', (d) => d.id === message.id);
    // A GUILDS event after the message: once it arrives, the message would have arrived before it.
    await api(server.api, 'PATCH', `/channels/${guild.channelId}`, { token: alice.token, body: { topic: 'after' } });
    await without.waitForDispatch<{ topic: string }>('CHANNEL_UPDATE', (d) => d.topic === 'after');
    assert.equal(without.dispatches('MESSAGE_CREATE').length, 0);
  });

  it('sends GUILD_CREATE when the user joins a guild after READY', async () => {
    const bob = await registerUser(server.api, 'bob');
    const client = await identified(bob.token);
    await joinGuild(server.api, alice.token, guild.channelId, bob.token);
    const created = await client.waitForDispatch<{ id: string }>('GUILD_CREATE', (d) => d.id === guild.id);
    assert.ok((created.s ?? 0) > 1);
    const message = await postMessage(server.api, alice.token, guild.channelId, 'welcome bob');
    await client.waitForDispatch<{ id: string }>('MESSAGE_CREATE', (d) => d.id === message.id);
  });

  it('answers op 8 Request Guild Members with GUILD_MEMBERS_CHUNK', async () => {
    const client = await identified(alice.token);
    client.send(8, { guild_id: guild.id, query: '', limit: 0, nonce: 'n1' });
    const chunk = await client.waitForDispatch<{
      members: { user: { id: string } }[];
      nonce: string;
      chunk_count: number;
    }>('GUILD_MEMBERS_CHUNK', (d) => d.nonce === 'n1');
    assert.ok(chunk.d.members.some((member) => member.user.id === alice.id));
    assert.equal(chunk.d.chunk_count, 1);
    client.send(8, { guild_id: guild.id, user_ids: [alice.id, '1'], limit: 0, nonce: 'n2' });
    const byId = await client.waitForDispatch<{ members: unknown[]; not_found: string[] }>(
      'GUILD_MEMBERS_CHUNK',
      (d) => (d as { nonce?: string }).nonce === 'n2',
    );
    assert.equal(byId.d.members.length, 1);
    assert.deepEqual(byId.d.not_found, ['1']);
  });

  it('answers op 14 with a GUILD_MEMBER_LIST_UPDATE SYNC', async () => {
    const client = await identified(alice.token);
    client.send(14, { guild_id: guild.id, channels: { [guild.channelId]: [[0, 99]] } });
    const update = await client.waitForDispatch<{ guild_id: string; ops: { op: string; items: unknown[] }[] }>(
      'GUILD_MEMBER_LIST_UPDATE',
    );
    assert.equal(update.d.guild_id, guild.id);
    assert.equal(update.d.ops[0]?.op, 'SYNC');
    assert.ok((update.d.ops[0]?.items.length ?? 0) >= 2);
  });
});
