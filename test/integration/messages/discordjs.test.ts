import assert from 'node:assert/strict';
import { Client, Events, GatewayIntentBits, type Message, type TextChannel } from 'discord.js';
import { api, startTestServer, type TestServer } from '../../support/testServer.js';
import { guildWorld, send, textChannel, type GuildWorld } from './messageFixtures.js';

/** Waits for the first event of `client` that satisfies `match`, failing after `timeoutMs`. */
function nextMessage(client: Client, match: (message: Message) => boolean, timeoutMs = 5_000): Promise<Message> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      client.off(Events.MessageCreate, listener);
      reject(new Error(`no matching messageCreate within ${timeoutMs} ms`));
    }, timeoutMs);
    const listener = (message: Message): void => {
      if (!match(message)) return;
      clearTimeout(timer);
      client.off(Events.MessageCreate, listener);
      resolve(message);
    };
    client.on(Events.MessageCreate, listener);
  });
}

describe('messages through discord.js', function () {
  this.timeout(30_000);
  let server: TestServer;
  let world: GuildWorld;
  let channelId: string;
  let client: Client;

  before(async () => {
    server = await startTestServer();
    world = await guildWorld(server.api);
    channelId = await textChannel(server.api, world, 'djs');
    const app = await api<{ id: string }>(server.api, 'POST', '/applications', {
      token: world.owner.token,
      body: { name: 'Messenger' },
      expect: 201,
    });
    const botUser = await api<{ token: string }>(server.api, 'POST', `/applications/${app.id}/bot`, {
      token: world.owner.token,
    });
    await api(server.api, 'POST', `/oauth2/authorize?client_id=${app.id}&scope=bot`, {
      token: world.owner.token,
      body: { authorize: true, guild_id: world.guildId, permissions: '8' },
    });
    const bot = new Client({
      intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.MessageContent],
      rest: { api: `${server.node.url}/api` },
    });
    const ready = new Promise<void>((resolve) => {
      bot.once(Events.ClientReady, () => {
        resolve();
      });
    });
    client = bot;
    await bot.login(botUser.token);
    await ready;
  });

  after(async () => {
    await client?.destroy();
    await server.stop();
  });

  it('sends, fetches, edits, reacts to, pins and deletes a message', async () => {
    const channel = (await client.channels.fetch(channelId)) as TextChannel;
    const sent = await channel.send('from discord.js');
    assert.equal(sent.content, 'from discord.js');
    assert.equal(sent.author.id, client.user?.id);
    const fetched = await channel.messages.fetch(sent.id);
    assert.equal(fetched.content, 'from discord.js');
    const edited = await sent.edit('edited by discord.js');
    assert.equal(edited.content, 'edited by discord.js');
    await sent.react('👍');
    const withReaction = await channel.messages.fetch({ message: sent.id, force: true });
    assert.equal(withReaction.reactions.cache.get('👍')?.count, 1);
    await sent.pin();
    const pins = await channel.messages.fetchPins();
    assert.deepEqual(
      pins.items.map((pin) => pin.message.id),
      [sent.id],
    );
    assert.ok(pins.items[0]?.pinnedAt instanceof Date);
    await sent.delete();
    await assert.rejects(channel.messages.fetch({ message: sent.id, force: true }));
  });

  it('receives a member’s message and replies to it', async () => {
    const received = nextMessage(client, (message) => message.content === 'ping from a member');
    await send(server.api, world.member, channelId, { content: 'ping from a member' });
    const message = await received;
    assert.equal(message.author.id, world.member.id);
    assert.equal(message.guildId, world.guildId);
    const reply = await message.reply('pong');
    assert.equal(reply.reference?.messageId, message.id);
    const recent = await (message.channel as TextChannel).messages.fetch({ limit: 2 });
    assert.deepEqual([...recent.keys()], [reply.id, message.id]);
  });

  it('sends files with channel.send and sees them on messageCreate', async () => {
    const channel = (await client.channels.fetch(channelId)) as TextChannel;
    const created = nextMessage(client, (message) => message.attachments.size > 0);
    const sent = await channel.send({
      content: 'with a file',
      files: [{ attachment: Buffer.from('bytes from discord.js'), name: 'a.txt', description: 'text' }],
    });
    const attachment = sent.attachments.first();
    assert.equal(attachment?.name, 'a.txt');
    assert.equal(attachment.description, 'text');
    assert.equal(attachment.contentType, 'text/plain; charset=utf-8');
    assert.equal(await (await fetch(attachment.url)).text(), 'bytes from discord.js');
    const event = await created;
    assert.equal(event.id, sent.id);
    assert.equal(event.attachments.first()?.id, attachment.id);
    const edited = await sent.edit({ content: 'file removed', attachments: [] });
    assert.equal(edited.attachments.size, 0);
  });

  it('bulk deletes recent messages', async () => {
    const channel = (await client.channels.fetch(channelId)) as TextChannel;
    const a = await channel.send('a');
    const b = await channel.send('b');
    const deleted = await channel.bulkDelete([a.id, b.id]);
    assert.equal(deleted.size, 2);
  });
});
