import assert from 'node:assert/strict';
import { after, before, describe, it } from 'mocha';
import { GatewayClient } from '../../support/GatewayClient.js';
import { registerUser, startTestServer, type TestServer, type TestUser } from '../../support/testServer.js';
import { addBot, createBot, createGuild, postMessage, type TestBot, type TestGuild } from './gatewayFixtures.js';

const GUILDS = 1 << 0;
const GUILD_MESSAGES = 1 << 9;
const MESSAGE_CONTENT = 1 << 15;

describe('gateway sessions of bots', () => {
  let server: TestServer;
  let owner: TestUser;
  let bot: TestBot;
  const guilds: TestGuild[] = [];
  const open: GatewayClient[] = [];
  const identified = async (intents: number): Promise<GatewayClient> => {
    const { client } = await GatewayClient.identified(server.gatewayUrl, bot.token, { intents });
    open.push(client);
    return client;
  };

  before(async () => {
    server = await startTestServer();
    owner = await registerUser(server.api, 'owner');
    bot = await createBot(server.api, owner.token, 'helper');
    for (const name of ['first', 'second']) {
      const guild = await createGuild(server.api, owner.token, name);
      await addBot(server.api, owner.token, bot, guild.id);
      guilds.push(guild);
    }
  });
  after(async () => {
    await Promise.all(open.map((client) => client.drop()));
    await server.stop();
  });

  it('gets READY with unavailable guild stubs and its application, then one GUILD_CREATE per guild', async () => {
    const client = await identified(GUILDS | GUILD_MESSAGES);
    const ready = client.dispatches('READY')[0]?.d ?? {};
    assert.equal((ready['user'] as { id: string; bot: boolean }).id, bot.id);
    assert.equal((ready['user'] as { bot: boolean }).bot, true);
    assert.deepEqual(ready['application'], { id: bot.applicationId, flags: 0 });
    assert.deepEqual(
      new Set(ready['guilds'] as unknown[]),
      new Set(guilds.map((guild) => ({ id: guild.id, unavailable: true }))),
    );
    await client.waitFor('two GUILD_CREATEs', () => client.dispatches('GUILD_CREATE').length === 2);
    const creates = client.dispatches<{ id: string; unavailable: boolean; channels: unknown[] }>('GUILD_CREATE');
    assert.deepEqual(new Set(creates.map((frame) => frame.d.id)), new Set(guilds.map((guild) => guild.id)));
    assert.deepEqual(
      creates.map((frame) => frame.s),
      [2, 3],
    );
    assert.ok(creates.every((frame) => !frame.d.unavailable && frame.d.channels.length > 0));
  });

  it('sends no GUILD_CREATE to a bot without the GUILDS intent', async () => {
    const client = await identified(GUILD_MESSAGES);
    const first = guilds[0] as TestGuild;
    const message = await postMessage(server.api, owner.token, first.channelId, 'after ready');
    await client.waitForDispatch<{ id: string }>('MESSAGE_CREATE', (d) => d.id === message.id);
    assert.equal(client.dispatches('GUILD_CREATE').length, 0);
  });

  it('empties message content for a bot without MESSAGE_CONTENT unless it is mentioned', async () => {
    const blind = await identified(GUILDS | GUILD_MESSAGES);
    const reading = await identified(GUILDS | GUILD_MESSAGES | MESSAGE_CONTENT);
    const first = guilds[0] as TestGuild;
    const plain = await postMessage(server.api, owner.token, first.channelId, 'secret plans');
    const mention = await postMessage(server.api, owner.token, first.channelId, `hey <@${bot.id}>`);
    const seen = async (client: GatewayClient, id: string): Promise<string> =>
      (await client.waitForDispatch<{ id: string; content: string }>('MESSAGE_CREATE', (d) => d.id === id)).d.content;
    assert.equal(await seen(blind, plain.id), '');
    assert.equal(await seen(blind, mention.id), `hey <@${bot.id}>`);
    assert.equal(await seen(reading, plain.id), 'secret plans');
  });
});
