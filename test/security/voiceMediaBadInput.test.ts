import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { once } from 'node:events';
import { discoveryRequest } from '../../src/voice/ipDiscovery.js';
import type { RunningVoiceServer } from '../../src/voice/VoiceServer.js';
import { VoiceEncryptionMode } from '../../src/voice/voiceProtocol.js';
import {
  ALICE,
  BOB,
  CAROL,
  VoiceClients,
  freshChannel,
  grant,
  rtpHeader,
  sealedPacket,
  sendDatagram,
  startBadInputServer,
} from './voiceBadInputKit.js';

/** A copy of a packet with one byte changed. */
function flipped(packet: Buffer, index: number): Buffer {
  const copy = Buffer.from(packet);
  const at = index < 0 ? copy.length + index : index;
  copy[at] = (copy[at] ?? 0) ^ 0x01;
  return copy;
}

async function strangerSocket(): Promise<UdpSocket> {
  const udp = createSocket('udp4');
  udp.bind(0, '127.0.0.1');
  await once(udp, 'listening');
  return udp;
}

describe('voice media: malformed, foreign and misaddressed datagrams are dropped and counted', function () {
  let server: RunningVoiceServer;
  const clients = new VoiceClients(() => server);
  const strangers: UdpSocket[] = [];

  before(async () => {
    server = await startBadInputServer();
  });
  afterEach(async () => {
    for (const udp of strangers.splice(0)) udp.close();
    await clients.closeAll();
  });
  after(async () => {
    await server.close();
  });

  it('malformed RTP and RTCP from a member are dropped one by one; its next valid frame still reaches the others', async () => {
    const lounge = freshChannel();
    const { client: alice } = await clients.joined(ALICE, lounge);
    const { client: bob } = await clients.joined(BOB, lounge, VoiceEncryptionMode.xchacha);
    const valid = sealedPacket(alice, randomBytes(80), 1000);
    const rtcp = (type: number): Buffer => {
      const header = rtpHeader(alice.ssrc);
      header[1] = type;
      return Buffer.concat([header, randomBytes(36)]);
    };
    const versioned = (first: number): Buffer => Buffer.concat([Buffer.from([first]), valid.subarray(1)]);
    const csrcs = Buffer.concat([Buffer.from([0x8f]), valid.subarray(1, 40)]); // claims 15 CSRCs in 40 bytes
    const labelled: [string, Buffer][] = [
      ['empty', Buffer.alloc(0)],
      ['one byte', Buffer.from([0x80])],
      ['11 bytes', valid.subarray(0, 11)],
      ['header only', rtpHeader(alice.ssrc)],
      ['header and a short body', valid.subarray(0, 12 + 19)],
      ['version 0', versioned(0x00)],
      ['version 1', versioned(0x40)],
      ['version 3', versioned(0xc0)],
      ['bad tag', flipped(valid, -5)],
      ['altered ciphertext', flipped(valid, 14)],
      ['altered clear header', flipped(valid, 3)],
      ['truncated nonce', valid.subarray(0, valid.length - 2)],
      ['nonce missing', valid.subarray(0, valid.length - 4)],
      ['csrc count past the end', csrcs],
      ['extension bit on a bare header', Buffer.concat([Buffer.from([0x90]), valid.subarray(1, 15)])],
      ['unknown ssrc', Buffer.concat([valid.subarray(0, 8), Buffer.from([0, 0, 0, 0]), valid.subarray(12)])],
      ["another member's ssrc", sealedPacket(alice, randomBytes(80), 1001, bob.ssrc)],
      ['jumbo junk', Buffer.concat([rtpHeader(alice.ssrc), randomBytes(60_000)])],
      ...[200, 201, 202, 203, 204].map((type): [string, Buffer] => [`RTCP ${type}`, rtcp(type)]),
      ...Array.from({ length: 200 }, (_, index): [string, Buffer] => [`random ${index}`, randomBytes(1 + index)]),
    ];
    // Keep-alive (8) and discovery (74) sizes are handled apart; the random ones skip them.
    const garbage = labelled
      .map(([, packet]) => packet)
      .filter((packet) => packet.length !== 8 && packet.length !== 74);
    const before = { ...server.stats };
    for (const [index, packet] of garbage.entries()) {
      await sendDatagram(alice.udp, packet, server.port);
      // An answered discovery now and then: the server read all before it, so its socket buffer never overflows.
      if (index % 20 === 19) await alice.discover(server.port);
    }
    const frame = randomBytes(90);
    alice.sendAudio(frame, server.port);
    // The first datagram Bob gets is the valid frame: nothing of the garbage was forwarded.
    assert.deepEqual(await bob.receiveAudio(), { ssrc: alice.ssrc, payload: frame });
    assert.equal(server.stats.dropped - before.dropped, garbage.length);
    assert.equal(server.stats.forwarded - before.forwarded, 1);
  });

  it("a member's valid packet replayed from another address is dropped, and so is a discovery taking over its ssrc", async () => {
    const lounge = freshChannel();
    const { client: alice } = await clients.joined(ALICE, lounge);
    const { client: bob } = await clients.joined(BOB, lounge);
    const stranger = await strangerSocket();
    strangers.push(stranger);
    const before = { ...server.stats };
    // A copy of a good packet, as an on-path observer would replay it, from the stranger's address.
    await sendDatagram(stranger, sealedPacket(alice, randomBytes(60), 5000), server.port);
    // An IP discovery naming Alice's ssrc from the stranger: answering would move Alice's media there.
    await sendDatagram(stranger, discoveryRequest(alice.ssrc), server.port);
    const toAlice = randomBytes(40);
    bob.sendAudio(toAlice, server.port);
    assert.deepEqual(await alice.receiveAudio(), { ssrc: bob.ssrc, payload: toAlice });
    const fromAlice = randomBytes(40);
    alice.sendAudio(fromAlice, server.port);
    assert.deepEqual(await bob.receiveAudio(), { ssrc: alice.ssrc, payload: fromAlice });
    assert.equal(server.stats.dropped - before.dropped, 2);
    assert.equal(server.stats.forwarded - before.forwarded, 2);
  });

  it('IP discovery of a wrong length or for an unknown ssrc is dropped unanswered; a well-formed one is answered', async () => {
    const lounge = freshChannel();
    const { client: alice } = await clients.joined(ALICE, lounge);
    const request = discoveryRequest(alice.ssrc);
    const before = server.stats.dropped;
    const wrong = [
      request.subarray(0, 73),
      Buffer.concat([request, Buffer.alloc(1)]),
      Buffer.concat([request, Buffer.alloc(26)]),
      discoveryRequest(0),
      discoveryRequest((alice.ssrc + 1) >>> 0 || 1),
    ];
    for (const packet of wrong) await sendDatagram(alice.udp, packet, server.port);
    // The next datagram Alice gets answers her well-formed request: none of the others was answered.
    const own = await alice.discover(server.port);
    assert.equal(own.port, alice.udp.address().port);
    assert.equal(server.stats.dropped - before, wrong.length);
  });

  it('media never goes to an address a client only claims in Select Protocol; its first packet that opens binds it', async () => {
    const lounge = freshChannel();
    const { client: bob } = await clients.joined(BOB, lounge);
    const { client: carol } = await clients.joined(CAROL, lounge);
    const victim = await strangerSocket();
    strangers.push(victim);
    // Mallory skips IP discovery and names the victim's address as its own: a reflector aimed at the victim.
    const mallory = await clients.connect();
    await mallory.nextOf(8);
    mallory.send(0, grant(ALICE, lounge).identify);
    mallory.ssrc = ((await mallory.nextOf(2)).d as { ssrc: number }).ssrc;
    const { port } = victim.address();
    mallory.send(1, { protocol: 'udp', data: { address: '127.0.0.1', port, mode: VoiceEncryptionMode.aesGcm } });
    const description = (await mallory.nextOf(4)).d as { mode: VoiceEncryptionMode; secret_key: number[] };
    mallory.mode = description.mode;
    mallory.key = Buffer.from(description.secret_key);
    const before = server.stats.forwarded;
    const frame = randomBytes(40);
    bob.sendAudio(frame, server.port);
    // Sends to every receiver happen in one pass, counted as they go: when Carol has it, the pass is over.
    assert.deepEqual(await carol.receiveAudio(), { ssrc: bob.ssrc, payload: frame });
    assert.equal(server.stats.forwarded - before, 1, 'sent to the claimed address');
    // Mallory's own first packet (it opens with Mallory's key) binds its real address; then it hears the others.
    const hello = randomBytes(30);
    mallory.sendAudio(hello, server.port);
    assert.deepEqual(await bob.receiveAudio(), { ssrc: mallory.ssrc, payload: hello });
    const reply = randomBytes(30);
    carol.sendAudio(reply, server.port);
    assert.deepEqual(await mallory.receiveAudio(), { ssrc: carol.ssrc, payload: reply });
  });
});
