import assert from 'node:assert/strict';
import { after, before, describe, it } from 'mocha';
import { GatewayClient } from '../../support/GatewayClient.js';
import { api, registerUser, startTestServer, type TestServer, type TestUser } from '../../support/testServer.js';
import { createGuild, joinGuild, postMessage, type TestGuild } from './gatewayFixtures.js';

type Json = Record<string, unknown>;

/** Identify exactly as Jank Client (Fermi) sends it, plus the client_state Discord's client adds. */
const jankIdentify = (token: string, properties: Json = {}): Json => ({
  token,
  capabilities: 16381,
  properties: {
    browser: 'Fermi',
    client_build_number: 0,
    release_channel: 'Custom',
    browser_user_agent:
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
    ...properties,
  },
  compress: true,
  presence: { status: 'online', since: null, activities: [], afk: false },
  large_threshold: 100000000,
  client_state: {
    guild_versions: {},
    highest_last_message_id: '0',
    read_state_version: 0,
    user_guild_settings_version: -1,
    user_settings_version: -1,
    private_channels_version: '0',
    api_code_version: 0,
  },
});

const list = (value: unknown): Json[] => {
  assert.ok(Array.isArray(value), `not an array: ${JSON.stringify(value)}`);
  return value as Json[];
};
const idOf = (value: unknown): unknown => (value as Json | undefined)?.['id'];

describe('READY for web clients (Jank Client, Spacebar client)', () => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let guild: TestGuild;
  const open: GatewayClient[] = [];
  const connect = async (): Promise<GatewayClient> => {
    // Jank Client's socket: v=9, zlib-stream transport compression (and `compress: true` in Identify).
    const client = await GatewayClient.connect(server.gatewayUrl, { query: 'encoding=json&v=9', zlibStream: true });
    open.push(client);
    return client;
  };
  const identifyAsJank = async (client: GatewayClient, token: string): Promise<Json> => {
    client.send(2, jankIdentify(token));
    return (await client.waitForDispatch('READY')).d;
  };

  before(async () => {
    server = await startTestServer();
    alice = await registerUser(server.api, 'alice');
    bob = await registerUser(server.api, 'bob');
    guild = await createGuild(server.api, alice.token, 'web');
    await joinGuild(server.api, alice.token, guild.channelId, bob.token);
    await api(server.api, 'POST', '/users/@me/channels', { token: alice.token, body: { recipient_id: bob.id } });
    await api(server.api, 'PUT', `/users/@me/relationships/${alice.id}`, { token: bob.token, body: {} });
    await api(server.api, 'PUT', `/users/@me/relationships/${bob.id}`, { token: alice.token, body: {} });
    await api(server.api, 'PATCH', `/users/@me/guilds/${guild.id}/settings`, {
      token: alice.token,
      body: { muted: true },
    });
  });
  after(async () => {
    await Promise.all(open.map((client) => client.drop()));
    await server.stop();
  });

  it('accepts Identify as Jank Client sends it and answers READY in the shape capabilities 16381 ask for', async () => {
    const client = await connect();
    const ready = await identifyAsJank(client, alice.token);

    const [readyGuild, ...otherGuilds] = list(ready['guilds']);
    assert.deepEqual(otherGuilds, []);
    const properties = readyGuild?.['properties'] as Json;
    assert.equal(readyGuild?.['id'], guild.id);
    assert.equal(properties['id'], guild.id);
    assert.equal(properties['name'], 'web');
    assert.equal(properties['owner_id'], alice.id);
    assert.equal(readyGuild?.['data_mode'], 'full');
    assert.equal('name' in (readyGuild ?? {}), false, 'CLIENT_STATE_V2: plain fields live in properties');
    assert.ok(list(readyGuild?.['channels']).some((channel) => channel['id'] === guild.channelId));
    assert.ok(list(readyGuild?.['roles']).some((role) => role['id'] === guild.id));

    // DEDUPE_USER_OBJECTS: users once at the top, ids beside the objects the web clients read.
    assert.ok(list(ready['users']).some((user) => user['id'] === bob.id));
    const merged = list(ready['merged_members']) as unknown as Json[][];
    assert.equal(merged.length, 1, 'aligned with guilds');
    const own = merged[0]?.[0];
    assert.equal(own?.['user_id'], alice.id);
    assert.equal(idOf(own?.['user']), alice.id, 'Jank Client throws on a member without user');
    assert.equal(own?.['guild_id'], guild.id, 'Jank Client indexes READY members by guild_id');
    const dm = list(ready['private_channels'])[0];
    assert.deepEqual(dm?.['recipient_ids'], [bob.id]);
    assert.equal(idOf(list(dm?.['recipients'])[0]), bob.id);
    const friend = list(ready['relationships'])[0];
    assert.equal(friend?.['user_id'], bob.id);
    assert.equal(idOf(friend?.['user']), bob.id);

    assert.deepEqual(ready['read_state'], { version: 0, partial: false, entries: [] });
    const guildSettings = ready['user_guild_settings'] as Json;
    assert.deepEqual([guildSettings['version'], guildSettings['partial']], [0, false]);
    assert.deepEqual(
      list(guildSettings['entries']).map((entry) => [entry['guild_id'], entry['muted']]),
      [[guild.id, true]],
    );
    const proto = ready['user_settings_proto'];
    assert.equal(typeof proto, 'string');
    assert.equal(Buffer.from(proto as string, 'base64').toString('base64'), proto, 'valid base64');
    assert.deepEqual((ready['user_settings'] as Json)['guild_folders'], [], 'Jank Client reads user_settings');
    for (const key of [
      'sessions',
      'country_code',
      'geo_ordered_rtc_regions',
      'api_code_version',
      'auth_session_id_hash',
    ]) {
      assert.ok(key in ready, key);
    }
    assert.deepEqual([ready['experiments'], ready['guild_experiments']], [[], []]);

    // PRIORITIZED_READY_PAYLOAD: READY_SUPPLEMENTAL is the very next dispatch.
    const supplemental = await client.waitForDispatch('READY_SUPPLEMENTAL');
    const readyFrame = client.dispatches('READY')[0];
    assert.equal(supplemental.s, (readyFrame?.s ?? 0) + 1);
    assert.equal(client.frames.indexOf(supplemental), client.frames.indexOf(readyFrame as never) + 1);
    assert.deepEqual(supplemental.d['guilds'], [
      { id: guild.id, voice_states: [], activity_instances: [], embedded_activities: [] },
    ]);
    const others = list(supplemental.d['merged_members']) as unknown as Json[][];
    assert.deepEqual(
      others.map((members) => members.map((member) => idOf(member['user']))),
      [[bob.id]],
    );
    assert.deepEqual(supplemental.d['merged_presences'], { guilds: [[]], friends: [] });
    for (const key of ['lazy_private_channels', 'disclose', 'game_invites']) assert.deepEqual(supplemental.d[key], []);
  });

  it('accepts any release channel, Spacebar client properties and unknown ones; refuses an unbounded one with 4002', async () => {
    for (const properties of [
      { release_channel: 'dev', browser: 'Spacebar Web' },
      {
        release_channel: null,
        client_event_source: null,
        has_client_mods: false,
        design_id: 0,
        is_fast_connect: false,
      },
    ]) {
      const client = await connect();
      client.send(2, jankIdentify(alice.token, properties));
      await client.waitForDispatch('READY');
    }
    for (const releaseChannel of ['x'.repeat(65), 'x'.repeat(10_000)]) {
      const client = await connect();
      client.send(2, jankIdentify(alice.token, { release_channel: releaseChannel }));
      assert.equal((await client.closed).code, 4002, `release_channel of ${releaseChannel.length}`);
    }
  });

  it('sends a guild joined after READY as GUILD_CREATE in the shape READY used, also after a resume', async () => {
    const client = await connect();
    const ready = await identifyAsJank(client, alice.token);
    const carol = await registerUser(server.api, 'carol');
    const first = await createGuild(server.api, carol.token, 'joined live');
    await joinGuild(server.api, carol.token, first.channelId, alice.token);
    const created = await client.waitForDispatch('GUILD_CREATE', (d) => d['id'] === first.id);
    assert.equal((created.d['properties'] as Json)['name'], 'joined live');
    assert.equal(created.d['data_mode'], 'full');
    assert.ok(list(created.d['members']).some((member) => idOf(member['user']) === alice.id));

    // The session keeps its capabilities when the client resumes on a new socket.
    await client.close(4000);
    const resumed = await connect();
    resumed.send(6, { token: alice.token, session_id: ready['session_id'], seq: client.lastSeq });
    await resumed.waitForDispatch('RESUMED');
    const second = await createGuild(server.api, carol.token, 'after resume');
    await joinGuild(server.api, carol.token, second.channelId, alice.token);
    const later = await resumed.waitForDispatch('GUILD_CREATE', (d) => d['id'] === second.id);
    assert.equal((later.d['properties'] as Json)['name'], 'after resume');
    assert.equal(later.d['data_mode'], 'full');
  });

  it('gives a client without capabilities the legacy shape', async () => {
    const client = await connect();
    const ready = await client.identify(alice.token);
    const legacyGuild = list(ready['guilds'])[0];
    assert.equal(legacyGuild?.['name'], 'web');
    assert.equal('properties' in (legacyGuild ?? {}), false);
    assert.ok(list(legacyGuild?.['members']).some((member) => idOf(member['user']) === bob.id));
    assert.deepEqual(ready['read_state'], []);
    assert.deepEqual(
      list(ready['user_guild_settings']).map((entry) => entry['guild_id']),
      [guild.id],
    );
    assert.equal('user_settings_proto' in ready, false);
    assert.equal(typeof ready['user_settings'], 'object');
    assert.equal('recipient_ids' in (list(ready['private_channels'])[0] ?? {}), false);
    const merged = list(ready['merged_members']) as unknown as Json[][];
    assert.deepEqual(
      merged.map((members) => members.map((member) => idOf(member['user']))),
      list(ready['guilds']).map(() => [alice.id]),
    );
    // No READY_SUPPLEMENTAL: a heartbeat's ACK arrives with nothing dispatched after READY.
    client.send(1, client.lastSeq);
    await client.waitFor('ACK', (frame) => frame.op === 11);
    assert.deepEqual(client.dispatches('READY_SUPPLEMENTAL'), []);
  });

  it('carries reactions as an array on MESSAGE_CREATE and over REST', async () => {
    const client = await connect();
    await identifyAsJank(client, alice.token);
    const sent = await postMessage(server.api, bob.token, guild.channelId, 'hello web');
    const created = await client.waitForDispatch('MESSAGE_CREATE', (d) => d['id'] === sent.id);
    assert.deepEqual(created.d['reactions'], []);
    assert.deepEqual((sent as unknown as Json)['reactions'], []);
    const read = await api<Json>(server.api, 'GET', `/channels/${guild.channelId}/messages/${sent.id}`, {
      token: alice.token,
    });
    assert.deepEqual(read['reactions'], []);
    const page = await api<Json[]>(server.api, 'GET', `/channels/${guild.channelId}/messages?limit=5`, {
      token: alice.token,
    });
    assert.ok(page.every((message) => Array.isArray(message['reactions'])));
  });
});
