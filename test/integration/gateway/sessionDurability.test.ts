import assert from 'node:assert/strict';
import { after, before, describe, it } from 'mocha';
import { GatewayClient } from '../../support/GatewayClient.js';
import { api, registerUser, startTestServer, type TestServer, type TestUser } from '../../support/testServer.js';
import { createGuild, postMessage, type TestGuild } from './gatewayFixtures.js';

/**
 * Sessions and guild subscriptions outlive their actors (embedded mode, SessionStore and
 * SubscriptionStore in memory): an evicted Session actor (what a node loss or a hand-off does to it)
 * comes back from the store, and a Guild actor keeps fanning out after it re-activates.
 */
describe('gateway sessions outliving their actors', () => {
  let server: TestServer;
  let alice: TestUser;
  let guild: TestGuild;

  before(async () => {
    server = await startTestServer({ CHORUS_MAILBOX_CAPACITY: '20', CHORUS_RESUME_WINDOW_MS: '1500' });
    alice = await registerUser(server.api, 'alice');
    guild = await createGuild(server.api, alice.token, 'durable');
  });
  after(async () => {
    await server.stop();
  });

  async function identifiedWithOneMessage(): Promise<{ client: GatewayClient; sessionId: string }> {
    const { client, ready } = await GatewayClient.identified(server.gatewayUrl, alice.token);
    const first = await postMessage(server.api, alice.token, guild.channelId, 'before');
    await client.waitForDispatch<{ id: string }>('MESSAGE_CREATE', (d) => d.id === first.id);
    return { client, sessionId: String(ready['session_id']) };
  }

  async function resumed(sessionId: string, seq: number): Promise<GatewayClient> {
    const client = await GatewayClient.connect(server.gatewayUrl);
    await client.waitFor('Hello on the new socket', (frame) => frame.op === 10);
    client.send(6, { token: alice.token, session_id: sessionId, seq });
    return client;
  }

  it('brings back an evicted Session and Guild from the stores: op 7, then every missed event on resume', async () => {
    const { client, sessionId } = await identifiedWithOneMessage();
    const seq = client.lastSeq ?? 0;
    assert.equal(server.node.host.evict('session', sessionId), true);
    assert.equal(server.node.host.evict('guild', guild.id), true);

    const missed = [];
    for (const content of ['m1', 'm2', 'm3'])
      missed.push(await postMessage(server.api, alice.token, guild.channelId, content));
    // The first dispatch re-activated the session from the store; it asked its client to reconnect.
    await client.waitFor('op 7 Reconnect', (frame) => frame.op === 7);
    assert.equal((await client.closed).code, 4000);
    assert.deepEqual(client.dispatches('MESSAGE_CREATE').length, 1, 'nothing is pushed to a socket being closed');

    const second = await resumed(sessionId, seq);
    const resumedFrame = await second.waitForDispatch('RESUMED');
    const replayed = second.dispatches<{ id: string }>('MESSAGE_CREATE');
    assert.deepEqual(
      replayed.map((frame) => frame.d.id),
      missed.map((message) => message.id),
    );
    assert.deepEqual(
      replayed.map((frame) => frame.s),
      [seq + 1, seq + 2, seq + 3],
    );
    assert.equal(resumedFrame.s, seq + 4);
    const live = await postMessage(server.api, alice.token, guild.channelId, 'live');
    const frame = await second.waitForDispatch<{ id: string }>('MESSAGE_CREATE', (d) => d.id === live.id);
    assert.equal(frame.s, seq + 5);
    await second.close();
  });

  it('ends a session whose mailbox overflowed: op 7 and close 4000, then op 9 d:false on resume', async () => {
    const { client, sessionId } = await identifiedWithOneMessage();
    const seq = client.lastSeq ?? 0;
    // More events in one turn of the event loop than the session's mailbox (20) holds. An idle session takes
    // each at once (no mailbox); behind a turn in progress (a keep-alive writing the store) they queue.
    server.node.host.tell('session', sessionId, { command: { $case: 'heartbeat', heartbeat: { seq: '0' } } });
    for (let index = 0; index < 40; index += 1) {
      void server.node.system.deliverFanOut([sessionId], {
        event: 'TYPING_START',
        dataJson: `{"n":${index}}`,
        intent: 0,
      });
    }
    await client.waitFor('op 7 Reconnect', (frame) => frame.op === 7);
    assert.equal((await client.closed).code, 4000);
    const second = await resumed(sessionId, seq);
    const invalid = await second.waitFor('op 9', (frame) => frame.op === 9);
    assert.equal(invalid.d, false, 'the session cannot resume: an event was dropped');
    await second.identify(alice.token);
    await second.close();
  });

  it('makes a guild forget a subscribed session that expired unseen', async () => {
    const bob = await registerUser(server.api, 'bob');
    const own = await createGuild(server.api, bob.token, 'forgetful');
    const counts = async (): Promise<number> =>
      (
        await api<{ approximate_presence_count: number }>(server.api, 'GET', `/guilds/${own.id}?with_counts=true`, {
          token: bob.token,
        })
      ).approximate_presence_count;
    const { client, ready } = await GatewayClient.identified(server.gatewayUrl, bob.token);
    const sessionId = String(ready['session_id']);
    assert.equal(await counts(), 1);
    await client.close(4000); // resumable: the session waits out its window
    // Its actor goes away without ending it (as on a node that died), and nobody resumes it: the
    // store forgets it after the window, while the guild still lists it.
    server.node.host.evict('session', sessionId);
    await waitUntil('the resume window (1.5 s) to pass', async () => {
      await postMessage(server.api, bob.token, own.channelId, 'anyone?');
      return (await counts()) === 0;
    });
  });
});

/** Polls `probe` (for what only a clock reports, such as an expiry), failing after 10 s. */
async function waitUntil(what: string, probe: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
