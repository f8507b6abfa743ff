import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { createBot, Intents, OverwriteTypes, ApplicationCommandTypes } from 'discordeno';
import {
  assertEditedReply,
  assertGuildCommand,
  assertReaction,
  assertReply,
  assertRole,
  assertRoleOverwrite,
  nextEvent,
  personPosts,
  Plan,
  startClientWorld,
  type ClientWorld,
} from './clientKit.js';

/** Discordeno keeps only the properties a bot asks for (its `desiredProperties`). */
const desiredProperties = {
  user: { id: true, bot: true },
  guild: { id: true, name: true, channels: true },
  channel: { id: true },
  message: { id: true, content: true, author: true, channelId: true },
  role: { id: true, permissions: true },
} as const;

/** A bot made by this test; its events are re-emitted on `events` so a test can await them. */
function makeBot(world: ClientWorld, events: EventEmitter) {
  return createBot({
    token: world.botToken,
    intents: Intents.Guilds | Intents.GuildMessages | Intents.GuildMessageReactions | Intents.MessageContent,
    rest: { proxy: { baseUrl: `${world.origin}/api` } },
    // One shard: nothing to space out (start() would otherwise wait 5.3 s after it is ready).
    gateway: { spawnShardDelay: 0 },
    desiredProperties,
    events: {
      ready: (payload) => events.emit('ready', payload),
      guildCreate: (guild) => events.emit('guildCreate', guild),
      messageCreate: (message) => events.emit('messageCreate', message),
    },
  });
}

type DiscordenoBot = ReturnType<typeof makeBot>;
type DiscordenoMessage = DiscordenoBot['transformers']['$inferredTypes']['message'];
type DiscordenoGuild = DiscordenoBot['transformers']['$inferredTypes']['guild'];

// Discordeno, configured only by its options: `rest.proxy.baseUrl` for REST; the gateway URL comes
// from GET /gateway/bot. It derives its application id from the bot token, as Discord's ids allow.
describe('Discordeno against Chorus', function () {
  this.timeout(30_000);
  let world: ClientWorld;
  const events = new EventEmitter();
  let bot: DiscordenoBot;
  let userMessage: DiscordenoMessage | undefined;
  let replyId: string | undefined;
  let roleId: string | undefined;

  before(async () => {
    world = await startClientWorld('Discordeno');
    bot = makeBot(world, events);
  });

  after(async () => {
    await bot.shutdown();
    await world.stop();
  });

  it('logs the bot in and has its guild once ready', async () => {
    const guildArrived = nextEvent<DiscordenoGuild>(events, 'guildCreate', (g) => g.id.toString() === world.guildId);
    await bot.start();
    const guild = await guildArrived;
    assert.equal(guild.name, world.guildName);
    assert.ok(guild.channels?.has(BigInt(world.channelId)));
  });

  it("receives the person's message with its content", async () => {
    const received = nextEvent<DiscordenoMessage>(
      events,
      'messageCreate',
      (m) => m.author.id.toString() === world.person.id,
    );
    const posted = await personPosts(world);
    userMessage = await received;
    assert.equal(userMessage.id.toString(), posted.id);
    assert.equal(userMessage.content, Plan.userContent);
  });

  it('replies to the message', async () => {
    assert.ok(userMessage, 'the message arrived');
    const reply = await bot.helpers.sendMessage(world.channelId, {
      content: Plan.replyContent,
      messageReference: { messageId: userMessage.id, failIfNotExists: true },
    });
    replyId = reply.id.toString();
    await assertReply(world, replyId, userMessage.id.toString(), Plan.replyContent);
  });

  it('edits its reply', async () => {
    assert.ok(replyId, 'the reply was sent');
    const edited = await bot.helpers.editMessage(world.channelId, replyId, { content: Plan.editedContent });
    assert.equal(edited.content, Plan.editedContent);
    await assertEditedReply(world, replyId);
  });

  it("reacts to the person's message", async () => {
    assert.ok(userMessage, 'the message arrived');
    await bot.helpers.addReaction(world.channelId, userMessage.id, Plan.reaction);
    await assertReaction(world, userMessage.id.toString(), bot.id.toString());
  });

  it('creates a role with permissions', async () => {
    const role = await bot.helpers.createRole(world.guildId, {
      name: Plan.roleName,
      permissions: ['KICK_MEMBERS', 'MANAGE_MESSAGES'],
    });
    roleId = role.id.toString();
    await assertRole(world, roleId);
  });

  it('sets a permission overwrite for the role on a channel', async () => {
    assert.ok(roleId, 'the role was created');
    await bot.helpers.editChannelPermissionOverrides(world.channelId, {
      id: BigInt(roleId),
      type: OverwriteTypes.Role,
      allow: ['SEND_MESSAGES', 'EMBED_LINKS'],
      deny: ['MENTION_EVERYONE'],
    });
    await assertRoleOverwrite(world, roleId);
  });

  it('registers a guild slash command', async () => {
    const command = await bot.helpers.createGuildApplicationCommand(
      { type: ApplicationCommandTypes.ChatInput, name: Plan.commandName, description: Plan.commandDescription },
      world.guildId,
    );
    await assertGuildCommand(world, command.id.toString());
  });
});
