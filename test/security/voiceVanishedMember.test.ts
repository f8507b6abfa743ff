import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { RunningVoiceServer } from '../../src/voice/VoiceServer.js';
import type { RawVoiceClient } from '../integration/voice/rawVoiceClient.js';
import { ALICE, BOB, CAROL, GUILD, VoiceClients, freshChannel, startBadInputServer } from './voiceBadInputKit.js';

/** A short Hello interval: the window (twice it) passes within a test. */
const HEARTBEAT_INTERVAL_MS = 200;
const WINDOW_MS = 2 * HEARTBEAT_INTERVAL_MS;
/** The sweep runs every quarter interval; the rest is room for a machine shared with other test runs. */
const SLACK_MS = HEARTBEAT_INTERVAL_MS / 4 + 1_000;

/** Heartbeats as a live client does, at half the interval, until stopped. */
function keepAlive(clients: RawVoiceClient[]): () => void {
  const beat = setInterval(() => {
    for (const client of clients) client.send(3, { t: Date.now(), seq_ack: client.lastSeq });
  }, HEARTBEAT_INTERVAL_MS / 2);
  return () => {
    clearInterval(beat);
  };
}

describe('voice members that vanish are removed within the heartbeat window', function () {
  let server: RunningVoiceServer;
  const clients = new VoiceClients(() => server);

  before(async () => {
    server = await startBadInputServer(HEARTBEAT_INTERVAL_MS);
  });
  afterEach(async () => {
    await clients.closeAll();
  });
  after(async () => {
    await server.close();
  });

  it('a client whose sockets vanish is removed within the window; the others see op 13 and keep talking', async () => {
    const lounge = freshChannel();
    const alice = await clients.joined(ALICE, lounge);
    const { client: bob } = await clients.joined(BOB, lounge);
    const { client: carol } = await clients.joined(CAROL, lounge);
    const stop = keepAlive([bob, carol]);
    try {
      // Gone without a close frame, its UDP port closed: sends to it now fail at the kernel.
      const vanishedAt = Date.now();
      alice.client.ws.terminate();
      alice.client.udp.close();
      const frame = randomBytes(50);
      bob.sendAudio(frame, server.port);
      assert.deepEqual(await carol.receiveAudio(), { ssrc: bob.ssrc, payload: frame });
      const [toBob, toCarol] = await Promise.all([bob.nextOf(13), carol.nextOf(13)]);
      const tookMs = Date.now() - vanishedAt;
      assert.deepEqual(toBob.d, { user_id: ALICE });
      assert.deepEqual(toCarol.d, { user_id: ALICE });
      assert.ok(tookMs <= WINDOW_MS + SLACK_MS, `removed after ${tookMs} ms`);
      // Its session is gone: the token that identified it no longer resumes it.
      const late = await clients.connect();
      await late.nextOf(8);
      late.send(7, { server_id: GUILD, session_id: alice.grant.sessionId, token: alice.grant.token, seq_ack: 0 });
      assert.equal((await late.closed).code, 4006);
      const after = randomBytes(50);
      carol.sendAudio(after, server.port);
      assert.deepEqual(await bob.receiveAudio(), { ssrc: carol.ssrc, payload: after });
    } finally {
      stop();
    }
  });

  it('a client that stays connected but stops heartbeating is closed 4009 and the others see op 13', async () => {
    const lounge = freshChannel();
    const { client: alice } = await clients.joined(ALICE, lounge);
    const { client: bob } = await clients.joined(BOB, lounge);
    const stop = keepAlive([bob]);
    try {
      const silentSince = Date.now();
      assert.deepEqual((await bob.nextOf(13)).d, { user_id: ALICE });
      assert.equal((await alice.closed).code, 4009);
      const tookMs = Date.now() - silentSince;
      assert.ok(tookMs <= WINDOW_MS + SLACK_MS, `removed after ${tookMs} ms`);
    } finally {
      stop();
    }
  });

  it('a socket that never identifies and never heartbeats is closed 4009 after the window', async () => {
    const idle = await clients.connect();
    await idle.nextOf(8);
    assert.equal((await idle.closed).code, 4009);
  });
});
