import assert from 'node:assert/strict';
import { RtcpSenderInfo, RtcpSrPacket, RtpHeader, RtpPacket } from 'werift';
import { OutboundStreams } from '../../../src/voice/webrtc/OutboundStreams.js';

function packet(ssrc: number, sequenceNumber: number, timestamp: number): RtpPacket {
  return new RtpPacket(new RtpHeader({ ssrc, sequenceNumber, timestamp, payloadType: 120 }), Buffer.from([1, 2, 3]));
}

describe('OutboundStreams: what one web receiver hears, one stream per (source, kind)', () => {
  it('gives each source and kind an ssrc of its own, none of the reserved ones, and maps it back', () => {
    const streams = new OutboundStreams([11, 12]);
    const audioA = streams.ssrcOf('audio', 1);
    const audioB = streams.ssrcOf('audio', 2);
    const videoA = streams.ssrcOf('video', 1);
    assert.equal(new Set([audioA, audioB, videoA, 11, 12]).size, 5);
    assert.equal(streams.ssrcOf('audio', 1), audioA, 'stable once chosen');
    assert.equal(streams.sourceOf('video', videoA), 1);
    assert.equal(streams.sourceOf('video', audioA), undefined, 'an audio ssrc names no video source');
  });

  it("keeps the source's numbering, with the receiver's payload type and no extensions", () => {
    const streams = new OutboundStreams([]);
    const header = streams.headerFor('audio', packet(77, 500, 96_000), 1, 111, 0);
    assert.deepEqual(
      [header.ssrc, header.sequenceNumber, header.timestamp, header.payloadType, header.extensions.length],
      [streams.ssrcOf('audio', 1), 500, 96_000, 111, 0],
    );
  });

  it('continues sequence and timestamp across a switch of the source ssrc (new audio ssrc, simulcast layer)', () => {
    const streams = new OutboundStreams([]);
    streams.headerFor('video', packet(77, 65_535, 0xffff_fff0), 1, 96, 1_000);
    // 100 ms later the source sends under another ssrc with unrelated numbering.
    const switched = streams.headerFor('video', packet(88, 7, 123), 1, 96, 1_100);
    assert.equal(switched.sequenceNumber, 0, 'the next sequence number (wrapping)');
    assert.equal(switched.timestamp, (0xffff_fff0 + 9_000) >>> 0, '100 ms at 90 kHz later (wrapping)');
    const next = streams.headerFor('video', packet(88, 8, 3_123), 1, 96, 1_133);
    assert.deepEqual([next.sequenceNumber, next.timestamp], [1, (0xffff_fff0 + 12_000) >>> 0]);
  });

  it("turns the current origin's sender report into its stream's, on the stream's clock; an old origin's is dropped", () => {
    const streams = new OutboundStreams([]);
    streams.headerFor('audio', packet(77, 10, 1_000), 1, 111, 0);
    streams.headerFor('audio', packet(88, 500, 50_000), 1, 111, 20);
    const report = (ssrc: number, rtpTimestamp: number) =>
      new RtcpSrPacket({ ssrc, senderInfo: new RtcpSenderInfo({ ntpTimestamp: 5n, rtpTimestamp }) });
    assert.equal(streams.reportFor('audio', 1, report(77, 1_000)), undefined);
    const relayed = streams.reportFor('audio', 1, report(88, 50_000));
    assert.deepEqual(
      [
        relayed?.ssrc,
        relayed?.senderInfo.rtpTimestamp,
        relayed?.senderInfo.ntpTimestamp,
        relayed?.senderInfo.packetCount,
      ],
      [streams.ssrcOf('audio', 1), 1_000 + 960, 5n, 2],
    );
  });
});
