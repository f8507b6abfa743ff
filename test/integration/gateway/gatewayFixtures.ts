import { api } from '../../support/testServer.js';

/** A guild created for a test, with its first text channel. */
export interface TestGuild {
  readonly id: string;
  readonly channelId: string;
}

/** An application's bot. */
export interface TestBot {
  readonly applicationId: string;
  readonly id: string;
  readonly token: string;
}

/** Creates a guild owned by `token`'s user and finds its text channel. */
export async function createGuild(base: string, token: string, name = 'guild'): Promise<TestGuild> {
  const guild = await api<{ id: string }>(base, 'POST', '/guilds', { token, body: { name }, expect: 201 });
  const channels = await api<{ id: string; type: number }[]>(base, 'GET', `/guilds/${guild.id}/channels`, { token });
  const text = channels.find((channel) => channel.type === 0);
  if (!text) throw new Error(`guild ${guild.id} has no text channel`);
  return { id: guild.id, channelId: text.id };
}

/** Posts a message over HTTP. */
export async function postMessage(
  base: string,
  token: string,
  channelId: string,
  content: string,
): Promise<{ id: string; content: string }> {
  return api(base, 'POST', `/channels/${channelId}/messages`, { token, body: { content } });
}

/** Invites `joinerToken`'s user into the guild of `channelId`. */
export async function joinGuild(
  base: string,
  ownerToken: string,
  channelId: string,
  joinerToken: string,
): Promise<void> {
  const invite = await api<{ code: string }>(base, 'POST', `/channels/${channelId}/invites`, {
    token: ownerToken,
    body: {},
  });
  await api(base, 'POST', `/invites/${invite.code}`, { token: joinerToken, body: {} });
}

/** Creates an application with a bot owned by `ownerToken`'s user. */
export async function createBot(base: string, ownerToken: string, name = 'bot'): Promise<TestBot> {
  const app = await api<{ id: string }>(base, 'POST', '/applications', {
    token: ownerToken,
    body: { name },
    expect: 201,
  });
  const { token } = await api<{ token: string }>(base, 'POST', `/applications/${app.id}/bot`, {
    token: ownerToken,
    body: {},
  });
  const described = await api<{ bot?: { id: string } }>(base, 'GET', `/applications/${app.id}`, { token: ownerToken });
  if (!described.bot) throw new Error(`application ${app.id} has no bot`);
  return { applicationId: app.id, id: described.bot.id, token };
}

/** Adds a bot to a guild through the OAuth2 bot flow (the owner authorizes it). */
export async function addBot(
  base: string,
  ownerToken: string,
  bot: TestBot,
  guildId: string,
  permissions = '0',
): Promise<void> {
  await api(base, 'POST', `/oauth2/authorize?client_id=${bot.applicationId}&scope=bot`, {
    token: ownerToken,
    body: { authorize: true, guild_id: guildId, permissions },
  });
}
