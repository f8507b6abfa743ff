import assert from 'node:assert/strict';
import type { EventEmitter } from 'node:events';
import { api, registerUser, startTestServer, type TestServer, type TestUser } from '../support/testServer.js';
import { createGuild, member } from '../integration/guilds/guildKit.js';

/**
 * What every client library is asked to do, so each library's test asserts the same facts. Bit
 * values are Discord's: the role gets KICK_MEMBERS | MANAGE_MESSAGES, the overwrite allows
 * SEND_MESSAGES | EMBED_LINKS and denies MENTION_EVERYONE.
 */
export const Plan = {
  userContent: 'hello bot, please answer',
  replyContent: 'hello person',
  editedContent: 'hello person (edited)',
  reaction: '👍',
  roleName: 'Library Helpers',
  rolePermissions: (2n | 8192n).toString(),
  overwriteAllow: (2048n | 16384n).toString(),
  overwriteDeny: 131072n.toString(),
  commandName: 'ping',
  commandDescription: 'Answers pong',
} as const;

/** GUILDS | GUILD_MESSAGES | GUILD_MESSAGE_REACTIONS | MESSAGE_CONTENT. */
export const BOT_INTENTS = 1 | 512 | 1024 | 32_768;

/** A server with a guild, its owner, a member who talks to the bot, and a bot application in the guild. */
export interface ClientWorld {
  readonly server: TestServer;
  /** The server's root URL, e.g. http://127.0.0.1:PORT (libraries add /api/v10 or take it whole). */
  readonly origin: string;
  readonly owner: TestUser;
  readonly person: TestUser;
  readonly guildId: string;
  readonly guildName: string;
  readonly channelId: string;
  readonly applicationId: string;
  readonly botToken: string;
  stop(): Promise<void>;
}

/** Starts a server and sets up the guild and the bot (added with Administrator) the way a person would. */
export async function startClientWorld(library: string): Promise<ClientWorld> {
  const server = await startTestServer();
  const guildName = `${library} guild`;
  const owner = await registerUser(server.api, 'owner');
  const target = await createGuild(server.api, owner, guildName);
  const person = await member(server.api, target, 'person');
  const app = await api<{ id: string }>(server.api, 'POST', '/applications', {
    token: owner.token,
    body: { name: `${library} bot` },
    expect: 201,
  });
  const bot = await api<{ token: string }>(server.api, 'POST', `/applications/${app.id}/bot`, { token: owner.token });
  await api(server.api, 'POST', `/oauth2/authorize?client_id=${app.id}&scope=bot`, {
    token: owner.token,
    body: { authorize: true, guild_id: target.guild.id, permissions: '8' },
  });
  return {
    server,
    origin: server.node.url,
    owner,
    person,
    guildId: target.guild.id,
    guildName,
    channelId: target.textChannelId,
    applicationId: app.id,
    botToken: bot.token,
    stop: () => server.stop(),
  };
}

/** A message as a user reads it over REST (the fields asserted here). */
export interface SeenMessage {
  id: string;
  content: string;
  author: { id: string; bot?: boolean };
  edited_timestamp: string | null;
  message_reference?: { message_id: string; channel_id?: string };
  reactions?: { emoji: { name: string }; count: number }[];
}

/** The person posts `Plan.userContent` in the world's channel over REST. */
export function personPosts(world: ClientWorld): Promise<SeenMessage> {
  return api<SeenMessage>(world.server.api, 'POST', `/channels/${world.channelId}/messages`, {
    token: world.person.token,
    body: { content: Plan.userContent },
  });
}

/** A message of the world's channel, read by the person. */
export function messageSeenByPerson(world: ClientWorld, messageId: string): Promise<SeenMessage> {
  return api<SeenMessage>(world.server.api, 'GET', `/channels/${world.channelId}/messages/${messageId}`, {
    token: world.person.token,
  });
}

/** The bot's reply: by the bot, referencing the person's message, with `content` unless edited since. */
export async function assertReply(
  world: ClientWorld,
  replyId: string,
  userMessageId: string,
  content?: string,
): Promise<SeenMessage> {
  const reply = await messageSeenByPerson(world, replyId);
  if (content !== undefined) assert.equal(reply.content, content);
  assert.equal(reply.author.bot, true);
  assert.equal(reply.message_reference?.message_id, userMessageId);
  return reply;
}

/** The bot's reply after its edit. */
export async function assertEditedReply(world: ClientWorld, replyId: string): Promise<void> {
  const reply = await messageSeenByPerson(world, replyId);
  assert.equal(reply.content, Plan.editedContent);
  assert.notEqual(reply.edited_timestamp, null);
}

/** The person's message carries the bot's reaction, and the bot is among the reactors. */
export async function assertReaction(world: ClientWorld, userMessageId: string, botId: string): Promise<void> {
  const message = await messageSeenByPerson(world, userMessageId);
  const reaction = message.reactions?.find((each) => each.emoji.name === Plan.reaction);
  assert.equal(reaction?.count, 1, JSON.stringify(message.reactions));
  const emoji = encodeURIComponent(Plan.reaction);
  const users = await api<{ id: string }[]>(
    world.server.api,
    'GET',
    `/channels/${world.channelId}/messages/${userMessageId}/reactions/${emoji}`,
    { token: world.person.token },
  );
  assert.deepEqual(
    users.map((user) => user.id),
    [botId],
  );
}

/** The role the bot created, as the guild's roles list shows it to the person. */
export async function assertRole(world: ClientWorld, roleId: string): Promise<void> {
  const roles = await api<{ id: string; name: string; permissions: string }[]>(
    world.server.api,
    'GET',
    `/guilds/${world.guildId}/roles`,
    { token: world.person.token },
  );
  const role = roles.find((each) => each.id === roleId);
  assert.ok(role, `role ${roleId} is listed`);
  assert.equal(role.name, Plan.roleName);
  assert.equal(role.permissions, Plan.rolePermissions);
}

/** The channel shows the bot's overwrite for the role (type 0 = role). */
export async function assertRoleOverwrite(world: ClientWorld, roleId: string): Promise<void> {
  const channel = await api<{ permission_overwrites: { id: string; type: number; allow: string; deny: string }[] }>(
    world.server.api,
    'GET',
    `/channels/${world.channelId}`,
    { token: world.person.token },
  );
  const overwrite = channel.permission_overwrites.find((each) => each.id === roleId);
  assert.deepEqual(overwrite, { id: roleId, type: 0, allow: Plan.overwriteAllow, deny: Plan.overwriteDeny });
}

/** The guild's commands, read by the application's owner, include the bot's slash command. */
export async function assertGuildCommand(world: ClientWorld, commandId: string): Promise<void> {
  const commands = await api<{ id: string; name: string; description: string; type?: number }[]>(
    world.server.api,
    'GET',
    `/applications/${world.applicationId}/guilds/${world.guildId}/commands`,
    { token: world.owner.token },
  );
  const command = commands.find((each) => each.id === commandId);
  assert.ok(command, `command ${commandId} is listed: ${JSON.stringify(commands)}`);
  assert.equal(command.name, Plan.commandName);
  assert.equal(command.description, Plan.commandDescription);
  assert.equal(command.type ?? 1, 1);
}

/** Resolves with the first `event` whose first argument satisfies `match`, failing after `timeoutMs`. */
export function nextEvent<T>(
  emitter: EventEmitter,
  event: string,
  match: (value: T) => boolean,
  timeoutMs = 5_000,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const listener = (value: T): void => {
      if (!match(value)) return;
      clearTimeout(timer);
      emitter.off(event, listener);
      resolve(value);
    };
    const timer = setTimeout(() => {
      emitter.off(event, listener);
      reject(new Error(`no matching ${event} within ${timeoutMs} ms`));
    }, timeoutMs);
    emitter.on(event, listener);
  });
}
