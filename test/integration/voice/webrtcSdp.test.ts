import assert from 'node:assert/strict';
import { clientOffer, MalformedFragment, type OfferedCodec } from '../../../src/voice/webrtc/clientOffer.js';
import { serverSdpTemplate } from '../../../src/voice/webrtc/serverSdpTemplate.js';

const FINGERPRINT = `sha-256 ${Array.from({ length: 32 }, (_, i) => (i * 7).toString(16).padStart(2, '0').toUpperCase()).join(':')}`;

/** A fragment as Chromium's offer gives it under the web client's rule (voice.md §4a). */
const CHROME_FRAGMENT = [
  'a=extmap-allow-mixed',
  'a=ice-ufrag:qtO3',
  'a=ice-pwd:XIK9nyoEo56onJ7HhUsjGXMt',
  'a=ice-options:trickle',
  `a=fingerprint:${FINGERPRINT}`,
  'a=extmap:1 urn:ietf:params:rtp-hdrext:ssrc-audio-level',
  'a=extmap:4 urn:ietf:params:rtp-hdrext:sdes:mid',
  'a=rtpmap:111 opus/48000/2',
  'a=rtpmap:96 VP8/90000',
  'a=rtpmap:97 rtx/90000',
].join('\n');

const CODECS: OfferedCodec[] = [
  { name: 'opus', type: 'audio', priority: 1000, payload_type: 111 },
  { name: 'H264', type: 'video', priority: 2000, payload_type: 102, rtx_payload_type: 103 },
  { name: 'VP8', type: 'video', priority: 1000, payload_type: 96, rtx_payload_type: 97 },
];

function lines(sdp: string): string[] {
  return sdp.split('\r\n');
}

describe("WebRTC SDP: a web client's fragment becomes a full offer, werift's answer an op 4 template", () => {
  it('rebuilds a bundled audio and video offer with the client credentials, payload types and setup:active', () => {
    const offer = clientOffer(CHROME_FRAGMENT, CODECS);
    const sdp = lines(offer.sdp);
    assert.ok(sdp.includes('a=group:BUNDLE 0 1'));
    assert.ok(sdp.includes('m=audio 9 UDP/TLS/RTP/SAVPF 111'));
    assert.ok(sdp.includes('m=video 9 UDP/TLS/RTP/SAVPF 96 97'), 'VP8 has the better (lower) priority');
    assert.ok(sdp.includes('a=fmtp:97 apt=96'));
    assert.equal(sdp.filter((line) => line === 'a=ice-ufrag:qtO3').length, 2);
    assert.equal(sdp.filter((line) => line === `a=fingerprint:${FINGERPRINT}`).length, 2);
    assert.equal(sdp.filter((line) => line === 'a=setup:active').length, 2);
    assert.ok(sdp.includes('a=extmap:4 urn:ietf:params:rtp-hdrext:sdes:mid'));
    assert.deepEqual(offer.codecs, {
      audio: { payloadType: 111 },
      video: { name: 'VP8', payloadType: 96, rtxPayloadType: 97 },
    });
  });

  it('offers H264 (packetization mode 1) when it is the only video codec, and reads codecs from rtpmaps without a list', () => {
    const h264 = clientOffer(CHROME_FRAGMENT, [CODECS[0] as OfferedCodec, CODECS[1] as OfferedCodec]);
    assert.ok(lines(h264.sdp).some((line) => line.startsWith('a=fmtp:102 ') && line.includes('packetization-mode=1')));
    const derived = clientOffer(CHROME_FRAGMENT, undefined);
    assert.deepEqual(derived.codecs.audio, { payloadType: 111 });
    assert.equal(derived.codecs.video?.name, 'VP8');
    const audioOnly = clientOffer(CHROME_FRAGMENT, [CODECS[0] as OfferedCodec]);
    assert.equal(audioOnly.codecs.video, undefined);
    assert.ok(lines(audioOnly.sdp).includes('a=group:BUNDLE 0'));
  });

  it('refuses fragments without valid ICE credentials or fingerprint, without opus, or with impossible payload types', () => {
    const without = (prefix: string) =>
      CHROME_FRAGMENT.split('\n')
        .filter((line) => !line.startsWith(prefix))
        .join('\n');
    for (const fragment of [
      '',
      'garbage',
      without('a=ice-ufrag'),
      without('a=ice-pwd'),
      without('a=fingerprint'),
      CHROME_FRAGMENT.replace('a=ice-ufrag:qtO3', 'a=ice-ufrag:q t'),
      CHROME_FRAGMENT.replace(`a=fingerprint:${FINGERPRINT}`, 'a=fingerprint:md5 zz'),
    ]) {
      assert.throws(() => clientOffer(fragment, CODECS), MalformedFragment, JSON.stringify(fragment.slice(0, 40)));
    }
    assert.throws(() => clientOffer(CHROME_FRAGMENT, [CODECS[2] as OfferedCodec]), MalformedFragment);
    assert.throws(
      () => clientOffer(CHROME_FRAGMENT, [{ name: 'opus', type: 'audio', priority: 1, payload_type: 300 }]),
      MalformedFragment,
    );
  });

  it('keeps only the lines the client reads from the answer, with one host candidate on the public host', () => {
    const answer = [
      'v=0',
      'm=audio 9 UDP/TLS/RTP/SAVPF 111',
      'a=ice-ufrag:7bd3',
      'a=ice-pwd:977506e3fd971a37b6b3c5',
      `a=fingerprint:${FINGERPRINT}`,
      'a=candidate:abc 1 udp 2130706431 192.0.2.7 40001 typ host',
      'a=candidate:def 1 udp 2130706431 127.0.0.1 40002 typ host',
    ].join('\r\n');
    const template = serverSdpTemplate(answer, '127.0.0.1');
    assert.equal(template.port, 40002);
    assert.deepEqual(template.sdp.split('\n'), [
      'm=audio 40002 ICE/SDP',
      `a=fingerprint:${FINGERPRINT}`,
      'c=IN IP4 127.0.0.1',
      'a=rtcp:40002',
      'a=ice-ufrag:7bd3',
      'a=ice-pwd:977506e3fd971a37b6b3c5',
      'a=candidate:1 1 UDP 4261412862 127.0.0.1 40002 typ host',
      '',
    ]);
    // Behind a 1:1 NAT the public host is no local address: the first IPv4 candidate's port is announced on it.
    assert.equal(serverSdpTemplate(answer, '203.0.113.9').port, 40001);
    assert.throws(() => serverSdpTemplate('v=0', '127.0.0.1'));
  });
});
