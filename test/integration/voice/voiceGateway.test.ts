import { startLoopbackVoiceServer } from './loopbackVoiceServer.js';
import assert from 'node:assert/strict';
import { createSocket } from 'node:dgram';
import { once } from 'node:events';
import { connect as connectTcp } from 'node:net';
import { randomBytes } from 'node:crypto';
import { voiceGrant, type VoiceGrant } from '../../support/voiceGrant.js';
import { type RunningVoiceServer } from '../../../src/voice/VoiceServer.js';
import { VoiceEncryptionMode } from '../../../src/voice/voiceProtocol.js';
import { RawVoiceClient } from './rawVoiceClient.js';

const SECRET = 'voice-test-secret';
const GUILD = '100000000000000001';
/** Each test talks in a channel of its own, so members left by another test stay out of it. */
let channel = 100000000000000000n;
const ALICE = '200000000000000001';
const BOB = '200000000000000002';

let sessionCounter = 0;

/** A gateway session's voice grant: the token VOICE_SERVER_UPDATE would carry, and the Identify that uses it. */
function grant(userId: string, channelId = String(channel), sessionId = `session${(sessionCounter += 1)}`): VoiceGrant {
  return voiceGrant(SECRET, { userId, sessionId, guildId: GUILD, channelId }, { maxDaveVersion: 1 });
}

async function startServer(heartbeatIntervalMs = 41_250): Promise<RunningVoiceServer> {
  return startLoopbackVoiceServer(SECRET, { heartbeatIntervalMs });
}

describe('voice gateway and UDP media (raw client)', function () {
  let server: RunningVoiceServer;
  const clients: RawVoiceClient[] = [];
  const connect = async (query = '?v=8', secure = true): Promise<RawVoiceClient> => {
    const scheme = secure ? 'wss' : 'ws';
    const client = await RawVoiceClient.connect(`${scheme}://${server.endpoint}/${query}`, server.tls.cert);
    clients.push(client);
    return client;
  };

  before(async () => {
    server = await startServer();
  });
  beforeEach(() => {
    channel += 1n;
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });
  after(async () => {
    await server.close();
  });

  it('two members exchange speaking and encrypted audio, each receiving the other byte-identical under its own key', async () => {
    const alice = await connect('?v=8', true);
    const bob = await connect('?v=8', false); // wss and ws on one port
    const aliceGrant = grant(ALICE);
    const ready = await alice.join(aliceGrant.identify, VoiceEncryptionMode.aesGcm);
    assert.deepEqual((ready.d as { modes: string[] }).modes, [VoiceEncryptionMode.aesGcm, VoiceEncryptionMode.xchacha]);
    assert.equal(typeof ready.seq, 'number');
    await bob.join(grant(BOB).identify, VoiceEncryptionMode.xchacha);
    assert.deepEqual((await alice.nextOf(11)).d, { user_ids: [BOB] });
    assert.deepEqual((await bob.nextOf(11)).d, { user_ids: [ALICE] });
    // Bob learns Alice's ssrc before any audio, then her speaking flag.
    assert.deepEqual((await bob.nextOf(5)).d, { user_id: ALICE, ssrc: alice.ssrc, speaking: 0 });
    alice.send(5, { speaking: 1, delay: 0, ssrc: alice.ssrc });
    assert.deepEqual((await bob.nextOf(5)).d, { user_id: ALICE, ssrc: alice.ssrc, speaking: 1 });

    const frames = [randomBytes(60), randomBytes(90), Buffer.from([0xf8, 0xff, 0xfe])];
    for (const frame of frames) alice.sendAudio(frame, server.port);
    for (const frame of frames) assert.deepEqual(await bob.receiveAudio(), { ssrc: alice.ssrc, payload: frame });
    const reply = randomBytes(50);
    bob.sendAudio(reply, server.port);
    assert.deepEqual(await alice.receiveAudio(), { ssrc: bob.ssrc, payload: reply });
  });

  it("a UDP member's op 5 naming another ssrc before it selects udp does not change the ssrc others are told", async () => {
    const alice = await connect('?v=8', false);
    await alice.nextOf(8);
    alice.send(0, grant(ALICE).identify);
    const { ssrc, port } = (await alice.nextOf(2)).d as { ssrc: number; port: number };
    alice.ssrc = ssrc;
    alice.send(5, { speaking: 0, delay: 0, ssrc: ssrc + 1 });
    const own = await alice.discover(port);
    alice.send(1, {
      protocol: 'udp',
      data: { address: own.address, port: own.port, mode: VoiceEncryptionMode.aesGcm },
    });
    await alice.nextOf(4);
    const bob = await connect('?v=8', false);
    await bob.join(grant(BOB).identify, VoiceEncryptionMode.aesGcm);
    assert.deepEqual((await bob.nextOf(5)).d, { user_id: ALICE, ssrc, speaking: 0 });
  });

  it('a forged token, a token for another user and a reused token are refused with 4004', async () => {
    const forged = await connect();
    await forged.nextOf(8);
    forged.send(0, { ...grant(ALICE).identify, token: 'bm90LWEtdG9rZW4.c2lnbmF0dXJl' });
    assert.equal((await forged.closed).code, 4004);

    const wrongUser = await connect();
    await wrongUser.nextOf(8);
    wrongUser.send(0, { ...grant(ALICE).identify, user_id: BOB });
    assert.equal((await wrongUser.closed).code, 4004);

    const once = grant(BOB);
    const first = await connect();
    await first.join(once.identify, VoiceEncryptionMode.aesGcm);
    const replayed = await connect();
    await replayed.nextOf(8);
    replayed.send(0, once.identify);
    assert.equal((await replayed.closed).code, 4004);
  });

  it('answers heartbeats: v8 {t, seq_ack} with {t}, a legacy numeric nonce echoed; no seq without ?v=8', async () => {
    const v8 = await connect('?v=8');
    await v8.nextOf(8);
    v8.send(3, { t: 1234, seq_ack: -1 });
    assert.deepEqual(await v8.nextOf(6), { op: 6, d: { t: 1234 } });
    const legacy = await connect('', false); // Spacebar's web client: ws://, no version
    const hello = await legacy.nextOf(8);
    assert.equal((hello.d as { heartbeat_interval: number }).heartbeat_interval, 41_250);
    legacy.send(3, 10);
    assert.deepEqual(await legacy.nextOf(6), { op: 6, d: 10 });
    legacy.send(0, grant(ALICE).identify);
    assert.equal((await legacy.nextOf(2)).seq, undefined);
  });

  it('closes with the documented codes: 4003 before identify, 4005 twice, 4001, 4002, 4012, 4016', async () => {
    const early = await connect();
    early.send(1, { protocol: 'udp', data: { address: '127.0.0.1', port: 1, mode: VoiceEncryptionMode.aesGcm } });
    assert.equal((await early.closed).code, 4003);

    const twice = await connect();
    const twiceGrant = grant(ALICE);
    await twice.nextOf(8);
    twice.send(0, twiceGrant.identify);
    await twice.nextOf(2);
    twice.send(0, twiceGrant.identify);
    assert.equal((await twice.closed).code, 4005);

    const unknownOp = await connect();
    unknownOp.send(42, {});
    assert.equal((await unknownOp.closed).code, 4001);

    const garbage = await connect();
    garbage.ws.send('{not json');
    assert.equal((await garbage.closed).code, 4002);

    const badIdentify = await connect();
    badIdentify.send(0, { server_id: GUILD });
    assert.equal((await badIdentify.closed).code, 4002);

    for (const [select, code] of [
      [{ protocol: 'carrier-pigeon', data: {} }, 4012],
      [{ protocol: 'udp', data: { address: '127.0.0.1', port: 1, mode: 'xsalsa20_poly1305' } }, 4016],
    ] as const) {
      const client = await connect();
      await client.nextOf(8);
      client.send(0, grant(BOB).identify);
      await client.nextOf(2);
      client.send(1, select);
      assert.equal((await client.closed).code, code);
    }
  });

  it('a resumed socket gets op 9, the numbered messages it missed, and keeps its ssrc, key and UDP flow', async () => {
    const alice = await connect();
    const bob = await connect();
    const aliceGrant = grant(ALICE);
    await alice.join(aliceGrant.identify, VoiceEncryptionMode.xchacha);
    await bob.join(grant(BOB).identify, VoiceEncryptionMode.aesGcm);
    await alice.nextOf(11);
    const seqAck = alice.lastSeq;
    alice.ws.terminate();
    await alice.closed;
    bob.send(5, { speaking: 1, delay: 0, ssrc: bob.ssrc }); // sent while Alice is away

    const again = await connect();
    await again.nextOf(8);
    const { server_id, session_id } = aliceGrant.identify;
    again.send(7, { server_id, session_id, token: aliceGrant.token, seq_ack: seqAck });
    assert.deepEqual(await again.next(), { op: 9, d: null });
    const missed = await again.next();
    assert.equal(missed.op, 5);
    assert.equal(missed.seq, seqAck + 1);
    assert.deepEqual(missed.d, { user_id: BOB, ssrc: bob.ssrc, speaking: 1 });
    const frame = randomBytes(40);
    bob.sendAudio(frame, server.port);
    assert.deepEqual(await alice.receiveAudio(), { ssrc: bob.ssrc, payload: frame });

    const stranger = await connect();
    await stranger.nextOf(8);
    stranger.send(7, { server_id, session_id, token: grant(ALICE).token, seq_ack: 0 });
    assert.equal((await stranger.closed).code, 4006);
  });

  it('a gateway session identifying again (a channel move) replaces its media session; its old channel sees it leave', async () => {
    const alice = await connect();
    const bob = await connect();
    const first = grant(ALICE);
    await alice.join(first.identify, VoiceEncryptionMode.aesGcm);
    await bob.join(grant(BOB).identify, VoiceEncryptionMode.aesGcm);
    const moved = await connect();
    const elsewhere = String((channel += 1n));
    await moved.join(
      grant(ALICE, elsewhere, String(first.identify['session_id'])).identify,
      VoiceEncryptionMode.aesGcm,
    );
    assert.deepEqual((await bob.nextOf(13)).d, { user_id: ALICE });
    assert.equal((await alice.closed).code, 4006);
  });

  it('drops malformed datagrams, unknown ssrcs and packets from another address, and keeps forwarding', async () => {
    const alice = await connect();
    const bob = await connect();
    await alice.join(grant(ALICE).identify, VoiceEncryptionMode.aesGcm);
    await bob.join(grant(BOB).identify, VoiceEncryptionMode.aesGcm);
    const droppedBefore = server.stats.dropped;
    const header = Buffer.from([0x80, 0x78, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0]);
    alice.udp.send(Buffer.from('hello'), server.port, '127.0.0.1');
    alice.udp.send(Buffer.concat([header, randomBytes(40)]), server.port, '127.0.0.1'); // ssrc 0: unknown
    const forgedHeader = Buffer.from(header);
    forgedHeader.writeUInt32BE(alice.ssrc, 8);
    alice.udp.send(Buffer.concat([forgedHeader, randomBytes(40)]), server.port, '127.0.0.1'); // does not open
    const impostor = createSocket('udp4');
    impostor.bind(0, '127.0.0.1');
    impostor.send(Buffer.concat([forgedHeader, randomBytes(40)]), server.port, '127.0.0.1');
    const frame = randomBytes(30);
    alice.sendAudio(frame, server.port);
    assert.deepEqual(await bob.receiveAudio(), { ssrc: alice.ssrc, payload: frame });
    assert.ok(server.stats.dropped - droppedBefore >= 3, `dropped ${server.stats.dropped - droppedBefore}`);
    impostor.close();
  });
});

describe('voice port robustness', () => {
  it('garbage on the TCP port, TLS or plain, is dropped and the port keeps serving both', async () => {
    const server = await startServer();
    try {
      for (const garbage of [Buffer.from([0x16, 0x03, 0x01, 0xff, 0xff, 1, 2, 3]), Buffer.from('NOT HTTP\r\n\r\n')]) {
        const socket = connectTcp(server.port, '127.0.0.1');
        await once(socket, 'connect');
        socket.on('error', () => undefined);
        socket.resume(); // read whatever the server answers, so its close arrives
        socket.end(garbage);
        await once(socket, 'close');
      }
      for (const scheme of ['ws', 'wss']) {
        const client = await RawVoiceClient.connect(`${scheme}://${server.endpoint}/?v=8`, server.tls.cert);
        assert.equal((await client.nextOf(8)).op, 8);
        await client.close();
      }
    } finally {
      await server.close();
    }
  });
});

describe('voice members that vanish', () => {
  it('a member silent past the heartbeat window is removed and the others get op 13', async () => {
    channel += 1n;
    const server = await startServer(100);
    const url = `ws://${server.endpoint}/?v=8`;
    const alice = await RawVoiceClient.connect(url);
    const bob = await RawVoiceClient.connect(url);
    await alice.join(grant(ALICE).identify, VoiceEncryptionMode.aesGcm);
    await bob.join(grant(BOB).identify, VoiceEncryptionMode.aesGcm);
    // Bob keeps heartbeating as a live client does; Alice falls silent.
    const beat = setInterval(() => {
      bob.send(3, { t: Date.now(), seq_ack: bob.lastSeq });
    }, 50);
    try {
      assert.deepEqual((await bob.nextOf(13)).d, { user_id: ALICE });
      assert.equal((await alice.closed).code, 4009);
    } finally {
      clearInterval(beat);
      await Promise.all([alice.close(), bob.close()]);
      await server.close();
    }
  });
});
