import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import type * as Oceanic from 'oceanic.js';
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

// The CommonJS build: the package's ESM wrapper reads `.default.default` of each CommonJS file,
// which tsx's interop (the loader these tests run under) does not produce.
const { ApplicationCommandTypes, Client, OverwriteTypes } = createRequire(import.meta.url)(
  'oceanic.js',
) as typeof Oceanic;

// Oceanic.js, configured only by its options: `rest.baseURL` for REST; the gateway URL comes from
// GET /gateway, as it does on Discord.
describe('Oceanic.js against Chorus', function () {
  this.timeout(30_000);
  let world: ClientWorld;
  let client: Oceanic.Client;
  let userMessage: Oceanic.Message | undefined;
  let replyId: string | undefined;
  let roleId: string | undefined;

  before(async () => {
    world = await startClientWorld('Oceanic');
    client = new Client({
      auth: `Bot ${world.botToken}`,
      rest: { baseURL: `${world.origin}/api/v10` },
      gateway: { intents: BOT_INTENTS },
    });
    // An error event without a listener would throw out of the library's socket handling.
    client.on('error', () => undefined);
  });

  after(async () => {
    client.disconnect(false);
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
    const received = nextEvent<Oceanic.Message>(client, 'messageCreate', (m) => m.author.id === world.person.id);
    const posted = await personPosts(world);
    userMessage = await received;
    assert.equal(userMessage.id, posted.id);
    assert.equal(userMessage.content, Plan.userContent);
  });

  it('replies to the message', async () => {
    assert.ok(userMessage, 'the message arrived');
    const reply = await client.rest.channels.createMessage(world.channelId, {
      content: Plan.replyContent,
      messageReference: { messageID: userMessage.id },
    });
    replyId = reply.id;
    await assertReply(world, reply.id, userMessage.id, Plan.replyContent);
  });

  it('edits its reply', async () => {
    assert.ok(replyId, 'the reply was sent');
    const edited = await client.rest.channels.editMessage(world.channelId, replyId, { content: Plan.editedContent });
    assert.equal(edited.content, Plan.editedContent);
    await assertEditedReply(world, replyId);
  });

  it("reacts to the person's message", async () => {
    assert.ok(userMessage, 'the message arrived');
    await client.rest.channels.createReaction(world.channelId, userMessage.id, Plan.reaction);
    await assertReaction(world, userMessage.id, client.user.id);
  });

  it('creates a role with permissions', async () => {
    const role = await client.rest.guilds.createRole(world.guildId, {
      name: Plan.roleName,
      permissions: Plan.rolePermissions,
    });
    roleId = role.id;
    assert.equal(role.permissions.allow, BigInt(Plan.rolePermissions));
    await assertRole(world, role.id);
  });

  it('sets a permission overwrite for the role on a channel', async () => {
    assert.ok(roleId, 'the role was created');
    await client.rest.channels.editPermission(world.channelId, roleId, {
      type: OverwriteTypes.ROLE,
      allow: Plan.overwriteAllow,
      deny: Plan.overwriteDeny,
    });
    await assertRoleOverwrite(world, roleId);
  });

  it('registers a guild slash command', async () => {
    const command = await client.application.createGuildCommand(world.guildId, {
      type: ApplicationCommandTypes.CHAT_INPUT,
      name: Plan.commandName,
      description: Plan.commandDescription,
    });
    await assertGuildCommand(world, command.id);
  });
});
