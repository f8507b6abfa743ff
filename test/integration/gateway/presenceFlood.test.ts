import assert from 'node:assert/strict';
import { after, before, describe, it } from 'mocha';
import { GatewayClient, type GatewayFrame } from '../../support/GatewayClient.js';
import { registerUser, startTestServer, type TestServer, type TestUser } from '../../support/testServer.js';
import { createGuild, joinGuild, postMessage, type TestGuild } from './gatewayFixtures.js';

/** The test server's resume window (a dropped session ends this long after its socket). */
const RESUME_WINDOW_MS = 800;

interface Presence {
  user: { id: string };
  status: string;
  activities: Record<string, unknown>[];
}

/** Nested objects `depth` deep: work for a careless parser, a few hundred bytes on the wire. */
const nested = (depth: number): unknown => (depth === 0 ? 'bottom' : { a: nested(depth - 1) });

/**
 * Op 3 payloads Chorus must drop without closing the socket (gateway-extras.md §5: an op 3 the server will
 * not apply is dropped or answered RATE_LIMITED, never a disconnect): not an object, not a presence, or past
 * Discord's limits (activity strings of 128 characters, emoji names of 32, party sizes of two numbers).
 */
const REFUSED: unknown[] = [
  null,
  [1, 2],
  'online',
  { status: 42 },
  { status: 'sleeping', activities: [] },
  { status: 'online', activities: 'playing' },
  { status: 'online', activities: Array.from({ length: 17 }, (_, i) => ({ name: `game ${i}`, type: 0 })) },
  { status: 'online', activities: [{ name: 'unknown type', type: 99 }] },
  { status: 'online', since: 'yesterday', activities: [] },
  { status: 'online', activities: [{ type: 0 }] },
  { status: 'online', activities: [{ name: 'x'.repeat(129), type: 0 }] },
  { status: 'online', activities: [{ name: 'long state', type: 4, state: 's'.repeat(129) }] },
  { status: 'online', activities: [{ name: 'emoji', type: 4, emoji: { name: 'e'.repeat(33), animated: false } }] },
  { status: 'online', activities: [{ name: 'party', type: 0, party: { size: [1, 2, 3] } }] },
  { status: 'online', activities: [{ name: 'deep', type: 0, assets: { large_image: nested(20) } }] },
];

describe('gateway presence floods', function () {
  this.timeout(20_000);
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let guild: TestGuild;
  const open: GatewayClient[] = [];
  const identified = async (token: string): Promise<GatewayClient> => {
    const { client } = await GatewayClient.identified(server.gatewayUrl, token);
    open.push(client);
    return client;
  };
  /** Alice's PRESENCE_UPDATEs that reached `client` from frame index `from` (to `to`). */
  const aliceUpdates = (client: GatewayClient, from: number, to = client.frames.length): GatewayFrame<Presence>[] =>
    client.frames
      .slice(from, to)
      .filter((frame): frame is GatewayFrame<Presence> => frame.t === 'PRESENCE_UPDATE')
      .filter((frame) => frame.d.user.id === alice.id);

  before(async () => {
    server = await startTestServer({ CHORUS_RESUME_WINDOW_MS: String(RESUME_WINDOW_MS) });
    alice = await registerUser(server.api, 'alice');
    bob = await registerUser(server.api, 'bob');
    guild = await createGuild(server.api, bob.token, 'floods');
    await joinGuild(server.api, bob.token, guild.channelId, alice.token);
  });
  after(async () => {
    await Promise.all(open.map((client) => client.drop()));
    await server.stop();
  });

  it('closes 4008 the session that sends 121 op 3 in a minute, applies only its first five, and leaves the guild untouched', async () => {
    const bobClient = await identified(bob.token);
    const from = bobClient.frames.length;
    const aliceClient = await identified(alice.token);
    await bobClient.waitForDispatch<Presence>('PRESENCE_UPDATE', (d) => d.user.id === alice.id, { from });
    const floodFrom = bobClient.frames.length;
    for (let i = 0; i < 121; i += 1) {
      aliceClient.send(3, {
        status: i % 2 === 0 ? 'idle' : 'dnd',
        since: null,
        afk: false,
        activities: [{ name: `flood ${i}`, type: 0 }],
      });
    }
    assert.equal((await aliceClient.closed).code, 4008);
    // 4008 ends the session (clients identify anew), after the ops it had: its going offline comes after them.
    const offline = await bobClient.waitForDispatch<Presence>(
      'PRESENCE_UPDATE',
      (d) => d.user.id === alice.id && d.status === 'offline',
      { from: floodFrom },
    );
    const applied = aliceUpdates(bobClient, floodFrom, bobClient.frames.indexOf(offline));
    assert.deepEqual(
      applied.map((frame) => frame.d.activities.map((activity) => activity['name'])),
      [['flood 0'], ['flood 1'], ['flood 2'], ['flood 3'], ['flood 4']],
    );
    // The other session lives on: its messages and heartbeats are answered.
    const message = await postMessage(server.api, bob.token, guild.channelId, 'after the flood');
    await bobClient.waitForDispatch<{ id: string }>('MESSAGE_CREATE', (d) => d.id === message.id);
    const acks = bobClient.frames.length;
    bobClient.send(1, null);
    await bobClient.waitFor('heartbeat ack', (frame) => frame.op === 11, { from: acks });
  });

  it('drops op 3 payloads that are not presences or break Discord limits, keeps the session, and applies the next good one', async () => {
    const bobClient = await identified(bob.token);
    // Four refused payloads and one good one per session: refused tries count against the 5-per-window budget.
    for (let batch = 0; batch * 4 < REFUSED.length; batch += 1) {
      const from = bobClient.frames.length;
      const aliceClient = await identified(alice.token);
      const online = await bobClient.waitForDispatch<Presence>(
        'PRESENCE_UPDATE',
        (d) => d.user.id === alice.id && d.status === 'online',
        { from },
      );
      for (const d of REFUSED.slice(batch * 4, batch * 4 + 4)) aliceClient.send(3, d);
      const name = `good after batch ${batch}`;
      const unknownField = { x: nested(20) };
      aliceClient.send(3, { status: 'dnd', since: null, afk: false, activities: [{ name, type: 0, unknownField }] });
      const good = await bobClient.waitForDispatch<Presence>(
        'PRESENCE_UPDATE',
        (d) => d.user.id === alice.id && d.activities[0]?.['name'] === name,
        { from },
      );
      // Alice's ops reach her User actor in order: nothing refused came between her coming online and the good one.
      const start = bobClient.frames.indexOf(online) + 1;
      assert.deepEqual(aliceUpdates(bobClient, start, bobClient.frames.indexOf(good)), []);
      assert.equal(good.d.status, 'dnd');
      assert.deepEqual(good.d.activities, [{ name, type: 0 }]);
      const acks = aliceClient.frames.length;
      aliceClient.send(1, null);
      await aliceClient.waitFor('heartbeat ack', (frame) => frame.op === 11, { from: acks });
      const closedFrom = bobClient.frames.length;
      await aliceClient.close(1000);
      await bobClient.waitForDispatch<Presence>(
        'PRESENCE_UPDATE',
        (d) => d.user.id === alice.id && d.status === 'offline',
        { from: closedFrom },
      );
    }
  });

  it('closes 4002 an op 3 over 4096 bytes or nested past 32 levels, alone: the other session keeps its events', async () => {
    const bobClient = await identified(bob.token);
    const activity = (i: number) => ({ name: `${i} ${'y'.repeat(120)}`, type: 0, state: 'z'.repeat(128) });
    const tooBig = {
      status: 'dnd',
      since: null,
      afk: false,
      activities: Array.from({ length: 16 }, (_, i) => activity(i)),
    };
    const tooDeep = { status: 'dnd', since: null, afk: false, activities: [{ name: 'deep', type: 0, x: nested(40) }] };
    for (const d of [tooBig, tooDeep]) {
      const from = bobClient.frames.length;
      const aliceClient = await identified(alice.token);
      aliceClient.send(3, d);
      assert.equal((await aliceClient.closed).code, 4002);
      const message = await postMessage(server.api, bob.token, guild.channelId, 'after the refused frame');
      await bobClient.waitForDispatch<{ id: string }>('MESSAGE_CREATE', (m) => m.id === message.id);
      // 4002 leaves the session resumable; unresumed, it ends after the window, after anything it was sent.
      const offline = await bobClient.waitForDispatch<Presence>(
        'PRESENCE_UPDATE',
        (p) => p.user.id === alice.id && p.status === 'offline',
        { from },
      );
      assert.deepEqual(
        aliceUpdates(bobClient, from, bobClient.frames.indexOf(offline)).map((frame) => frame.d.status),
        ['online'],
      );
    }
  });
});
