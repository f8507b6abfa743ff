import assert from 'node:assert/strict';
import { after, before, describe, it } from 'mocha';
import { GatewayClient } from '../../support/GatewayClient.js';
import { registerUser, startTestServer, type TestServer, type TestUser } from '../../support/testServer.js';
import { createGuild, postMessage, type TestGuild } from './gatewayFixtures.js';

describe('gateway resume', () => {
  let server: TestServer;
  let alice: TestUser;
  let guild: TestGuild;

  before(async () => {
    server = await startTestServer({ CHORUS_RESUME_BUFFER: '5' });
    alice = await registerUser(server.api, 'alice');
    guild = await createGuild(server.api, alice.token, 'resumable');
  });
  after(async () => {
    await server.stop();
  });

  /** Identifies, reads one message, then loses the connection; returns what a client keeps to resume. */
  async function sessionThenDrop(): Promise<{ sessionId: string; seq: number }> {
    const { client, ready } = await GatewayClient.identified(server.gatewayUrl, alice.token);
    const first = await postMessage(server.api, alice.token, guild.channelId, 'before');
    await client.waitForDispatch<{ id: string }>('MESSAGE_CREATE', (d) => d.id === first.id);
    const seq = client.lastSeq ?? 0;
    await client.drop();
    return { sessionId: String(ready['session_id']), seq };
  }

  async function resume(sessionId: string, seq: number, token = alice.token): Promise<GatewayClient> {
    const client = await GatewayClient.connect(server.gatewayUrl);
    await client.waitFor('Hello on the new socket', (frame) => frame.op === 10);
    client.send(6, { token, session_id: sessionId, seq });
    return client;
  }

  it('replays the dispatches missed while disconnected, in order, then RESUMED', async () => {
    const { sessionId, seq } = await sessionThenDrop();
    const missed = [];
    for (const content of ['m1', 'm2', 'm3'])
      missed.push(await postMessage(server.api, alice.token, guild.channelId, content));
    const client = await resume(sessionId, seq);
    const resumed = await client.waitForDispatch('RESUMED');
    const replayed = client.dispatches<{ id: string }>('MESSAGE_CREATE');
    assert.deepEqual(
      replayed.map((frame) => frame.d.id),
      missed.map((message) => message.id),
    );
    assert.deepEqual(
      replayed.map((frame) => frame.s),
      [seq + 1, seq + 2, seq + 3],
    );
    assert.equal(resumed.s, seq + 4); // after the replay
    // The session goes on live on the new socket, numbering where it left off.
    const live = await postMessage(server.api, alice.token, guild.channelId, 'live');
    const frame = await client.waitForDispatch<{ id: string }>('MESSAGE_CREATE', (d) => d.id === live.id);
    assert.ok((frame.s ?? 0) > (resumed.s ?? 0));
    await client.close();
  });

  it('answers a resume of an unknown session with op 9 d:false', async () => {
    const client = await resume('0123456789abcdef0123456789abcdef', 3);
    const invalid = await client.waitFor('op 9', (frame) => frame.op === 9);
    assert.equal(invalid.d, false);
    // The client may identify again on the same socket.
    await client.identify(alice.token);
    await client.close();
  });

  it('answers a resume with a malformed session id with op 9 d:false', async () => {
    const client = await resume('not-a-session', 3);
    assert.equal((await client.waitFor('op 9', (frame) => frame.op === 9)).d, false);
    await client.close();
  });

  it('answers op 9 d:false when the client is further behind than the buffer reaches', async () => {
    const { sessionId, seq } = await sessionThenDrop();
    for (let i = 0; i < 7; i += 1) await postMessage(server.api, alice.token, guild.channelId, `flood ${i}`);
    const client = await resume(sessionId, seq);
    assert.equal((await client.waitFor('op 9', (frame) => frame.op === 9)).d, false);
    assert.equal(client.dispatches('MESSAGE_CREATE').length, 0);
    await client.close();
  });

  it('answers op 9 d:false to a resume with another user’s token', async () => {
    const mallory = await registerUser(server.api, 'mallory');
    const { sessionId, seq } = await sessionThenDrop();
    const client = await resume(sessionId, seq, mallory.token);
    assert.equal((await client.waitFor('op 9', (frame) => frame.op === 9)).d, false);
    await client.close();
    // The rightful owner can still resume it.
    const owner = await resume(sessionId, seq);
    await owner.waitForDispatch('RESUMED');
    await owner.close();
  });
});
