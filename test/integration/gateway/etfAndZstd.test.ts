import assert from 'node:assert/strict';
import { after, before, describe, it } from 'mocha';
import { GatewayClient, type GatewayConnectOptions } from '../../support/GatewayClient.js';
import { erlpack } from '../../support/gatewayCodecs.js';
import { api, registerUser, startTestServer, type TestServer, type TestUser } from '../../support/testServer.js';
import { createGuild, postMessage, type TestGuild } from './gatewayFixtures.js';

const ETF: GatewayConnectOptions = { query: 'v=10&encoding=etf', etf: true };
const ZSTD_MAGIC = Buffer.from([0x28, 0xb5, 0x2f, 0xfd]);

/**
 * `encoding=etf` (read and written with erlpack, the desktop client's codec) and `compress=zstd-stream`
 * (read with fzstd, a pure-JS streaming decoder, one WebSocket message at a time), alone and together.
 */
describe('gateway encoding=etf and compress=zstd-stream', () => {
  let server: TestServer;
  let alice: TestUser;
  let guild: TestGuild;

  before(async () => {
    server = await startTestServer();
    alice = await registerUser(server.api, 'alice');
    guild = await createGuild(server.api, alice.token, 'terms');
  });
  after(async () => {
    await server.stop();
  });

  /** Identify → READY → one MESSAGE_CREATE posted over HTTP → a heartbeat ACK; returns the client, still open. */
  async function throughAMessage(options: GatewayConnectOptions): Promise<GatewayClient> {
    const { client, ready } = await GatewayClient.identified(
      server.gatewayUrl,
      alice.token,
      { intents: 1537 },
      options,
    );
    assert.equal((ready['user'] as { id: string }).id, alice.id);
    assert.equal(typeof ready['session_id'], 'string');
    assert.deepEqual(
      (ready['guilds'] as { id: string }[]).map((g) => g.id),
      [guild.id],
    );
    const posted = await postMessage(server.api, alice.token, guild.channelId, `héllo ☃ ${String(Date.now())}`);
    const created = await client.waitForDispatch<{ id: string; content: string; channel_id: string; tts: boolean }>(
      'MESSAGE_CREATE',
      (d) => d.id === posted.id,
    );
    assert.equal(created.d.content, posted.content);
    assert.equal(created.d.channel_id, guild.channelId);
    assert.equal(created.d.tts, false);
    const from = client.frames.length;
    client.send(1, client.lastSeq);
    await client.waitFor('heartbeat ACK', (frame) => frame.op === 11, { from });
    return client;
  }

  it('etf: binary frames both ways through READY, a dispatch and heartbeats', async () => {
    const client = await throughAMessage(ETF);
    assert.equal(client.binaryMessages, client.frames.length); // every frame binary, each one erlpack term
    assert.equal(client.frames[0]?.op, 10);
    await client.close();
  });

  it('etf: a dropped session resumes on a new ETF socket and replays what it missed', async () => {
    const { client, ready } = await GatewayClient.identified(server.gatewayUrl, alice.token, {}, ETF);
    const seq = client.lastSeq ?? 0;
    await client.drop();
    const missed = await postMessage(server.api, alice.token, guild.channelId, 'while away');
    const again = await GatewayClient.connect(server.gatewayUrl, ETF);
    await again.waitFor('Hello', (frame) => frame.op === 10);
    again.send(6, { token: alice.token, session_id: ready['session_id'], seq });
    await again.waitForDispatch('RESUMED');
    const replayed = again.dispatches<{ id: string }>('MESSAGE_CREATE').map((frame) => frame.d.id);
    assert.deepEqual(replayed, [missed.id]);
    await again.close();
  });

  it('etf with zlib-stream: terms inside the one deflate stream', async () => {
    const client = await throughAMessage({ ...ETF, zlibStream: true });
    assert.equal(client.binaryMessages, client.frames.length);
    await client.close();
  });

  for (const [name, options] of [
    ['json', {}],
    ['etf', ETF],
  ] as const) {
    it(`zstd-stream with ${name}: one zstd frame for the socket, each message one payload on arrival`, async () => {
      const client = await GatewayClient.connect(server.gatewayUrl, { ...options, zstdStream: true });
      await client.waitFor('Hello', (frame) => frame.op === 10);
      const ready = await client.identify(alice.token, { intents: 513 });
      assert.equal((ready['user'] as { id: string }).id, alice.id);
      const posted = await postMessage(server.api, alice.token, guild.channelId, `zstd ${name}`);
      await client.waitForDispatch<{ id: string }>('MESSAGE_CREATE', (d) => d.id === posted.id);
      for (let i = 0; i < 3; i += 1) {
        const from = client.frames.length;
        client.send(1, client.lastSeq);
        await client.waitFor(`ACK ${String(i)}`, (frame) => frame.op === 11, { from });
      }
      // Each message decoded alone into exactly one payload (the reader parses it on arrival), and only
      // the first starts a zstd frame: later messages continue it, history included.
      assert.equal(client.binaryMessages, client.frames.length);
      const messages = client.binaryData;
      assert.ok(messages[0]?.subarray(0, 4).equals(ZSTD_MAGIC));
      assert.ok(messages.slice(1).every((message) => !message.subarray(0, 4).equals(ZSTD_MAGIC)));
      await client.close();
    });
  }

  it('etf and json sessions of one user receive the same dispatches, field for field', async () => {
    const jsonSide = await throughAMessage({});
    const etfSide = await throughAMessage(ETF);
    const marks = [jsonSide.frames.length, etfSide.frames.length] as const;
    const posted = await postMessage(server.api, alice.token, guild.channelId, 'both encodings');
    const messagePath = `/channels/${guild.channelId}/messages/${posted.id}`;
    await api(server.api, 'PATCH', messagePath, { token: alice.token, body: { content: 'edited' } });
    await api(server.api, 'PATCH', `/channels/${guild.channelId}`, { token: alice.token, body: { topic: 'terms' } });
    await api(server.api, 'PUT', `${messagePath}/reactions/%F0%9F%91%8D/@me`, { token: alice.token, expect: 204 });
    await api(server.api, 'DELETE', messagePath, { token: alice.token, expect: 204 });
    const events = ['MESSAGE_CREATE', 'MESSAGE_UPDATE', 'CHANNEL_UPDATE', 'MESSAGE_REACTION_ADD', 'MESSAGE_DELETE'];
    const seen = await Promise.all(
      [jsonSide, etfSide].map(async (client, side) => {
        await client.waitForDispatch('MESSAGE_DELETE', () => true, { from: marks[side] ?? 0 });
        return client.frames
          .slice(marks[side] ?? 0)
          .filter((frame) => frame.op === 0 && events.includes(frame.t ?? ''));
      }),
    );
    const [fromJson, fromEtf] = seen.map((frames) => frames.map((frame) => ({ t: frame.t, d: frame.d })));
    assert.deepEqual(
      fromJson?.map((frame) => frame.t),
      events,
    );
    assert.deepEqual(fromEtf, fromJson);
    await jsonSide.close();
    await etfSide.close();
  });

  it('etf op 8 with guild_id as a 64-bit integer is read as the snowflake string', async () => {
    const client = await throughAMessage(ETF);
    // erlpack cannot pack a BigInt, so this one term is written by hand: {op: 8, d: {guild_id: <big>, ...}}.
    const bin = (text: string): number[] => [109, 0, 0, 0, text.length, ...Buffer.from(text)];
    const big = Buffer.alloc(8);
    big.writeBigUInt64LE(BigInt(guild.id));
    const term = Buffer.from([
      ...[131, 116, 0, 0, 0, 2, ...bin('op'), 97, 8, ...bin('d'), 116, 0, 0, 0, 4],
      ...[...bin('guild_id'), 110, 8, 0, ...big],
      ...[...bin('query'), ...bin(''), ...bin('limit'), 97, 0, ...bin('nonce'), ...bin('big')],
    ]);
    client.sendRaw(term);
    const chunk = await client.waitForDispatch<{ guild_id: string; nonce: string; members: unknown[] }>(
      'GUILD_MEMBERS_CHUNK',
      (d) => d.nonce === 'big',
    );
    assert.equal(chunk.d.guild_id, guild.id);
    assert.ok(chunk.d.members.length >= 1);
    await client.close();
  });

  it('garbage or truncated terms close 4002; other sessions go on', async () => {
    const bystander = await throughAMessage(ETF);
    const whole = erlpack.pack({ op: 1, d: null });
    const bad = [
      Buffer.from('{"op":1,"d":null}'), // JSON on an ETF socket
      whole.subarray(0, whole.length - 2), // truncated
      Buffer.from([131, 116, 0, 0, 0, 1, 115, 2, 111, 112, 97, 1]), // atom map key
      Buffer.from([131, 108, 255, 255, 255, 255, 97, 1]), // list longer than the message
      Buffer.from([
        131,
        ...Array<number>(100)
          .fill(0)
          .flatMap(() => [108, 0, 0, 0, 1]),
      ]), // nested past the limit
    ];
    for (const message of bad) {
      const client = await GatewayClient.connect(server.gatewayUrl, ETF);
      await client.waitFor('Hello', (frame) => frame.op === 10);
      client.sendRaw(message);
      assert.equal((await client.closed).code, 4002, message.toString('hex'));
    }
    const posted = await postMessage(server.api, alice.token, guild.channelId, 'still here');
    await bystander.waitForDispatch<{ id: string }>('MESSAGE_CREATE', (d) => d.id === posted.id);
    await bystander.close();
  });

  it('etf Identify with erlpack floats and ints goes through the same checks as JSON', async () => {
    const client = await GatewayClient.connect(server.gatewayUrl, ETF);
    await client.waitFor('Hello', (frame) => frame.op === 10);
    // Unknown intent bits: refused 4013 exactly as the JSON path refuses them.
    client.send(2, { token: alice.token, properties: { os: 'linux' }, intents: 1 << 30 });
    assert.equal((await client.closed).code, 4013);
    const ok = await GatewayClient.connect(server.gatewayUrl, ETF);
    const ready = await ok.identify(alice.token, { presence: { since: 1700000000123, status: 'online', afk: false } });
    assert.equal((ready['user'] as { id: string }).id, alice.id);
    await ok.close();
  });
});
