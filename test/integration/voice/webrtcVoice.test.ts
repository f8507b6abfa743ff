import { startLoopbackVoiceServer } from './loopbackVoiceServer.js';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { once } from 'node:events';
import { voiceGrant } from '../../support/voiceGrant.js';
import { type RunningVoiceServer } from '../../../src/voice/VoiceServer.js';
import { VoiceEncryptionMode } from '../../../src/voice/voiceProtocol.js';
import { RawVoiceClient } from './rawVoiceClient.js';
import { fragmentOf, readTemplate } from './webrtcSignalling.js';
import { WebRtcVoiceClient } from './webrtcVoiceClient.js';

const SECRET = 'webrtc-test-secret';
const GUILD = '100000000000000001';
let channel = 300000000000000000n;
let userCounter = 400000000000000000n;
let sessionCounter = 0;

/** A fresh user's Identify for the current test's channel, with a token as VOICE_SERVER_UPDATE would carry. */
function identifyFor(): Record<string, unknown> {
  const userId = String((userCounter += 1n));
  const sessionId = `webrtc-session${(sessionCounter += 1)}`;
  const grantee = { userId, sessionId, guildId: GUILD, channelId: String(channel) };
  return voiceGrant(SECRET, grantee, { maxDaveVersion: 0 }).identify;
}

/** Whether a UDP port on loopback can be bound again (the peer connection that held it released it). */
async function portIsFree(port: number): Promise<boolean> {
  const socket = createSocket('udp4');
  try {
    socket.bind(port, '127.0.0.1');
    await once(socket, 'listening');
    return true;
  } catch {
    return false;
  } finally {
    socket.close();
  }
}

describe('WebRTC voice: werift peers as web clients, bridged to UDP clients', function () {
  let server: RunningVoiceServer;
  const closers: (() => Promise<void>)[] = [];

  before(async () => {
    server = await startLoopbackVoiceServer(SECRET);
  });
  beforeEach(() => {
    channel += 1n;
  });
  afterEach(async () => {
    await Promise.all(closers.splice(0).map((close) => close()));
  });
  after(async () => {
    await server.close();
  });

  async function webClient(): Promise<WebRtcVoiceClient> {
    const client = await WebRtcVoiceClient.connect(`wss://${server.endpoint}/?v=8`, server.tls.cert);
    closers.push(() => client.close());
    return client;
  }

  async function rawClient(): Promise<RawVoiceClient> {
    const client = await RawVoiceClient.connect(`wss://${server.endpoint}/?v=8`, server.tls.cert);
    closers.push(() => client.close());
    return client;
  }

  it('answers op 1 webrtc with an SDP template of one host candidate and a DTLS fingerprint, and connects', async () => {
    const web = await webClient();
    const description = await web.join(identifyFor());
    const d = description.d as Record<string, unknown>;
    assert.equal(d['audio_codec'], 'opus');
    assert.equal(typeof d['media_session_id'], 'string');
    assert.equal(d['secret_key'], undefined);
    const template = readTemplate(d['sdp'] as string);
    assert.equal(template.address, '127.0.0.1');
    assert.match(template.candidate, /^1 1 UDP \d+ 127\.0\.0\.1 \d+ typ host$/);
    assert.match(template.fingerprint, /^sha-256 ([0-9A-F]{2}:)+[0-9A-F]{2}$/);
    assert.equal(web.pc.connectionState, 'connected');
    web.voice.send(16, {});
    assert.deepEqual(Object.keys((await web.voice.nextOf(16)).d as object).sort(), ['rtc_worker', 'voice']);
  });

  it('a UDP client hears a web client, and the web client hears the UDP client, payloads intact', async () => {
    const web = await webClient();
    await web.join(identifyFor());
    const raw = await rawClient();
    await raw.join(identifyFor(), VoiceEncryptionMode.aesGcm);
    const video = (await raw.nextOf(12)).d as { audio_ssrc: number; video_ssrc: number };
    assert.deepEqual([video.audio_ssrc, video.video_ssrc], [web.ssrc, 0], "the browser's op 12, its own ssrc");
    web.speak();
    const speaking = await raw.nextOf(5);
    assert.equal((speaking.d as { ssrc: number }).ssrc, web.ssrc, 'the UDP client is told the browser ssrc');

    const frames = Array.from({ length: 50 }, () => randomBytes(60));
    for (const frame of frames) await web.sendOpus(frame);
    let heard = 0;
    for (let i = 0; i < frames.length; i++) {
      const packet = await Promise.race([
        raw.receiveAudio(),
        new Promise<undefined>((resolve) => setTimeout(resolve, 2_000, undefined)),
      ]);
      if (!packet) break;
      assert.equal(packet.ssrc, web.ssrc);
      if (frames.some((frame) => frame.equals(packet.payload))) heard++;
    }
    assert.ok(heard >= 45, `the UDP client heard ${heard} of 50 frames`);

    raw.send(5, { speaking: 1, delay: 0, ssrc: raw.ssrc });
    const back = Array.from({ length: 50 }, () => randomBytes(60));
    const port = server.port;
    for (const frame of back) {
      raw.sendAudio(frame, port);
      await new Promise((resolve) => setImmediate(resolve));
    }
    const received = await web.receivedAtLeast(45, 5_000);
    const intact = received.filter((rtp) => back.some((frame) => frame.equals(rtp.payload))).length;
    assert.ok(intact >= 45, `the web client heard ${intact} of 50 frames`);
  });

  it('refuses a webrtc select before identify (4003), an oversized SDP, a garbage fragment and a flood of selects (4002)', async () => {
    const early = await rawClient();
    await early.nextOf(8);
    early.send(1, { protocol: 'webrtc', data: 'a=ice-ufrag:abcd', codecs: [] });
    assert.equal((await early.closed).code, 4003);

    const oversized = await rawClient();
    await oversized.nextOf(8);
    oversized.send(0, identifyFor());
    await oversized.nextOf(2);
    oversized.send(1, { protocol: 'webrtc', data: `a=ice-ufrag:abcd\n${'a=x'.repeat(6_000)}` });
    assert.equal((await oversized.closed).code, 4002);

    const garbage = await rawClient();
    await garbage.nextOf(8);
    garbage.send(0, identifyFor());
    await garbage.nextOf(2);
    garbage.send(1, { protocol: 'webrtc', data: 'm=audio\r\n\u0000not sdp at all\na=fingerprint:md5 zz', sdp: 'x' });
    assert.equal((await garbage.closed).code, 4002);

    // A flood of selects: the first is answered, the next ones (while it is) close the socket 4002.
    const flood = await webClient();
    await flood.voice.nextOf(8);
    flood.voice.send(0, identifyFor());
    await flood.voice.nextOf(2);
    await flood.pc.setLocalDescription(await flood.pc.createOffer());
    const fragment = fragmentOf(flood.pc.localDescription?.sdp ?? '');
    for (let i = 0; i < 20; i++) flood.voice.send(1, { protocol: 'webrtc', data: fragment });
    assert.equal((await flood.voice.closed).code, 4002);
  });

  it("drops garbage datagrams at a web client's port, from anyone and from the client itself, and keeps forwarding", async () => {
    const speaker = await webClient();
    const description = await speaker.join(identifyFor());
    const listener = await webClient();
    await listener.join(identifyFor());
    // The listener hears the speaker under the ssrc of its own server-side sender: op 5 and op 12 agree on it.
    const present = (await listener.voice.nextOf(5)).d as { ssrc: number };
    const video = (await listener.voice.nextOf(12)).d as { audio_ssrc: number };
    assert.equal(video.audio_ssrc, present.ssrc);
    assert.notEqual(present.ssrc, speaker.ssrc);
    const { port } = readTemplate((description.d as { sdp: string }).sdp);
    const attacker = createSocket('udp4');
    const junk = [Buffer.alloc(0), randomBytes(3), Buffer.from([0x80, 0x6f, 0, 1]), randomBytes(1_200)];
    junk.push(Buffer.concat([Buffer.from([0x80, 0xc8]), randomBytes(30)])); // RTCP-shaped
    for (const datagram of junk) attacker.send(datagram, port, '127.0.0.1');
    attacker.close();
    // The same junk from the speaker's own ICE-validated address (it passes ICE, then fails SRTP or RTP parsing).
    const own = speaker.audio.sender.dtlsTransport.iceTransport.connection as unknown as {
      send(data: Buffer): Promise<void>;
    };
    for (const datagram of [...junk, Buffer.from([0x17, 0xfe, 0xfd, 0, 0])]) await own.send(datagram);
    speaker.speak();
    const frames = Array.from({ length: 50 }, () => randomBytes(80));
    for (const frame of frames) {
      await speaker.sendOpus(frame);
      await new Promise((resolve) => setImmediate(resolve));
    }
    const received = await listener.receivedAtLeast(50, 5_000);
    const intact = received.filter((rtp) => frames.some((frame) => frame.equals(rtp.payload))).length;
    assert.ok(intact >= 45, `the listener got ${intact} of 50 frames`);
  });

  it('a web receiver hears two speakers at once, each intact on the ssrc op 5 named for that user, with its sender reports', async () => {
    const identities = [identifyFor(), identifyFor()];
    const speakers = [await webClient(), await webClient()];
    for (const [index, speaker] of speakers.entries()) await speaker.join(identities[index] as Record<string, unknown>);
    const listener = await webClient();
    await listener.join(identifyFor());
    for (const speaker of speakers) speaker.speak();
    const users = identities.map((identity) => identity.user_id as string);
    const frames = speakers.map(() => Array.from({ length: 30 }, () => randomBytes(50)));
    for (let i = 0; i < 30; i++) {
      // Interleaved, as two people talking at the same moment.
      for (const [index, speaker] of speakers.entries()) await speaker.sendOpus(frames[index]?.[i] as Buffer);
      await new Promise((resolve) => setImmediate(resolve));
    }
    const heard = await listener.receivedAtLeast(60, 5_000);
    const ssrcs = users.map((user) => listener.audioSsrcOf.get(user));
    assert.ok(ssrcs.every((ssrc) => ssrc !== undefined) && ssrcs[0] !== ssrcs[1], `two ssrcs: ${ssrcs.join(', ')}`);
    for (const [index, ssrc] of ssrcs.entries()) {
      const stream = heard.filter((rtp) => rtp.header.ssrc === ssrc);
      const intact = stream.filter((rtp, at) => rtp.payload.equals(frames[index]?.[at] as Buffer)).length;
      assert.ok(intact >= 27, `speaker ${index}: ${intact} of 30 frames intact and in order on ssrc ${ssrc}`);
      const steps = stream
        .slice(1)
        .map((rtp, at) => (rtp.header.sequenceNumber - (stream[at]?.header.sequenceNumber ?? 0)) & 0xffff);
      assert.ok(
        steps.every((step) => step === 1),
        `speaker ${index}: sequence numbers continue one by one`,
      );
    }
    // Each speaker's sender report reaches the listener as the report of that speaker's stream, on the same clock.
    for (const ssrc of ssrcs) {
      const report = await listener.reportOn(ssrc ?? 0, 5_000);
      const timestamps = heard.filter((rtp) => rtp.header.ssrc === ssrc).map((rtp) => rtp.header.timestamp);
      assert.ok(report && timestamps.includes(report.senderInfo.rtpTimestamp), `a sender report on ${ssrc}`);
      assert.equal(report.senderInfo.packetCount, 30);
    }
  });

  it("binds a web client's peer connection inside the configured RTC port range", async () => {
    const min = 42_000 + Math.floor(Math.random() * 2_000);
    const ranged = await startLoopbackVoiceServer(SECRET, { tls: server.tls, rtcPortRange: [min, min + 20] });
    closers.push(() => ranged.close());
    const web = await WebRtcVoiceClient.connect(`wss://${ranged.endpoint}/?v=8`, ranged.tls.cert);
    closers.push(() => web.close());
    const { port } = readTemplate(((await web.join(identifyFor())).d as { sdp: string }).sdp);
    assert.ok(port >= min && port <= min + 20, `port ${port} is in ${min}-${min + 20}`);
  });

  it('closes with 4015 (a server failure, not the client 4002) when the RTC port range has no free port', async () => {
    const min = 44_000 + Math.floor(Math.random() * 2_000);
    const taken = [createSocket('udp4'), createSocket('udp4')];
    closers.push(() => {
      for (const socket of taken) socket.close();
      return Promise.resolve();
    });
    await Promise.all(taken.map((socket, at) => (socket.bind(min + at), once(socket, 'listening'))));
    const full = await startLoopbackVoiceServer(SECRET, { tls: server.tls, rtcPortRange: [min, min + 1] });
    closers.push(() => full.close());
    const web = await WebRtcVoiceClient.connect(`wss://${full.endpoint}/?v=8`, full.tls.cert);
    closers.push(() => web.close());
    web.join(identifyFor()).catch(() => undefined); // never answered: the server closes instead
    const closed = await web.voice.closed;
    assert.equal(closed.code, 4015, `closed ${closed.code} ${closed.reason}`);
  });

  it("closes a vanished web client's peer connection (heartbeats lapsed) and frees its UDP port", async () => {
    const quick = await startLoopbackVoiceServer(SECRET, { heartbeatIntervalMs: 1_500, tls: server.tls });
    closers.push(() => quick.close());
    const web = await WebRtcVoiceClient.connect(`wss://${quick.endpoint}/?v=8`, quick.tls.cert);
    closers.push(() => web.close());
    const description = await web.join(identifyFor());
    const { port } = readTemplate((description.d as { sdp: string }).sdp);
    assert.equal(await portIsFree(port), false, 'the peer holds its port while the member is in');
    assert.equal((await web.voice.closed).code, 4009, 'a client that sends no heartbeat is dropped');
    let free = await portIsFree(port);
    for (let attempt = 0; !free && attempt < 50; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 20)); // pc.close() releases its socket asynchronously
      free = await portIsFree(port);
    }
    assert.ok(free, `port ${port} is released`);
  });
});
