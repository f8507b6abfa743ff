import assert from 'node:assert/strict';
import { once } from 'node:events';
import { Client, Events, GatewayIntentBits, type Message } from 'discord.js';
import { after, before, describe, it } from 'mocha';
import { GatewayClient } from '../../support/GatewayClient.js';
import { registerUser, startTestServer, type TestServer, type TestUser } from '../../support/testServer.js';
import { addBot, createBot, createGuild, postMessage, type TestBot, type TestGuild } from './gatewayFixtures.js';

/**
 * discord.js v14, unchanged, as a real client: it finds the gateway through GET /gateway/bot on the REST
 * base it is given (`rest.api`), so pointing `rest.api` at Chorus is the only setting it needs.
 */
describe('discord.js against Chorus', () => {
  let server: TestServer;
  let alice: TestUser;
  let bot: TestBot;
  let guild: TestGuild;
  let client: Client;
  let watcher: GatewayClient;

  before(async () => {
    server = await startTestServer();
    alice = await registerUser(server.api, 'alice');
    guild = await createGuild(server.api, alice.token, 'bot house');
    bot = await createBot(server.api, alice.token, 'pongbot');
    await addBot(server.api, alice.token, bot, guild.id, '3072');
    watcher = (await GatewayClient.identified(server.gatewayUrl, alice.token)).client;
    client = new Client({
      intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.MessageContent],
      rest: { api: `${server.node.url}/api` },
    });
  });
  after(async () => {
    await client.destroy();
    await watcher.close();
    await server.stop();
  });

  it('logs in and becomes ready with its guild cached', async () => {
    const ready = once(client, Events.ClientReady);
    await client.login(bot.token);
    await ready;
    assert.equal(client.user?.id, bot.id);
    assert.equal(client.application?.id, bot.applicationId);
    const cached = client.guilds.cache.get(guild.id);
    assert.equal(cached?.name, 'bot house');
    assert.ok(cached.channels.cache.has(guild.channelId));
  });

  it('receives a user’s message as messageCreate, and its reply reaches the user’s socket', async () => {
    const received = new Promise<Message>((resolve) => {
      client.on(Events.MessageCreate, (message) => {
        if (message.content === 'ping') resolve(message);
      });
    });
    const ping = await postMessage(server.api, alice.token, guild.channelId, 'ping');
    const message = await received;
    assert.equal(message.id, ping.id);
    assert.equal(message.author.id, alice.id);
    assert.equal(message.guildId, guild.id);
    await message.reply('pong');
    const pong = await watcher.waitForDispatch<{
      content: string;
      author: { id: string };
      message_reference?: { message_id: string };
    }>('MESSAGE_CREATE', (d) => d.content === 'pong');
    assert.equal(pong.d.author.id, bot.id);
    assert.equal(pong.d.message_reference?.message_id, ping.id);
  });
});
