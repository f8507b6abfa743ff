import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { loadConfig } from '../../../src/config/loadConfig.js';
import { startNode, type RunningNode } from '../../../src/main.js';
import { GatewayClient } from '../../support/GatewayClient.js';
import { api, registerUser, type TestUser } from '../../support/testServer.js';

/** GUILDS | GUILD_MEMBERS | GUILD_MODERATION | GUILD_INVITES | GUILD_MESSAGES | MESSAGE_CONTENT. */
export const ALL_TEST_INTENTS = 1 | 2 | 4 | 64 | 512 | 32_768;

/** A node for one test file, with its data dir known so a test can edit an account's instance rights. */
export interface GuildHarness {
  readonly node: RunningNode;
  readonly api: string;
  readonly gatewayUrl: string;
  stop(): Promise<void>;
  /** Registers an account whose instance rights are `rights` (set in storage before its actor ever loads). */
  userWithRights(name: string, rights: bigint): Promise<TestUser>;
}

/** Starts a node on an ephemeral port with a fresh SQLite file (the settings TEAM.md prescribes). */
export async function startHarness(): Promise<GuildHarness> {
  const dataDir = mkdtempSync(join(tmpdir(), 'chorus-guilds-'));
  const node = await startNode(
    loadConfig(
      {},
      {
        PORT: '0',
        CHORUS_HOST: '127.0.0.1',
        CHORUS_DATA_DIR: dataDir,
        CHORUS_LOG_LEVEL: 'silent',
        CHORUS_PASSWORD_COST: '1024',
        CHORUS_GLOBAL_RATE_LIMIT: '100000',
        CHORUS_MESSAGE_RATE_LIMIT: '100000',
        CHORUS_IDENTIFY_WINDOW_MS: '0', // tests identify one user many times a second
      },
    ),
  );
  const base = `${node.url}/api/v10`;
  let counter = 0;
  return {
    node,
    api: base,
    gatewayUrl: node.gatewayUrl,
    stop: async () => {
      await node.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
    userWithRights: async (name, rights) => {
      counter += 1;
      const username = `${name}${counter}x`;
      const { token } = await api<{ token: string }>(base, 'POST', '/auth/register', {
        body: { username, password: 'correct horse battery', email: `${username}@rights.test`, consent: true },
      });
      // A token's first part is the user id, base64url (as on Discord).
      const id = Buffer.from(token.split('.')[0] ?? '', 'base64url').toString();
      assert.ok(id);
      const db = new Database(join(dataDir, 'chorus.db'));
      try {
        db.prepare("UPDATE users SET data = json_set(data, '$.rights', ?) WHERE id = ?").run(rights.toString(), id);
      } finally {
        db.close();
      }
      return { id, token, username };
    },
  };
}

/** A Discord error body. */
export interface ApiError {
  code: number;
  message: string;
  errors?: Record<string, unknown>;
}

/** Calls the API expecting an error status and Discord code. */
export async function fails(
  base: string,
  method: string,
  path: string,
  user: TestUser | undefined,
  status: number,
  code: number,
  body?: unknown,
): Promise<ApiError> {
  const error = await api<ApiError>(base, method, path, {
    ...(user ? { token: user.token } : {}),
    expect: status,
    ...(body !== undefined ? { body } : {}),
  });
  assert.equal(error.code, code, `${method} ${path}: ${JSON.stringify(error)}`);
  return error;
}

/** The guild object fields these tests read. */
export interface ApiGuild {
  id: string;
  name: string;
  owner_id: string;
  roles: { id: string; name: string; position: number; permissions: string }[];
  system_channel_id: string | null;
  [key: string]: unknown;
}

/** A channel object. */
export interface ApiChannel {
  id: string;
  type: number;
  name: string;
  guild_id?: string;
  parent_id: string | null;
  position: number;
  permission_overwrites: { id: string; type: number; allow: string; deny: string }[];
  [key: string]: unknown;
}

/** A guild with its owner and its first text channel. */
export interface TestGuild {
  readonly guild: ApiGuild;
  readonly owner: TestUser;
  readonly textChannelId: string;
}

/** Creates a guild owned by `owner`. */
export async function createGuild(base: string, owner: TestUser, name = 'Test Guild'): Promise<TestGuild> {
  const guild = await api<ApiGuild>(base, 'POST', '/guilds', { token: owner.token, body: { name }, expect: 201 });
  const channels = await api<ApiChannel[]>(base, 'GET', `/guilds/${guild.id}/channels`, { token: owner.token });
  const text = channels.find((channel) => channel.type === 0);
  assert.ok(text, 'a new guild has a text channel');
  return { guild, owner, textChannelId: text.id };
}

/** The owner invites `user`, who accepts. */
export async function joinGuild(base: string, target: TestGuild, user: TestUser): Promise<void> {
  const invite = await api<{ code: string }>(base, 'POST', `/channels/${target.textChannelId}/invites`, {
    token: target.owner.token,
    body: { max_age: 0 },
  });
  await api(base, 'POST', `/invites/${invite.code}`, { token: user.token });
}

/** Registers a user and makes them a member of the guild. */
export async function member(base: string, target: TestGuild, name = 'member'): Promise<TestUser> {
  const user = await registerUser(base, name);
  await joinGuild(base, target, user);
  return user;
}

/** Creates a role with `permissions` (by the owner) and gives it to `user`; returns the role id. */
export async function grant(
  base: string,
  target: TestGuild,
  user: TestUser,
  permissions: bigint,
  name = 'granted',
): Promise<string> {
  const role = await api<{ id: string }>(base, 'POST', `/guilds/${target.guild.id}/roles`, {
    token: target.owner.token,
    body: { name, permissions: permissions.toString() },
  });
  await api(base, 'PUT', `/guilds/${target.guild.id}/members/${user.id}/roles/${role.id}`, {
    token: target.owner.token,
    expect: 204,
  });
  return role.id;
}

/** Connects and identifies `user`; resolves once READY arrived. */
export async function connect(gatewayUrl: string, user: TestUser, intents = ALL_TEST_INTENTS): Promise<GatewayClient> {
  const { client } = await GatewayClient.identified(gatewayUrl, user.token, { intents }, { autoHeartbeat: true });
  return client;
}

/**
 * Waits until the socket has the guild, so later guild events reach it: user accounts get guilds
 * they are already in inside READY, bots and new joins get GUILD_CREATE.
 */
export async function guildReady(client: GatewayClient, guildId: string): Promise<Record<string, unknown>> {
  const ready = client.dispatches<{ guilds?: { id: string; unavailable?: boolean }[] }>('READY')[0];
  const inReady = ready?.d.guilds?.find((guild) => guild.id === guildId && guild.unavailable !== true);
  if (inReady) return inReady;
  const frame = await client.waitForDispatch<{ id: string }>('GUILD_CREATE', (d) => d.id === guildId);
  return frame.d;
}
