import { randomInt } from 'node:crypto';
import { RtcpSenderInfo, RtcpSrPacket, RtpHeader, type RtpPacket } from 'werift';

/** Audio or video: the two m-lines a web client's peer connection has here. */
export type MediaKind = 'audio' | 'video';

/** RTP clock rates of opus and of every video codec. */
const CLOCK_RATE: Record<MediaKind, number> = { audio: 48_000, video: 90_000 };

/** One (source, kind) as one receiver sees it: its own ssrc, and how the source's numbering is shifted onto it. */
interface Stream {
  readonly ssrc: number;
  /** The ssrc the source last sent under (a web client may switch: a new audio ssrc, another simulcast layer). */
  origin: number | undefined;
  seqOffset: number;
  tsOffset: number;
  lastSeq: number;
  lastTs: number;
  lastMs: number;
  packets: number;
  octets: number;
}

/**
 * What one web receiver hears, one stream per (source member, kind), as Discord's web client expects: each remote
 * user on an ssrc of its own, the one op 5 / op 12 told it, so several people talking at once reach it side by side.
 * A stream keeps the source's sequence and timestamp, re-based only when the source switches ssrc, so the
 * receiver's jitter buffer sees one continuous stream per user.
 */
export class OutboundStreams {
  private readonly streams = new Map<string, Stream>();
  private readonly bySsrc = new Map<number, { kind: MediaKind; source: number }>();
  private readonly taken: Set<number>;

  /** `reserved`: ssrcs this receiver's connection already uses (werift's own senders). */
  constructor(reserved: readonly number[]) {
    this.taken = new Set(reserved);
  }

  /** The ssrc this receiver hears a source's stream of a kind under, chosen on first use. */
  ssrcOf(kind: MediaKind, source: number): number {
    return this.streamOf(kind, source).ssrc;
  }

  /** The source (a member's session ssrc) behind one of this receiver's ssrcs, e.g. the one a PLI names. */
  sourceOf(kind: MediaKind, ssrc: number): number | undefined {
    const found = this.bySsrc.get(ssrc);
    return found?.kind === kind ? found.source : undefined;
  }

  /** The header a source's packet leaves with: the stream's ssrc, the receiver's payload type, continuous numbering. */
  headerFor(kind: MediaKind, rtp: RtpPacket, source: number, payloadType: number, nowMs: number): RtpHeader {
    const stream = this.streamOf(kind, source);
    const { header } = rtp;
    if (stream.origin !== header.ssrc) {
      if (stream.origin !== undefined) {
        // Continue where the old origin stopped, the timestamp advanced by the time that passed (at least a tick).
        const elapsed = Math.max(1, Math.round(((nowMs - stream.lastMs) * CLOCK_RATE[kind]) / 1_000));
        stream.seqOffset = (stream.lastSeq + 1 - header.sequenceNumber) & 0xffff;
        stream.tsOffset = (stream.lastTs + elapsed - header.timestamp) >>> 0;
      }
      stream.origin = header.ssrc;
    }
    stream.lastSeq = (header.sequenceNumber + stream.seqOffset) & 0xffff;
    stream.lastTs = (header.timestamp + stream.tsOffset) >>> 0;
    stream.lastMs = nowMs;
    stream.packets++;
    stream.octets += rtp.payload.length;
    // The source's header extensions use its own ids (and name its own mid): none is carried over.
    return new RtpHeader({
      payloadType,
      marker: header.marker,
      sequenceNumber: stream.lastSeq,
      timestamp: stream.lastTs,
      ssrc: stream.ssrc,
    });
  }

  /**
   * A source's sender report (RTCP SR) as this receiver's stream of it: the source's wallclock to RTP time mapping
   * moved by the same offset as its packets, so a browser can line up a user's audio and video. Undefined when the
   * report is of another origin than the stream carries now, or of a stream this receiver does not have.
   */
  reportFor(kind: MediaKind, source: number, report: RtcpSrPacket): RtcpSrPacket | undefined {
    const stream = this.streams.get(`${kind}:${source}`);
    if (stream?.origin !== report.ssrc) return undefined;
    const senderInfo = new RtcpSenderInfo({
      ntpTimestamp: report.senderInfo.ntpTimestamp,
      rtpTimestamp: (report.senderInfo.rtpTimestamp + stream.tsOffset) >>> 0,
      packetCount: stream.packets,
      octetCount: stream.octets,
    });
    return new RtcpSrPacket({ ssrc: stream.ssrc, senderInfo });
  }

  private streamOf(kind: MediaKind, source: number): Stream {
    const key = `${kind}:${source}`;
    const existing = this.streams.get(key);
    if (existing) return existing;
    let ssrc = randomInt(1, 0xffffffff);
    while (this.taken.has(ssrc)) ssrc = randomInt(1, 0xffffffff);
    this.taken.add(ssrc);
    const stream: Stream = {
      ssrc,
      origin: undefined,
      seqOffset: 0,
      tsOffset: 0,
      lastSeq: 0,
      lastTs: 0,
      lastMs: 0,
      packets: 0,
      octets: 0,
    };
    this.streams.set(key, stream);
    this.bySsrc.set(ssrc, { kind, source });
    return stream;
  }
}
