import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'mocha';
import { Capability } from '../../../actors/session/capabilities.js';
import { GatewayClient } from '../../support/GatewayClient.js';
import { api, registerUser, startTestServer, type TestServer, type TestUser } from '../../support/testServer.js';
import { createGuild, joinGuild, postMessage, type TestGuild } from './gatewayFixtures.js';

type Json = Record<string, unknown>;
interface ReadStateEntry {
  id: string;
  last_message_id: string;
  mention_count: number;
  last_pin_timestamp: string | null;
}

describe('read states and guild settings in READY', () => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let guild: TestGuild;
  const open: GatewayClient[] = [];

  /** A new session of `user`; READY as a client asking for `capabilities` gets it. */
  const session = async (user: TestUser, capabilities = 0): Promise<{ client: GatewayClient; ready: Json }> => {
    const opened = await GatewayClient.identified(server.gatewayUrl, user.token, { capabilities });
    open.push(opened.client);
    return opened;
  };
  /** READY's read_state entries of a new session (bare array: no VERSIONED_READ_STATES). */
  const readStates = async (user: TestUser): Promise<ReadStateEntry[]> => {
    const { client, ready } = await session(user);
    await client.close();
    return ready['read_state'] as ReadStateEntry[];
  };
  const entryOf = async (user: TestUser, channelId: string): Promise<ReadStateEntry | undefined> =>
    (await readStates(user)).find((entry) => entry.id === channelId);
  const ack = (user: TestUser, channelId: string, messageId: string, body: Json = {}) =>
    api(server.api, 'POST', `/channels/${channelId}/messages/${messageId}/ack`, { token: user.token, body });

  before(async () => {
    server = await startTestServer();
    alice = await registerUser(server.api, 'alice');
    bob = await registerUser(server.api, 'bob');
    guild = await createGuild(server.api, alice.token, 'reads');
    await joinGuild(server.api, alice.token, guild.channelId, bob.token);
  });
  after(async () => {
    await Promise.all(open.map((client) => client.drop()));
    await server.stop();
  });

  it('stores an ack: the next READY carries it, as {version, partial, entries} with VERSIONED_READ_STATES', async () => {
    const message = await postMessage(server.api, bob.token, guild.channelId, 'read me');
    assert.deepEqual(await ack(alice, guild.channelId, message.id, { mention_count: 0 }), { token: null });
    const expected = { id: guild.channelId, last_message_id: message.id, mention_count: 0, last_pin_timestamp: null };
    assert.deepEqual(await entryOf(alice, guild.channelId), expected);
    const { client, ready } = await session(alice, Capability.VERSIONED_READ_STATES);
    await client.close();
    const versioned = ready['read_state'] as { version: number; partial: boolean; entries: ReadStateEntry[] };
    assert.deepEqual([versioned.version, versioned.partial], [0, false]);
    assert.deepEqual(
      versioned.entries.find((entry) => entry.id === guild.channelId),
      expected,
    );
  });

  it('stores the read state of POST /read-states/ack-bulk (a DM here)', async () => {
    const dm = await api<{ id: string }>(server.api, 'POST', '/users/@me/channels', {
      token: alice.token,
      body: { recipient_id: bob.id },
    });
    const message = await postMessage(server.api, bob.token, dm.id, 'in the dm');
    await api(server.api, 'POST', '/read-states/ack-bulk', {
      token: alice.token,
      body: { read_states: [{ channel_id: dm.id, message_id: message.id, read_state_type: 0 }] },
      expect: 204,
    });
    assert.equal((await entryOf(alice, dm.id))?.last_message_id, message.id);
  });

  it('moves the author’s read state to their own message', async () => {
    const before = await postMessage(server.api, bob.token, guild.channelId, 'not yet read by alice');
    const own = await postMessage(server.api, alice.token, guild.channelId, 'my own');
    assert.ok(BigInt(own.id) > BigInt(before.id));
    assert.deepEqual(await entryOf(alice, guild.channelId), {
      id: guild.channelId,
      last_message_id: own.id,
      mention_count: 0,
      last_pin_timestamp: null,
    });
  });

  it('counts each mention of the user, and an ack resets the count', async () => {
    const read = await postMessage(server.api, alice.token, guild.channelId, 'alice read up to here');
    await postMessage(server.api, bob.token, guild.channelId, `hey <@${alice.id}>`);
    const last = await postMessage(server.api, bob.token, guild.channelId, `again <@${alice.id}> <@${alice.id}>`);
    assert.deepEqual(await entryOf(alice, guild.channelId), {
      id: guild.channelId,
      last_message_id: read.id,
      mention_count: 2,
      last_pin_timestamp: null,
    });
    await ack(alice, guild.channelId, last.id);
    const entry = await entryOf(alice, guild.channelId);
    assert.deepEqual([entry?.last_message_id, entry?.mention_count], [last.id, 0]);
  });

  it('does not count a mention of someone outside the guild', async () => {
    const outsider = await registerUser(server.api, 'outsider');
    await postMessage(server.api, bob.token, guild.channelId, `hello <@${outsider.id}>`);
    assert.deepEqual(await readStates(outsider), []);
  });

  it('tells the user’s other session MESSAGE_ACK, and ignores an ack of an older message', async () => {
    const older = await postMessage(server.api, bob.token, guild.channelId, 'older');
    const newer = await postMessage(server.api, bob.token, guild.channelId, 'newer');
    const { client: other } = await session(alice);
    await ack(alice, guild.channelId, newer.id);
    const relayed = await other.waitForDispatch<Json>('MESSAGE_ACK', (d) => d['message_id'] === newer.id);
    assert.equal(relayed.d['channel_id'], guild.channelId);
    await ack(alice, guild.channelId, older.id);
    assert.equal((await entryOf(alice, guild.channelId))?.last_message_id, newer.id);
    // A manual ack ("mark unread") may move it back.
    await ack(alice, guild.channelId, older.id, { manual: true, mention_count: 1 });
    const marked = await entryOf(alice, guild.channelId);
    assert.deepEqual([marked?.last_message_id, marked?.mention_count], [older.id, 1]);
    await other.close();
  });

  it('refuses an ack in a channel the caller cannot see (404 10003) and stores nothing', async () => {
    const outsider = await registerUser(server.api, 'stranger');
    const message = await postMessage(server.api, bob.token, guild.channelId, 'private');
    const response = await fetch(`${server.api}/channels/${guild.channelId}/messages/${message.id}/ack`, {
      method: 'POST',
      headers: { authorization: outsider.token, 'content-type': 'application/json' },
      body: '{}',
    });
    assert.equal(response.status, 404);
    assert.equal(((await response.json()) as Json)['code'], 10_003);
    assert.deepEqual(await readStates(outsider), []);
  });

  it('refuses an ack in a guild channel hidden from the member (403 50001) and stores nothing', async () => {
    const hidden = await api<{ id: string }>(server.api, 'POST', `/guilds/${guild.id}/channels`, {
      token: alice.token,
      body: { name: 'staff', type: 0, permission_overwrites: [{ id: guild.id, type: 0, deny: '1024', allow: '0' }] },
      expect: 201,
    });
    const message = await postMessage(server.api, alice.token, hidden.id, 'staff only');
    const response = await fetch(`${server.api}/channels/${hidden.id}/messages/${message.id}/ack`, {
      method: 'POST',
      headers: { authorization: bob.token, 'content-type': 'application/json' },
      body: '{}',
    });
    assert.equal(response.status, 403);
    assert.equal(((await response.json()) as Json)['code'], 50_001);
    assert.equal(await entryOf(bob, hidden.id), undefined);
  });

  it('sends USER_GUILD_SETTINGS_UPDATE on a settings PATCH, and the next READY has the settings', async () => {
    const { client } = await session(alice);
    const body = { muted: true, channel_overrides: { [guild.channelId]: { muted: true, message_notifications: 1 } } };
    await api(server.api, 'PATCH', `/users/@me/guilds/${guild.id}/settings`, { token: alice.token, body });
    const update = await client.waitForDispatch<Json>('USER_GUILD_SETTINGS_UPDATE');
    assert.equal(update.d['guild_id'], guild.id);
    assert.equal(update.d['muted'], true);
    const { client: next, ready } = await session(alice, Capability.VERSIONED_USER_GUILD_SETTINGS);
    const entries = (ready['user_guild_settings'] as { entries: Json[] }).entries;
    const stored = entries.find((entry) => entry['guild_id'] === guild.id);
    assert.equal(stored?.['muted'], true);
    const overrides = stored?.['channel_overrides'] as Json[];
    assert.deepEqual(
      overrides.map((override) => [override['channel_id'], override['muted'], override['message_notifications']]),
      [[guild.channelId, true, 1]],
    );
    await Promise.all([client.close(), next.close()]);
  });
});

describe('read states across a restart', () => {
  it('keeps acks, own messages and mentions of a node that stopped (written on deactivation at the latest)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'chorus-reads-'));
    try {
      const first = await startTestServer({ CHORUS_DATA_DIR: dataDir });
      const alice = await registerUser(first.api, 'alice');
      const bob = await registerUser(first.api, 'bob');
      const guild = await createGuild(first.api, alice.token, 'restart');
      await joinGuild(first.api, alice.token, guild.channelId, bob.token);
      await postMessage(first.api, bob.token, guild.channelId, 'bob reads his own');
      const ping = await postMessage(first.api, bob.token, guild.channelId, `ping <@${alice.id}>`);
      await first.stop();

      const second = await startTestServer({ CHORUS_DATA_DIR: dataDir });
      try {
        const readyOf = async (token: string): Promise<ReadStateEntry[]> => {
          const { client, ready } = await GatewayClient.identified(second.gatewayUrl, token);
          await client.close();
          return ready['read_state'] as ReadStateEntry[];
        };
        const bobs = (await readyOf(bob.token)).find((entry) => entry.id === guild.channelId);
        assert.equal(bobs?.last_message_id, ping.id);
        const alices = (await readyOf(alice.token)).find((entry) => entry.id === guild.channelId);
        assert.equal(alices?.mention_count, 1);
      } finally {
        await second.stop();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
