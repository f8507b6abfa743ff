import { api, registerUser, type TestUser } from '../../support/testServer.js';

/** A message as the API returns it (the fields these tests read). */
export interface ApiMessage {
  id: string;
  type: number;
  content: string;
  channel_id: string;
  author: { id: string; username?: string };
  mentions: { id: string; username?: string }[];
  mention_roles: string[];
  mention_everyone: boolean;
  pinned: boolean;
  tts: boolean;
  nonce?: string;
  edited_timestamp: string | null;
  timestamp: string;
  message_reference?: { message_id: string; channel_id: string };
  referenced_message?: ApiMessage | null;
  reactions?: { emoji: { id: string | null; name: string }; count: number; me: boolean }[];
}

/** A Discord error body. */
export interface ApiError {
  code: number;
  message: string;
  errors?: Record<string, unknown>;
}

/** Opens (or finds) the DM between `from` and `to`; returns its channel id. */
export async function openDm(base: string, from: TestUser, to: TestUser): Promise<string> {
  const channel = await api<{ id: string }>(base, 'POST', '/users/@me/channels', {
    token: from.token,
    body: { recipients: [to.id] },
  });
  return channel.id;
}

/** Posts a message and returns it. */
export function send(base: string, user: TestUser, channelId: string, body: unknown): Promise<ApiMessage> {
  return api<ApiMessage>(base, 'POST', `/channels/${channelId}/messages`, { token: user.token, body });
}

/** Calls the API expecting an error status; returns the error body. */
export function fails(
  base: string,
  method: string,
  path: string,
  user: TestUser,
  expect: number,
  body?: unknown,
): Promise<ApiError> {
  return api<ApiError>(base, method, path, { token: user.token, expect, ...(body !== undefined ? { body } : {}) });
}

/** Registers `count` users. */
export async function users(base: string, count: number, name = 'msg'): Promise<TestUser[]> {
  const out: TestUser[] = [];
  for (let index = 0; index < count; index += 1) out.push(await registerUser(base, name));
  return out;
}

/** A guild with an owner, a member who joined by invite, and an outsider. */
export interface GuildWorld {
  readonly guildId: string;
  readonly owner: TestUser;
  readonly member: TestUser;
  readonly outsider: TestUser;
}

/** Permission bits the tests use (decimal strings travel on the wire). */
export const Bits = {
  VIEW_CHANNEL: 1n << 10n,
  SEND_MESSAGES: 1n << 11n,
  MANAGE_MESSAGES: 1n << 13n,
  ADD_REACTIONS: 1n << 6n,
  READ_MESSAGE_HISTORY: 1n << 16n,
} as const;

/** Creates a guild owned by a new user, and a second user who joins it by invite. */
export async function guildWorld(base: string): Promise<GuildWorld> {
  const [owner, member, outsider] = (await users(base, 3, 'g')) as [TestUser, TestUser, TestUser];
  const guild = await api<{ id: string }>(base, 'POST', '/guilds', {
    token: owner.token,
    body: { name: 'Messages' },
    expect: 201,
  });
  const world = { guildId: guild.id, owner, member, outsider };
  const channelId = await textChannel(base, world, 'lobby');
  const invite = await api<{ code: string }>(base, 'POST', `/channels/${channelId}/invites`, {
    token: owner.token,
    body: {},
  });
  await api(base, 'POST', `/invites/${invite.code}`, { token: member.token });
  return world;
}

/** Creates a text channel in the world's guild (as its owner). */
export async function textChannel(
  base: string,
  world: Pick<GuildWorld, 'guildId' | 'owner'>,
  name: string,
): Promise<string> {
  const channel = await api<{ id: string }>(base, 'POST', `/guilds/${world.guildId}/channels`, {
    token: world.owner.token,
    body: { name, type: 0 },
    expect: 201,
  });
  return channel.id;
}

/** Sets a member overwrite on a channel (as the guild owner). */
export async function memberOverwrite(
  base: string,
  world: GuildWorld,
  channelId: string,
  userId: string,
  allow: bigint,
  deny: bigint,
): Promise<void> {
  await api(base, 'PUT', `/channels/${channelId}/permissions/${userId}`, {
    token: world.owner.token,
    body: { id: userId, type: 1, allow: allow.toString(), deny: deny.toString() },
    expect: 204,
  });
}
