import assert from 'node:assert/strict';
import { after, before, describe, it } from 'mocha';
import { GatewayClient } from '../../support/GatewayClient.js';
import { api, registerUser, startTestServer, type TestServer, type TestUser } from '../../support/testServer.js';
import {
  addBot,
  createBot,
  createGuild,
  joinGuild,
  postMessage,
  type TestBot,
  type TestGuild,
} from './gatewayFixtures.js';

const GUILDS = 1 << 0;
const GUILD_PRESENCES = 1 << 8;
const GUILD_MESSAGES = 1 << 9;
const GUILD_MESSAGE_TYPING = 1 << 11;
const MESSAGE_CONTENT = 1 << 15;
/** The large-guild threshold of the test server: the guild of four members is large, the one of two is not. */
const LARGE_GUILD_MEMBERS = 3;

interface Message {
  id: string;
  channel_id: string;
}

/**
 * Passive sessions (Discord's approach for large guilds): a user account's session that does not look at a large
 * guild (no op 14 / 37) gets no messages or typing there unless a message names its user; bots get every event
 * their intents allow; guild-level events reach everyone; small guilds are unchanged.
 */
describe('gateway passive sessions in large guilds', function () {
  this.timeout(20_000);
  let server: TestServer;
  let bob: TestUser;
  let alice: TestUser;
  let carol: TestUser;
  let bot: TestBot;
  let large: TestGuild;
  let small: TestGuild;
  const open: GatewayClient[] = [];
  const identified = async (token: string, extra: Record<string, unknown> = {}) => {
    const { client } = await GatewayClient.identified(server.gatewayUrl, token, extra);
    open.push(client);
    return client;
  };
  /** Renames the large guild's channel and waits until `clients` got the CHANNEL_UPDATE: what came before did too. */
  let renames = 0;
  const channelUpdate = async (...clients: GatewayClient[]) => {
    renames += 1;
    const name = `renamed-${renames}`;
    await api(server.api, 'PATCH', `/channels/${large.channelId}`, { token: bob.token, body: { name } });
    await Promise.all(
      clients.map((client) => client.waitForDispatch<{ name: string }>('CHANNEL_UPDATE', (d) => d.name === name)),
    );
  };
  const messagesIn = (client: GatewayClient, messageId: string) =>
    client.dispatches<Message>('MESSAGE_CREATE').filter((frame) => frame.d.id === messageId).length;
  const typingIn = (client: GatewayClient, channelId: string) =>
    client.dispatches<{ channel_id: string }>('TYPING_START').filter((frame) => frame.d.channel_id === channelId)
      .length;

  before(async () => {
    server = await startTestServer({ CHORUS_LARGE_GUILD_MEMBERS: String(LARGE_GUILD_MEMBERS) });
    bob = await registerUser(server.api, 'bob');
    alice = await registerUser(server.api, 'alice');
    carol = await registerUser(server.api, 'carol');
    large = await createGuild(server.api, bob.token, 'large');
    await joinGuild(server.api, bob.token, large.channelId, alice.token);
    await joinGuild(server.api, bob.token, large.channelId, carol.token);
    bot = await createBot(server.api, bob.token, 'reader');
    await addBot(server.api, bob.token, bot, large.id);
    small = await createGuild(server.api, bob.token, 'small');
    await joinGuild(server.api, bob.token, small.channelId, alice.token);
  });

  after(async () => {
    await Promise.all(open.map((client) => client.drop()));
    await server.stop();
  });

  it('keeps messages and typing from passive user sessions, but not from bots, the author or the mentioned', async () => {
    const [bobClient, aliceClient, carolClient, botClient] = await Promise.all([
      identified(bob.token),
      identified(alice.token),
      identified(carol.token),
      identified(bot.token, { intents: GUILDS | GUILD_MESSAGES | GUILD_MESSAGE_TYPING | MESSAGE_CONTENT }),
    ]);
    const plain = await postMessage(server.api, bob.token, large.channelId, 'hello, large guild');
    const mention = await postMessage(server.api, bob.token, large.channelId, `hello <@${carol.id}>`);
    await api(server.api, 'POST', `/channels/${large.channelId}/typing`, { token: bob.token, expect: 204 });
    await channelUpdate(bobClient, aliceClient, carolClient, botClient);

    assert.equal(messagesIn(aliceClient, plain.id), 0, 'a passive session gets no MESSAGE_CREATE');
    assert.equal(messagesIn(aliceClient, mention.id), 0);
    assert.equal(typingIn(aliceClient, large.channelId), 0, 'a passive session gets no TYPING_START');
    assert.equal(messagesIn(carolClient, mention.id), 1, 'the mentioned user gets the message');
    assert.equal(messagesIn(carolClient, plain.id), 0);
    assert.equal(messagesIn(bobClient, plain.id), 1, "the author's sessions get their own message");
    assert.equal(messagesIn(botClient, plain.id), 1, 'bots get every message their intents allow');
    assert.equal(messagesIn(botClient, mention.id), 1);
    assert.equal(typingIn(botClient, large.channelId), 1);

    // Op 14: alice looks at the guild, so its messages and typing reach her from now on.
    const from = aliceClient.dispatches('GUILD_MEMBER_LIST_UPDATE').length;
    aliceClient.send(14, { guild_id: large.id, typing: true, channels: { [large.channelId]: [[0, 99]] } });
    await aliceClient.waitFor('a member list', () => aliceClient.dispatches('GUILD_MEMBER_LIST_UPDATE').length > from);
    const later = await postMessage(server.api, bob.token, large.channelId, 'now alice looks');
    await aliceClient.waitForDispatch<Message>('MESSAGE_CREATE', (d) => d.id === later.id);
    await api(server.api, 'POST', `/channels/${large.channelId}/typing`, { token: bob.token, expect: 204 });
    await aliceClient.waitForDispatch<{ channel_id: string }>('TYPING_START', (d) => d.channel_id === large.channelId);
    await channelUpdate(carolClient);
    assert.equal(messagesIn(carolClient, later.id), 0, 'carol is still passive');
  });

  it("lists a user account only its own member in a large guild's READY (a lazy guild), bots by GUILD_PRESENCES", async () => {
    const { client, ready } = await GatewayClient.identified(server.gatewayUrl, alice.token);
    open.push(client);
    type Guild = { id: string; large: boolean; member_count: number; members: { user: { id: string } }[] };
    const guilds = ready['guilds'] as Guild[];
    const memberIds = (id: string) =>
      guilds
        .find((guild) => guild.id === id)
        ?.members.map((member) => member.user.id)
        .sort();
    const largeGuild = guilds.find((guild) => guild.id === large.id);
    assert.equal(largeGuild?.large, true);
    assert.equal(largeGuild.member_count, 4);
    assert.deepEqual(memberIds(large.id), [alice.id], 'the own member alone, as Discord lazy-loads the rest');
    assert.deepEqual(memberIds(small.id), [alice.id, bob.id].sort(), 'a small guild lists everyone');
    const merged = ready['merged_members'] as { user_id: string }[][];
    assert.ok(merged.every((list) => list.length === 1 && list[0]?.user_id === alice.id));

    // Bots as Discord documents: without GUILD_PRESENCES only itself (and members in voice: none here).
    const botCreate = async (intents: number) => {
      const client = await identified(bot.token, { intents });
      return (await client.waitForDispatch<Guild>('GUILD_CREATE', (d) => d.id === large.id)).d;
    };
    assert.deepEqual(
      (await botCreate(GUILDS)).members.map((member) => member.user.id),
      [bot.id],
    );
    assert.equal((await botCreate(GUILDS | GUILD_PRESENCES)).members.length, 4, 'with GUILD_PRESENCES every member');
  });

  it('leaves small guilds as they were: every session gets messages and typing', async () => {
    const aliceClient = await identified(alice.token);
    const message = await postMessage(server.api, bob.token, small.channelId, 'hello, small guild');
    await aliceClient.waitForDispatch<Message>('MESSAGE_CREATE', (d) => d.id === message.id);
    await api(server.api, 'POST', `/channels/${small.channelId}/typing`, { token: bob.token, expect: 204 });
    await aliceClient.waitForDispatch<{ channel_id: string }>('TYPING_START', (d) => d.channel_id === small.channelId);
  });
});
