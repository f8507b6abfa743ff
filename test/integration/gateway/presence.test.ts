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
const MESSAGE_CONTENT = 1 << 15;
/** The test server's resume window: a session without a socket ends this long after it dropped. */
const RESUME_WINDOW_MS = 800;

interface Presence {
  user: { id: string };
  guild_id: string;
  status: string;
  activities: { name: string; type: number }[];
  client_status: Record<string, string>;
}

describe('gateway presence', function () {
  this.timeout(20_000);
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let watcher: TestBot;
  let blind: TestBot;
  let guild: TestGuild;
  const open: GatewayClient[] = [];
  const identified = async (token: string, extra: Record<string, unknown> = {}) => {
    const result = await GatewayClient.identified(server.gatewayUrl, token, extra);
    open.push(result.client);
    return result;
  };
  const ofUser = (userId: string, status: string) => (d: Presence) => d.user.id === userId && d.status === status;

  before(async () => {
    server = await startTestServer({ CHORUS_RESUME_WINDOW_MS: String(RESUME_WINDOW_MS) });
    alice = await registerUser(server.api, 'alice');
    bob = await registerUser(server.api, 'bob');
    carol = await registerUser(server.api, 'carol');
    guild = await createGuild(server.api, bob.token, 'presence');
    await joinGuild(server.api, bob.token, guild.channelId, alice.token);
    await joinGuild(server.api, bob.token, guild.channelId, carol.token);
    watcher = await createBot(server.api, bob.token, 'watcher');
    blind = await createBot(server.api, bob.token, 'blind');
    await addBot(server.api, bob.token, watcher, guild.id);
    await addBot(server.api, bob.token, blind, guild.id);
    await api(server.api, 'PATCH', `/guilds/${guild.id}/widget`, {
      token: bob.token,
      body: { enabled: true, channel_id: null },
    });
  });
  after(async () => {
    await Promise.all(open.map((client) => client.drop()));
    await server.stop();
  });

  it('tells users and GUILD_PRESENCES bots, not other bots, of a user coming online idle, dnd, invisible and gone', async () => {
    const { client: bobClient } = await identified(bob.token);
    // A user account gets presences whatever its intents (Discord gates them for bots only).
    const { client: bobNarrow } = await identified(bob.token, { intents: GUILDS });
    const { client: watching } = await identified(watcher.token, { intents: GUILDS | GUILD_PRESENCES });
    const { client: notWatching } = await identified(blind.token, {
      intents: GUILDS | GUILD_MESSAGES | MESSAGE_CONTENT,
    });

    const { client: aliceClient } = await identified(alice.token, {
      presence: { status: 'idle', since: 0, afk: false, activities: [{ name: 'chess', type: 0 }] },
    });
    const idle = await bobClient.waitForDispatch<Presence>('PRESENCE_UPDATE', ofUser(alice.id, 'idle'));
    assert.equal(idle.d.guild_id, guild.id);
    assert.deepEqual(
      idle.d.activities.map((activity) => activity.name),
      ['chess'],
    );
    assert.deepEqual(idle.d.client_status, { web: 'idle' });
    await watching.waitForDispatch<Presence>('PRESENCE_UPDATE', ofUser(alice.id, 'idle'));
    await bobNarrow.waitForDispatch<Presence>('PRESENCE_UPDATE', ofUser(alice.id, 'idle'));

    aliceClient.send(3, { status: 'dnd', since: null, afk: false, activities: [] });
    await bobClient.waitForDispatch<Presence>('PRESENCE_UPDATE', ofUser(alice.id, 'dnd'));
    await watching.waitForDispatch<Presence>('PRESENCE_UPDATE', ofUser(alice.id, 'dnd'));
    // Alice's own session hears nothing of her presence as PRESENCE_UPDATE.
    assert.equal(
      aliceClient.dispatches('PRESENCE_UPDATE').filter((f) => (f.d as unknown as Presence).user.id === alice.id).length,
      0,
    );

    aliceClient.send(3, { status: 'invisible', since: null, afk: false, activities: [] });
    const hidden = await bobClient.waitForDispatch<Presence>('PRESENCE_UPDATE', ofUser(alice.id, 'offline'));
    assert.deepEqual(hidden.d.client_status, {});
    assert.deepEqual(hidden.d.activities, []);
    assert.ok(!bobClient.dispatches<Presence>('PRESENCE_UPDATE').some((f) => f.d.status === 'invisible'));

    aliceClient.send(3, { status: 'online', since: null, afk: false, activities: [] });
    await bobClient.waitForDispatch<Presence>('PRESENCE_UPDATE', ofUser(alice.id, 'online'));
    await watching.waitForDispatch<Presence>('PRESENCE_UPDATE', ofUser(alice.id, 'online'));

    // A later GUILDS event: once it arrived, a PRESENCE_UPDATE sent before it would have too.
    const message = await postMessage(server.api, bob.token, guild.channelId, 'marker');
    await notWatching.waitForDispatch<{ id: string }>('MESSAGE_CREATE', (d) => d.id === message.id);
    assert.equal(notWatching.dispatches('PRESENCE_UPDATE').length, 0);

    // A resumable drop keeps Alice online until the resume window ends, then she goes offline.
    const dropped = Date.now();
    await aliceClient.drop();
    await bobClient.waitForDispatch<Presence>('PRESENCE_UPDATE', ofUser(alice.id, 'offline'), {
      from: bobClient.frames.length,
      timeoutMs: 10_000,
    });
    assert.ok(Date.now() - dropped >= RESUME_WINDOW_MS - 50, 'offline only after the resume window');
  });

  it('lists online members in READY presences of a later session, in GUILD_CREATE for GUILD_PRESENCES bots, and in widget.json', async () => {
    const { client: carolClient } = await identified(carol.token, { presence: { status: 'dnd', activities: [] } });
    const { client: bobClient, ready } = await identified(bob.token);
    const listed = (ready['guilds'] as { id: string; presences: Presence[] }[]).find((entry) => entry.id === guild.id);
    const carolPresence = listed?.presences.find((presence) => presence.user.id === carol.id);
    // Carol's presence may still be on its way to the guild when Bob's READY is built: wait for it then.
    if (carolPresence === undefined) {
      await bobClient.waitForDispatch<Presence>('PRESENCE_UPDATE', ofUser(carol.id, 'dnd'));
    } else {
      assert.equal(carolPresence.status, 'dnd');
    }
    const { client: watching } = await identified(watcher.token, { intents: GUILDS | GUILD_PRESENCES });
    const created = await watching.waitForDispatch<{ id: string; presences: Presence[] }>(
      'GUILD_CREATE',
      (d) => d.id === guild.id,
    );
    assert.ok(created.d.presences.some((presence) => presence.user.id === carol.id && presence.status === 'dnd'));
    const { client: notWatching } = await identified(blind.token, { intents: GUILDS });
    const blindCreate = await notWatching.waitForDispatch<{ id: string; presences: Presence[] }>(
      'GUILD_CREATE',
      (d) => d.id === guild.id,
    );
    assert.deepEqual(blindCreate.d.presences, []);

    const widget = await api<{ presence_count: number; members: { status: string }[] }>(
      server.api,
      'GET',
      `/guilds/${guild.id}/widget.json`,
      { token: alice.token },
    );
    // Online now: Carol (dnd), Bob and the watcher bot (online).
    assert.equal(widget.presence_count, widget.members.length);
    assert.ok(widget.members.some((member) => member.status === 'dnd'));
    assert.ok(widget.presence_count >= 2);

    // A 1000 close ends the session at once: offline without waiting for the resume window.
    await carolClient.close(1000);
    await bobClient.waitForDispatch<Presence>('PRESENCE_UPDATE', ofUser(carol.id, 'offline'));
  });

  it('answers op 8 presences (bots only with GUILD_PRESENCES) and puts online members in the op 14 online group', async () => {
    const { client: bobClient } = await identified(bob.token);
    const { client: watching } = await identified(watcher.token, { intents: GUILDS | GUILD_PRESENCES });
    const { client: notWatching } = await identified(blind.token, { intents: GUILDS });
    const { client: carolClient } = await identified(carol.token, { presence: { status: 'idle', activities: [] } });
    await bobClient.waitForDispatch<Presence>('PRESENCE_UPDATE', ofUser(carol.id, 'idle'));

    interface Chunk {
      nonce: string;
      presences?: Presence[];
    }
    const request = { guild_id: guild.id, user_ids: [carol.id, alice.id], limit: 0, presences: true };
    watching.send(8, { ...request, nonce: 'p1' });
    const allowed = await watching.waitForDispatch<Chunk>('GUILD_MEMBERS_CHUNK', (d) => d.nonce === 'p1');
    assert.deepEqual(
      allowed.d.presences?.map((presence) => [presence.user.id, presence.status]),
      [[carol.id, 'idle']],
      'Carol idle; Alice is offline and so not listed',
    );
    notWatching.send(8, { ...request, nonce: 'p2' });
    const refused = await notWatching.waitForDispatch<Chunk>('GUILD_MEMBERS_CHUNK', (d) => d.nonce === 'p2');
    assert.equal(refused.d.presences, undefined);

    interface ListUpdate {
      online_count: number;
      groups: { id: string; count: number }[];
      ops: { items: { member?: { user: { id: string }; presence: { status: string } } }[] }[];
    }
    bobClient.send(14, { guild_id: guild.id, channels: { [guild.channelId]: [[0, 99]] } });
    const list = await bobClient.waitForDispatch<ListUpdate>('GUILD_MEMBER_LIST_UPDATE');
    const rows = list.d.ops[0]?.items ?? [];
    const carolRow = rows.findIndex((row) => row.member?.user.id === carol.id);
    const aliceRow = rows.findIndex((row) => row.member?.user.id === alice.id);
    assert.equal(rows[carolRow]?.member?.presence.status, 'idle');
    assert.equal(rows[aliceRow]?.member?.presence.status, 'offline');
    assert.ok(carolRow < aliceRow, 'the online group comes first');
    assert.equal(list.d.groups[0]?.id, 'online');
    assert.ok(list.d.online_count >= 3, 'Bob, Carol and the watcher bot are online');
    await carolClient.close(1000);
  });

  it('drops op 3 beyond five per window and presences over the schema, and keeps the session', async () => {
    const { client: bobClient } = await identified(bob.token);
    const { client: carolClient } = await identified(carol.token);
    await bobClient.waitForDispatch<Presence>('PRESENCE_UPDATE', ofUser(carol.id, 'online'));
    // Over Discord's limits: dropped, the session stays open.
    carolClient.send(3, { status: 'idle', since: null, afk: false, activities: [{ name: 'x'.repeat(500), type: 0 }] });
    carolClient.send(3, { status: 'sleeping', since: null, afk: false, activities: [] });
    // The refused tries count against the budget too: three more fit, the last two are over it.
    const statuses = ['idle', 'dnd', 'online', 'dnd', 'idle'];
    for (const status of statuses) carolClient.send(3, { status, since: null, afk: false, activities: [] });
    await bobClient.waitForDispatch<Presence>('PRESENCE_UPDATE', ofUser(carol.id, 'online'), {
      from: bobClient.frames.length,
    });
    carolClient.send(1, null);
    await carolClient.waitFor('heartbeat ack: the session is kept', (frame) => frame.op === 11);
    // Carol's going offline follows every update her session passed on: nothing dropped arrives after it.
    await carolClient.close(1000);
    await bobClient.waitForDispatch<Presence>('PRESENCE_UPDATE', ofUser(carol.id, 'offline'));
    const carols = bobClient.dispatches<Presence>('PRESENCE_UPDATE').filter((f) => f.d.user.id === carol.id);
    assert.equal(carols.at(-2)?.d.status, 'online', 'the last two updates were over the budget');
    assert.ok(
      !bobClient.dispatches<Presence>('PRESENCE_UPDATE').some((f) => f.d.activities.some((a) => a.name.length > 128)),
    );
  });
});
