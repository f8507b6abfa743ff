import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { openRtpsize, rtpsizeHeaderLength, rtpsizeNonce, sealRtpsize } from '../../../src/voice/rtpsizeCrypto.js';
import { VoiceEncryptionMode } from '../../../src/voice/voiceProtocol.js';

/** An RTP header as @discordjs/voice writes it: version 2, PT 120, seq, timestamp, ssrc. */
function rtpHeader(ssrc: number, seq = 7, extraFirstByteBits = 0): Buffer {
  const header = Buffer.alloc(12);
  header[0] = 0x80 | extraFirstByteBits;
  header[1] = 0x78;
  header.writeUInt16BE(seq, 2);
  header.writeUInt32BE(960 * seq, 4);
  header.writeUInt32BE(ssrc, 8);
  return header;
}

describe('rtpsize transport encryption', () => {
  for (const mode of Object.values(VoiceEncryptionMode)) {
    it(`${mode}: a sealed packet opens to the same header and payload with the same key`, () => {
      const key = randomBytes(32);
      const header = rtpHeader(0x1234_5678);
      const opus = randomBytes(80);
      const packet = sealRtpsize(mode, key, header, opus, 41);
      assert.equal(packet.length, 12 + 80 + 16 + 4);
      assert.deepEqual(packet.subarray(0, 12), header);
      assert.equal(packet.readUInt32BE(packet.length - 4), 41);
      const opened = openRtpsize(mode, key, packet);
      assert.ok(opened);
      assert.deepEqual(Buffer.from(opened.header), header);
      assert.deepEqual(Buffer.from(opened.plaintext), opus);
    });

    it(`${mode}: a wrong key, an altered header or a truncated packet does not open`, () => {
      const key = randomBytes(32);
      const packet = sealRtpsize(mode, key, rtpHeader(9), randomBytes(40), 1);
      assert.equal(openRtpsize(mode, randomBytes(32), packet), undefined);
      const altered = Buffer.from(packet);
      altered[3] = (altered[3] ?? 0) ^ 1; // the header is authenticated data
      assert.equal(openRtpsize(mode, key, altered), undefined);
      assert.equal(openRtpsize(mode, key, packet.subarray(0, 20)), undefined);
    });
  }

  it('the header in clear covers CSRCs and the extension preamble, not the extension body', () => {
    const withCsrcAndExtension = Buffer.concat([rtpHeader(5, 1, 0x10 | 0x02), Buffer.alloc(8), Buffer.alloc(4)]);
    assert.equal(rtpsizeHeaderLength(withCsrcAndExtension), 12 + 8 + 4);
    assert.equal(rtpsizeHeaderLength(Buffer.alloc(11)), undefined);
    const key = randomBytes(32);
    const header = withCsrcAndExtension.subarray(0, 24);
    const body = Buffer.concat([Buffer.from([0xaa, 0xbb, 0xcc, 0xdd]), randomBytes(30)]);
    const opened = openRtpsize(
      VoiceEncryptionMode.aesGcm,
      key,
      sealRtpsize(VoiceEncryptionMode.aesGcm, key, header, body, 2),
    );
    assert.deepEqual(Buffer.from(opened?.plaintext ?? []), body);
  });

  it('the nonce is the 4-byte counter followed by zeros: 12 bytes for AES-GCM, 24 for XChaCha', () => {
    const counter = Buffer.from([0, 0, 1, 2]);
    const aes = rtpsizeNonce(VoiceEncryptionMode.aesGcm, counter);
    const xchacha = rtpsizeNonce(VoiceEncryptionMode.xchacha, counter);
    assert.equal(aes.length, 12);
    assert.equal(xchacha.length, 24);
    assert.deepEqual(aes.subarray(0, 4), counter);
    assert.ok(xchacha.subarray(4).every((byte) => byte === 0));
  });
});
