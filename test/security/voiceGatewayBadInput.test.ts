import assert from 'node:assert/strict';
import type { RunningVoiceServer } from '../../src/voice/VoiceServer.js';
import { VoiceEncryptionMode } from '../../src/voice/voiceProtocol.js';
import {
  ALICE,
  BOB,
  CAROL,
  GUILD,
  VoiceClients,
  freshChannel,
  grant,
  startBadInputServer,
} from './voiceBadInputKit.js';

describe('voice gateway refuses bad input with the documented close code and keeps serving', function () {
  let server: RunningVoiceServer;
  const clients = new VoiceClients(() => server);

  before(async () => {
    server = await startBadInputServer();
  });
  afterEach(async () => {
    await clients.closeAll();
  });
  after(async () => {
    await server.close();
  });

  /** A client past Hello that sends one op and returns the close code it got. */
  async function closeCodeOf(op: number, d: unknown): Promise<number> {
    const client = await clients.connect();
    await client.nextOf(8);
    client.send(op, d);
    return (await client.closed).code;
  }

  it('a forged, altered, expired or mismatched token is refused with 4004 (one past the schema length 4002)', async () => {
    const lounge = freshChannel();
    const good = grant(ALICE, lounge);
    const [head = '', signature = ''] = good.token.split('.');
    const flipped = `${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;
    const expired = grant(ALICE, lounge, { issuedAtMs: Date.now() - 10 * 60_000 });
    const refused = [
      { ...good.identify, token: 'bm90LWEtdG9rZW4.c2lnbmF0dXJl' },
      { ...good.identify, token: `${head}.${flipped}` },
      { ...good.identify, token: `${head}.${signature}.extra` },
      { ...good.identify, token: '' },
      expired.identify,
      { ...grant(ALICE, lounge).identify, user_id: BOB },
      { ...grant(ALICE, lounge).identify, session_id: 'someone-else' },
      { ...grant(ALICE, lounge).identify, server_id: '100000000000000777' },
    ];
    for (const identify of refused) assert.equal(await closeCodeOf(0, identify), 4004, JSON.stringify(identify));
    assert.equal(await closeCodeOf(0, { ...good.identify, token: 'x'.repeat(4000) }), 4002);
    // None of them used the good token up.
    const alice = await clients.connect();
    await alice.join(good.identify, VoiceEncryptionMode.aesGcm);
    assert.ok(alice.ssrc > 0);
  });

  it('a token identifies once: a second Identify with it, after the first, is refused 4004', async () => {
    const lounge = freshChannel();
    const once = grant(ALICE, lounge);
    const first = await clients.connect();
    await first.join(once.identify, VoiceEncryptionMode.aesGcm);
    assert.equal(await closeCodeOf(0, once.identify), 4004);
    // Also after the first socket left: the nonce stays used.
    await first.close();
    assert.equal(await closeCodeOf(0, once.identify), 4004);
  });

  it('Resume with a wrong token, an unknown session or a removed session is refused 4006', async () => {
    const lounge = freshChannel();
    const alice = await clients.joined(ALICE, lounge);
    const resume = { server_id: GUILD, session_id: alice.grant.sessionId, token: alice.grant.token, seq_ack: 0 };
    assert.equal(await closeCodeOf(7, { ...resume, token: grant(ALICE, lounge).token }), 4006);
    assert.equal(await closeCodeOf(7, { ...resume, token: 'not-a-token' }), 4006);
    assert.equal(await closeCodeOf(7, { ...resume, session_id: 'never-identified' }), 4006);
    assert.equal(await closeCodeOf(7, { ...resume, server_id: '100000000000000777' }), 4006);
    // A channel move replaces the media session: the old one's token no longer resumes anything.
    const moved = await clients.connect();
    await moved.join(
      grant(ALICE, freshChannel(), { sessionId: alice.grant.sessionId }).identify,
      VoiceEncryptionMode.aesGcm,
    );
    assert.equal((await alice.client.closed).code, 4006);
    assert.equal(await closeCodeOf(7, resume), 4006);
  });

  it('Resume without its fields is 4002; Resume or Identify on an identified socket is 4005', async () => {
    assert.equal(await closeCodeOf(7, { server_id: GUILD }), 4002);
    assert.equal(await closeCodeOf(7, 'resume'), 4002);
    const lounge = freshChannel();
    const alice = await clients.joined(ALICE, lounge);
    alice.client.send(7, { server_id: GUILD, session_id: alice.grant.sessionId, token: alice.grant.token });
    assert.equal((await alice.client.closed).code, 4005);
    const bob = await clients.joined(BOB, lounge);
    bob.client.send(0, grant(BOB, lounge).identify);
    assert.equal((await bob.client.closed).code, 4005);
  });

  it('every op but Identify, Resume and Heartbeat before identifying is refused 4003', async () => {
    const select = { protocol: 'udp', data: { address: '127.0.0.1', port: 1, mode: VoiceEncryptionMode.aesGcm } };
    for (const [op, d] of [
      [1, select],
      [5, { speaking: 1, delay: 0, ssrc: 1 }],
      [12, { audio_ssrc: 1, video_ssrc: 2, rtx_ssrc: 3 }],
    ] as const) {
      assert.equal(await closeCodeOf(op, d), 4003, `op ${op}`);
    }
  });

  it('malformed frames are refused 4002 (or 4001 for an unknown op), never a crash', async () => {
    const lounge = freshChannel();
    const cases: [string | Buffer, number][] = [
      ['{not json', 4002],
      ['[1,2,3]', 4002],
      ['"op"', 4002],
      ['null', 4002],
      ['{"op":"0","d":{}}', 4002],
      ['{"op":0,"d":[]}', 4002],
      ['{"op":0}', 4002],
      [JSON.stringify({ op: 0, d: { ...grant(ALICE, lounge).identify, token: 42 } }), 4002],
      [JSON.stringify({ op: 0, d: { ...grant(ALICE, lounge).identify, user_id: { $gt: '' } } }), 4002],
      [Buffer.from([0x7b, 0x22, 0xff, 0xfe]), 4002], // binary frame
      ['{"op":99,"d":{}}', 4001],
      ['{"op":-1,"d":{}}', 4001],
      ['{"op":1.5,"d":{}}', 4001],
    ];
    for (const [frame, code] of cases) {
      const client = await clients.connect();
      await client.nextOf(8);
      client.ws.send(frame);
      assert.equal((await client.closed).code, code, String(frame));
    }
  });

  it('bad Select Protocol and Speaking from an identified member are refused with their codes', async () => {
    const lounge = freshChannel();
    const cases: [number, unknown, number][] = [
      [1, { protocol: 'udp', data: { address: '127.0.0.1', port: 'x', mode: VoiceEncryptionMode.aesGcm } }, 4002],
      [1, { protocol: 'udp', data: 'a=candidate' }, 4002],
      [1, { protocol: 'udp' }, 4002],
      [1, { protocol: 'udp', data: { address: '127.0.0.1', port: 9, mode: 'xsalsa20_poly1305_lite' } }, 4016],
      [1, { protocol: 'ipx', data: {} }, 4012],
      [1, null, 4002],
      [5, { speaking: 'yes' }, 4002],
      [5, { speaking: 1.5 }, 4002],
    ];
    for (const [op, d, code] of cases) {
      const client = await clients.connect();
      await client.nextOf(8);
      client.send(0, grant(CAROL, lounge).identify);
      await client.nextOf(2);
      client.send(op, d);
      assert.equal((await client.closed).code, code, JSON.stringify(d));
    }
  });

  it('a frame past the 64 KiB limit (an oversized SDP) closes that socket 1009; others keep working', async () => {
    const lounge = freshChannel();
    const alice = await clients.joined(ALICE, lounge);
    const huge = await clients.connect();
    await huge.nextOf(8);
    huge.send(1, { protocol: 'webrtc', data: `v=0\r\n${'a=x\r\n'.repeat(20_000)}`, sdp: 'x' });
    assert.equal((await huge.closed).code, 1009);
    alice.client.send(3, { t: 7, seq_ack: alice.client.lastSeq });
    assert.deepEqual((await alice.client.nextOf(6)).d, { t: 7 });
  });

  it('heartbeats with odd payloads are acknowledged without closing', async () => {
    const client = await clients.connect();
    await client.nextOf(8);
    for (const d of [null, 'text', [1, 2], { t: 'x', seq_ack: 'y' }, { seq_ack: Number.MAX_SAFE_INTEGER }]) {
      client.send(3, d);
      const ack = await client.nextOf(6);
      assert.equal(ack.op, 6);
    }
    client.send(0, grant(ALICE, freshChannel()).identify);
    assert.equal((await client.nextOf(2)).op, 2);
  });

  it('deeply nested JSON in any op (a heartbeat nonce too deep to echo) closes that socket 4002; the server lives', async () => {
    const lounge = freshChannel();
    const alice = await clients.joined(ALICE, lounge);
    const deep = `${'['.repeat(30_000)}${']'.repeat(30_000)}`;
    for (const frame of [`{"op":3,"d":${deep}}`, `{"op":3,"d":{"t":${deep}}}`, `{"op":0,"d":{"token":${deep}}}`]) {
      const client = await clients.connect();
      await client.nextOf(8);
      client.ws.send(frame);
      assert.equal((await client.closed).code, 4002);
    }
    alice.client.send(3, { t: 9, seq_ack: alice.client.lastSeq });
    assert.deepEqual((await alice.client.nextOf(6)).d, { t: 9 });
  });
});
