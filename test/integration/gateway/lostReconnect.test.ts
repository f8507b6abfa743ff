import assert from 'node:assert/strict';
import { after, before, describe, it } from 'mocha';
import { GatewayClient } from '../../support/GatewayClient.js';
import { registerUser, startTestServer, type TestServer, type TestUser } from '../../support/testServer.js';
import { createGuild, postMessage, type TestGuild } from './gatewayFixtures.js';

/**
 * A session taken over by another node asks its old socket to reconnect (op 7). When that request is
 * lost (the socket's edge was unreachable then), the client sits on a socket nothing is pushed to. Its
 * heartbeats repair that: the edge asks the session whether the socket is still its own, and the
 * session asks the socket again to reconnect; the resume then replays what the client missed.
 */
describe('gateway socket whose reconnect request was lost', () => {
  let server: TestServer;
  let alice: TestUser;
  let guild: TestGuild;

  before(async () => {
    server = await startTestServer({ CHORUS_HEARTBEAT_INTERVAL_MS: '2000' });
    alice = await registerUser(server.api, 'alice');
    guild = await createGuild(server.api, alice.token, 'heartbeats');
  });
  after(async () => {
    await server.stop();
  });

  /** Runs `work` while every frame pushed to a socket is lost (its edge unreachable from the session). */
  async function withPushesLost(work: () => Promise<void>): Promise<void> {
    const system = server.node.system;
    const push = system.pushFrames.bind(system);
    system.pushFrames = () => undefined;
    try {
      await work();
    } finally {
      system.pushFrames = push;
    }
  }

  it('asks a heartbeating socket its session no longer pushes to to reconnect, and the resume replays the gap', async () => {
    const { client, ready } = await GatewayClient.identified(
      server.gatewayUrl,
      alice.token,
      {},
      { autoHeartbeat: true },
    );
    const sessionId = String(ready['session_id']);
    const seen = await postMessage(server.api, alice.token, guild.channelId, 'seen');
    await client.waitForDispatch<{ id: string }>('MESSAGE_CREATE', (d) => d.id === seen.id);
    const seq = client.lastSeq ?? 0;
    let missedId = '';
    await withPushesLost(async () => {
      // A take-over: the Session comes back from the store, and its op 7 to the old socket is lost.
      assert.equal(server.node.host.evict('session', sessionId), true);
      missedId = (await postMessage(server.api, alice.token, guild.channelId, 'missed')).id;
      await server.node.system.ask('session', sessionId, { command: { $case: 'heartbeat', heartbeat: { seq: '0' } } });
    });

    // The client only heartbeats (every 2 s); nothing else tells it its socket went silent.
    await client.waitFor('op 7 Reconnect on the silent socket', (frame) => frame.op === 7);
    await client.closed;
    const again = await GatewayClient.connect(server.gatewayUrl, { autoHeartbeat: true });
    await again.waitFor('Hello', (frame) => frame.op === 10);
    again.send(6, { token: alice.token, session_id: sessionId, seq });
    const replayed = await again.waitForDispatch<{ id: string }>('MESSAGE_CREATE', (d) => d.id === missedId);
    assert.equal(replayed.s, seq + 1);
    await again.close();
  });

  it('tells a heartbeating socket whose session ended unseen to identify again (op 9)', async () => {
    const { client, ready } = await GatewayClient.identified(
      server.gatewayUrl,
      alice.token,
      {},
      { autoHeartbeat: true },
    );
    const sessionId = String(ready['session_id']);
    await withPushesLost(async () => {
      await server.node.system.ask('session', sessionId, {
        command: { $case: 'invalidate', invalidate: { reason: 'test' } },
      });
    });
    await client.waitFor('op 9 Invalid Session', (frame) => frame.op === 9);
    await client.close();
  });
});
