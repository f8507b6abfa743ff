import type { Socket } from 'node:dgram';
import { RtpHeader, RtpPacket, type RtcpSrPacket } from 'werift';
import type { Clock } from '../../domain/Clock.js';
import type { Logger } from '../../domain/Logger.js';
import { sendSealed, type MediaRelayStats, type WebRtcOutlet } from '../mediaRelay.js';
import type { AnnouncedSsrcs, VoiceMediaSession } from '../VoiceMediaSession.js';
import type { VoiceRooms } from '../VoiceRooms.js';
import { clientOffer, MalformedFragment, type OfferedCodec } from './clientOffer.js';
import { WebRtcPeer, type MediaKind, type WebRtcPeerOptions } from './WebRtcPeer.js';

/** Discord's payload type for opus on the UDP transport. */
const UDP_OPUS_PAYLOAD_TYPE = 120;
const RTP_FIXED_HEADER = 12;

/** What op 1 with protocol "webrtc" carries. */
export interface WebRtcSelect {
  readonly data: unknown;
  readonly sdp?: string | undefined;
  readonly codecs?: readonly OfferedCodec[] | undefined;
}

/** Op 4's body for a web client. */
export interface WebRtcSessionDescription {
  readonly sdp: string;
  readonly audio_codec: 'opus';
  readonly video_codec: string;
}

/** A plain 12-byte RTP header with Discord's opus payload type, for a UDP receiver. */
function udpHeader(rtp: RtpPacket, ssrc: number): Buffer {
  const header = Buffer.alloc(RTP_FIXED_HEADER);
  header[0] = 0x80;
  header[1] = (rtp.header.marker ? 0x80 : 0) | UDP_OPUS_PAYLOAD_TYPE;
  header.writeUInt16BE(rtp.header.sequenceNumber & 0xffff, 2);
  header.writeUInt32BE(rtp.header.timestamp >>> 0, 4);
  header.writeUInt32BE(ssrc >>> 0, 8);
  return header;
}

/** The opus payload of an opened UDP packet: the encrypted header-extension body (rtpsize) is dropped. */
function payloadOf(header: Uint8Array, plaintext: Uint8Array): Uint8Array | undefined {
  const first = header[0] ?? 0;
  if ((first & 0x10) === 0) return plaintext;
  const words = ((header[header.length - 2] ?? 0) << 8) | (header[header.length - 1] ?? 0);
  return plaintext.length < words * 4 ? undefined : plaintext.subarray(words * 4);
}

/**
 * The WebRTC side of the voice service: answers web clients' op 1 with a werift peer each, listens to the ssrcs
 * they announce, and forwards between peers (audio, and video of the same codec) and between peers and UDP
 * clients (opus re-framed: PT 120 and the web client's announced ssrc one way, the receiver's payload type the
 * other). Members share rooms whatever their transport.
 */
export class WebRtcHub implements WebRtcOutlet {
  private readonly answering = new WeakSet<VoiceMediaSession>();

  constructor(
    private readonly rooms: VoiceRooms,
    private readonly udp: Socket,
    private readonly stats: MediaRelayStats,
    private readonly options: WebRtcPeerOptions,
    private readonly log: Logger,
    private readonly clock: Clock,
  ) {}

  /**
   * Answers a web client's op 1: its fragment becomes a werift offer, the peer answers, and op 4's template is
   * returned. A malformed fragment throws MalformedFragment (close 4002), a failure of the server any other error
   * (close 4015, logged); a previous peer of the member is closed.
   */
  async select(member: VoiceMediaSession, body: WebRtcSelect): Promise<WebRtcSessionDescription> {
    const fragment = typeof body.data === 'string' ? body.data : body.sdp;
    if (fragment === undefined) throw new MalformedFragment('webrtc needs an SDP fragment in data or sdp');
    const offer = clientOffer(fragment, body.codecs);
    // Each answer binds a port: one in flight per member, so a flood of op 1 cannot hold many.
    if (this.answering.has(member)) throw new MalformedFragment('a webrtc select is already being answered');
    this.answering.add(member);
    let answered: { peer: WebRtcPeer; sdp: string };
    try {
      answered = await WebRtcPeer.answer(offer, this.options);
    } catch (error) {
      if (error instanceof MalformedFragment) {
        this.log.info('voice_webrtc_offer_refused', { reason: error.message });
        throw new MalformedFragment('the fragment does not make an offer');
      }
      // Ours (no free port in CHORUS_VOICE_RTC_PORT_MIN..MAX, werift failing): the caller closes 4015, not 4002.
      this.log.error('voice_webrtc_answer_failed', { reason: (error as Error).message });
      throw error;
    } finally {
      this.answering.delete(member);
    }
    const { peer, sdp } = answered;
    if (!this.rooms.bySsrcOf(member.ssrc)) {
      await peer.close(); // the member left while its answer was made
      throw new MalformedFragment('the session ended');
    }
    const previous = member.webrtc;
    member.webrtc = peer;
    member.mode = undefined;
    member.secretKey = undefined;
    void previous?.close();
    peer.onPictureLoss((source) => {
      this.requestKeyframe(source);
    });
    peer.onSenderReport((report) => {
      this.relayReport(member, report);
    });
    this.listen(member);
    return { sdp, audio_codec: 'opus', video_codec: peer.codecs.video?.name ?? 'VP8' };
  }

  /** Records ssrcs a member announced (op 5, op 12) and, for a web client, starts receiving those streams. */
  announce(member: VoiceMediaSession, ssrcs: AnnouncedSsrcs): void {
    const positive = (value: number | undefined): number | undefined =>
      value !== undefined && value > 0 ? value : undefined;
    const audio = positive(ssrcs.audio);
    const video = positive(ssrcs.video);
    if (audio !== undefined) member.announced.audio = audio;
    if (video !== undefined) {
      member.announced.video = video;
      member.announced.rtx = positive(ssrcs.rtx);
    }
    this.listen(member);
  }

  /**
   * UDP client → web clients: the opened opus payload as one RTP packet, sent on the UDP sender's stream to each
   * receiver that is a web client (each peer writes its own header: payload type, sequence, ssrc).
   */
  fromUdp(
    sender: VoiceMediaSession,
    receivers: readonly VoiceMediaSession[],
    header: Uint8Array,
    plaintext: Uint8Array,
  ): void {
    const payload = payloadOf(header, plaintext);
    if (!payload || header.length < RTP_FIXED_HEADER) return;
    const view = Buffer.from(header.buffer, header.byteOffset, header.length);
    const rtpHeader = new RtpHeader({
      marker: ((header[1] ?? 0) & 0x80) !== 0,
      sequenceNumber: view.readUInt16BE(2),
      timestamp: view.readUInt32BE(4),
      ssrc: sender.ssrc,
    });
    const rtp = new RtpPacket(rtpHeader, Buffer.from(payload));
    const nowMs = this.clock.now();
    for (const receiver of receivers) {
      if (receiver.webrtc?.send('audio', rtp, sender.ssrc, nowMs)) this.stats.forwarded++;
    }
  }

  private listen(member: VoiceMediaSession): void {
    const peer = member.webrtc;
    if (!peer) return;
    const { audio, video, rtx } = member.announced;
    if (audio !== undefined) {
      peer.listen('audio', audio, undefined, (rtp) => {
        this.fromBrowser(member, 'audio', rtp);
      });
    }
    if (video !== undefined) {
      peer.listen('video', video, rtx, (rtp) => {
        this.fromBrowser(member, 'video', rtp);
      });
    }
  }

  /** Web client → everyone else in its room: peers get it on the sender's own stream, UDP clients get opus. */
  private fromBrowser(sender: VoiceMediaSession, kind: MediaKind, rtp: RtpPacket): void {
    // Only the stream announced last is forwarded (a simulcast layer switch, a new audio ssrc): one per kind.
    if (rtp.header.ssrc !== (kind === 'audio' ? sender.announced.audio : sender.announced.video)) return;
    for (const receiver of this.rooms.hearersOf(sender, this.stats)) {
      const peer = receiver.webrtc;
      if (peer) {
        if (kind === 'video' && peer.codecs.video?.name !== sender.webrtc?.codecs.video?.name) continue;
        if (peer.send(kind, rtp, sender.ssrc, this.clock.now())) this.stats.forwarded++;
      } else if (kind === 'audio') {
        // Header extensions (audio level, mid, transport-cc) are the browser's business: stripped here.
        sendSealed(this.udp, receiver, udpHeader(rtp, sender.announced.audio ?? sender.ssrc), rtp.payload, this.stats);
      }
    }
  }

  /** A web client's sender report on one of its forwarded streams, to each web receiver of that stream. */
  private relayReport(sender: VoiceMediaSession, report: RtcpSrPacket): void {
    const kind = report.ssrc === sender.announced.audio ? 'audio' : report.ssrc === sender.announced.video && 'video';
    if (!kind) return;
    for (const receiver of this.rooms.hearersOf(sender, { dropped: 0 })) {
      receiver.webrtc?.relayReport(kind, sender.ssrc, report);
    }
  }

  /** A receiver lost the video of a source (a member's session ssrc): that publisher is asked for a keyframe. */
  private requestKeyframe(source: number): void {
    const publisher = this.rooms.bySsrcOf(source);
    const mediaSsrc = publisher?.announced.video;
    if (publisher?.webrtc && mediaSsrc !== undefined) publisher.webrtc.requestKeyframe(mediaSsrc);
  }
}
