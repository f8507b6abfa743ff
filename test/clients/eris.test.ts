import assert from 'node:assert/strict';
import { Agent as HttpsAgent } from 'node:https';
import { createConnection, type Socket } from 'node:net';
import Eris from 'eris';
import {
  assertEditedReply,
  assertGuildCommand,
  assertReaction,
  assertReply,
  assertRole,
  assertRoleOverwrite,
  BOT_INTENTS,
  nextEvent,
  personPosts,
  Plan,
  startClientWorld,
  type ClientWorld,
} from './clientKit.js';

/**
 * Eris always speaks HTTPS to `rest.domain` (on port 443 unless the domain names one): its only
 * documented way to reach another server is `rest.agent`, "an HTTPS Agent used to proxy requests".
 * This one carries every request over plain TCP to Chorus's address, as a tunnelling proxy would.
 */
class PlainTunnelAgent extends HttpsAgent {
  constructor(private readonly origin: URL) {
    super({ keepAlive: true });
  }

  override createConnection(): Socket {
    return createConnection({ host: this.origin.hostname, port: Number(this.origin.port) });
  }
}

// Eris, configured only by its options: `rest.domain` (the Host it names) and `rest.agent` for REST;
// the gateway URL comes from GET /gateway/bot, as it does on Discord.
describe('Eris against Chorus', function () {
  this.timeout(30_000);
  let world: ClientWorld;
  let agent: PlainTunnelAgent;
  let client: Eris.Client;
  let userMessage: Eris.Message | undefined;
  let replyId: string | undefined;
  let roleId: string | undefined;

  before(async () => {
    world = await startClientWorld('Eris');
    const origin = new URL(world.origin);
    agent = new PlainTunnelAgent(origin);
    client = Eris(`Bot ${world.botToken}`, {
      intents: BOT_INTENTS,
      rest: { domain: origin.host, baseURL: '/api/v10', agent },
    });
    // An error event without a listener would throw out of the library's socket handling.
    client.on('error', () => undefined);
  });

  after(async () => {
    client.disconnect({ reconnect: false });
    agent.destroy();
    await world.stop();
  });

  it('logs the bot in and has its guild in the cache once ready', async () => {
    const ready = nextEvent(client, 'ready', () => true, 10_000);
    await client.connect();
    await ready;
    assert.equal(client.user.bot, true);
    const guild = client.guilds.get(world.guildId);
    assert.equal(guild?.name, world.guildName);
    assert.ok(guild.channels.has(world.channelId));
  });

  it("receives the person's message with its content", async () => {
    const received = nextEvent<Eris.Message>(client, 'messageCreate', (m) => m.author.id === world.person.id);
    const posted = await personPosts(world);
    userMessage = await received;
    assert.equal(userMessage.id, posted.id);
    assert.equal(userMessage.content, Plan.userContent);
  });

  it('replies to the message', async () => {
    assert.ok(userMessage, 'the message arrived');
    const reply = await client.createMessage(world.channelId, {
      content: Plan.replyContent,
      messageReference: { messageID: userMessage.id },
    });
    replyId = reply.id;
    await assertReply(world, reply.id, userMessage.id, Plan.replyContent);
  });

  it('edits its reply', async () => {
    assert.ok(replyId, 'the reply was sent');
    const edited = await client.editMessage(world.channelId, replyId, { content: Plan.editedContent });
    assert.equal(edited.content, Plan.editedContent);
    await assertEditedReply(world, replyId);
  });

  it("reacts to the person's message", async () => {
    assert.ok(userMessage, 'the message arrived');
    await client.addMessageReaction(world.channelId, userMessage.id, Plan.reaction);
    await assertReaction(world, userMessage.id, client.user.id);
  });

  it('creates a role with permissions', async () => {
    const role = await client.createRole(world.guildId, {
      name: Plan.roleName,
      permissions: BigInt(Plan.rolePermissions),
    });
    roleId = role.id;
    assert.equal(role.permissions.allow, BigInt(Plan.rolePermissions));
    await assertRole(world, role.id);
  });

  it('sets a permission overwrite for the role on a channel', async () => {
    assert.ok(roleId, 'the role was created');
    await client.editChannelPermission(
      world.channelId,
      roleId,
      BigInt(Plan.overwriteAllow),
      BigInt(Plan.overwriteDeny),
      0, // a role overwrite
    );
    await assertRoleOverwrite(world, roleId);
  });

  it('registers a guild slash command', async () => {
    const command = await client.createGuildCommand(world.guildId, {
      type: 1, // CHAT_INPUT
      name: Plan.commandName,
      description: Plan.commandDescription,
    });
    await assertGuildCommand(world, command.id);
  });
});
