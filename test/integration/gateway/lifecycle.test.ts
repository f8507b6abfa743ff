import assert from 'node:assert/strict';
import { after, before, describe, it } from 'mocha';
import { GatewayClient } from '../../support/GatewayClient.js';
import { registerUser, startTestServer, type TestServer, type TestUser } from '../../support/testServer.js';
import { createGuild } from './gatewayFixtures.js';

describe('gateway lifecycle', () => {
  let server: TestServer;
  let alice: TestUser;
  const open: GatewayClient[] = [];
  const connect = async (...args: Parameters<typeof GatewayClient.connect>): Promise<GatewayClient> => {
    const client = await GatewayClient.connect(...args);
    open.push(client);
    return client;
  };

  before(async () => {
    server = await startTestServer();
    alice = await registerUser(server.api, 'alice');
  });
  after(async () => {
    await Promise.all(open.map((client) => client.drop()));
    await server.stop();
  });

  it('sends op 10 Hello with the heartbeat interval first', async () => {
    const client = await connect(server.gatewayUrl);
    const hello = await client.waitFor<{ heartbeat_interval: number }>('Hello', (frame) => frame.op === 10);
    assert.equal(client.frames[0], hello);
    assert.equal(hello.d.heartbeat_interval, 41_250);
    assert.equal(hello.s, null);
  });

  it('answers op 1 Heartbeat with op 11 ACK, before and after Identify', async () => {
    const client = await connect(server.gatewayUrl);
    client.send(1, null);
    await client.waitFor('ACK before Identify', (frame) => frame.op === 11);
    await client.identify(alice.token);
    const from = client.frames.length;
    client.send(1, client.lastSeq);
    await client.waitFor('ACK after Identify', (frame) => frame.op === 11, { from });
  });

  it('accepts a connection without any query (v defaults to 10)', async () => {
    const client = await connect(server.gatewayUrl, { query: '' });
    const ready = await client.identify(alice.token);
    assert.equal(ready['v'], 10);
  });

  it('answers Identify with READY for a user account', async () => {
    const client = await connect(server.gatewayUrl, { query: 'v=9&encoding=json' });
    const ready = await client.identify(alice.token);
    const frame = client.dispatches('READY')[0];
    assert.equal(frame?.s, 1);
    assert.equal(ready['v'], 9);
    assert.match(String(ready['session_id']), /^[0-9a-f]{32}$/);
    assert.equal(ready['resume_gateway_url'], server.gatewayUrl);
    const user = ready['user'] as { id: string; username: string };
    assert.equal(user.id, alice.id);
    assert.equal(user.username, alice.username);
    assert.deepEqual(ready['guilds'], []);
    assert.ok(Array.isArray(ready['private_channels']));
    assert.ok(Array.isArray(ready['relationships']));
    assert.equal(ready['session_type'], 'normal');
    assert.equal(ready['shard'], undefined);
  });

  it('echoes the shard in READY when one was sent', async () => {
    const client = await connect(server.gatewayUrl);
    const ready = await client.identify(alice.token, { shard: [0, 1] });
    assert.deepEqual(ready['shard'], [0, 1]);
  });

  it('speaks zlib-stream: one deflate context, each message ending in 00 00 FF FF', async () => {
    const client = await connect(server.gatewayUrl, { zlibStream: true });
    const marker = Buffer.from([0, 0, 0xff, 0xff]);
    const messages: { binary: boolean; flushed: boolean }[] = [];
    client.ws.on('message', (data: Buffer, binary: boolean) => {
      messages.push({ binary, flushed: data.subarray(-4).equals(marker) });
    });
    const ready = await client.identify(alice.token);
    assert.equal((ready['user'] as { id: string }).id, alice.id);
    for (let i = 0; i < 3; i += 1) {
      const from = client.frames.length;
      client.send(1, client.lastSeq);
      await client.waitFor(`ACK ${i}`, (frame) => frame.op === 11, { from });
    }
    assert.ok(messages.length >= 4);
    assert.ok(messages.every((message) => message.binary && message.flushed));
    assert.equal(client.binaryMessages, client.frames.length);
  });

  it('compresses large payloads one by one after Identify with compress: true', async () => {
    // A user of its own: SESSIONS_REPLACE after READY lists every live session of the user, and Alice's
    // many sessions from the tests above would make it a large (compressed) payload too.
    const carl = await registerUser(server.api, 'carl');
    await createGuild(server.api, carl.token, 'x'.repeat(90));
    const client = await connect(server.gatewayUrl);
    const ready = await client.identify(carl.token, { compress: true });
    assert.equal((ready['guilds'] as unknown[]).length, 1);
    assert.equal(client.binaryMessages, 1); // READY; Hello came before Identify, uncompressed
    client.send(1, client.lastSeq);
    await client.waitFor('small ACK, uncompressed', (frame) => frame.op === 11);
    assert.equal(client.binaryMessages, 1);
  });
});

describe('gateway heartbeat deadline', () => {
  let server: TestServer;

  before(async () => {
    server = await startTestServer({ CHORUS_HEARTBEAT_INTERVAL_MS: '200' });
  });
  after(async () => {
    await server.stop();
  });

  it('closes a socket that stops heartbeating with 4009', async () => {
    const client = await GatewayClient.connect(server.gatewayUrl);
    const closed = await client.closed;
    assert.equal(closed.code, 4009);
  });

  it('keeps a socket that heartbeats in time', async () => {
    const client = await GatewayClient.connect(server.gatewayUrl, { autoHeartbeat: true });
    const hello = await client.waitFor<{ heartbeat_interval: number }>('Hello', (frame) => frame.op === 10);
    await client.waitFor('three ACKs', () => client.frames.filter((frame) => frame.op === 11).length >= 3, {
      timeoutMs: hello.d.heartbeat_interval * 6,
    });
    assert.equal(client.ws.readyState, client.ws.OPEN);
    await client.close();
  });
});
