import { isIP } from 'node:net';
import {
  PictureLossIndication,
  RtcpPayloadSpecificFeedback,
  RTCPeerConnection,
  RTCRtpCodecParameters,
  RTCRtpCodingParameters,
  RTCRtpRtxParameters,
  RtcpSrPacket,
  useFIR,
  useNACK,
  usePLI,
  useSdesMid,
  type RTCRtpTransceiver,
  type RtpPacket,
} from 'werift';
import { MalformedFragment, type ClientOffer, type NegotiatedCodecs } from './clientOffer.js';
import { OutboundStreams, type MediaKind } from './OutboundStreams.js';
import { serverSdpTemplate } from './serverSdpTemplate.js';

export type { MediaKind } from './OutboundStreams.js';

/** Where a peer's ICE-lite transport listens. */
export interface WebRtcPeerOptions {
  /** The address browsers send media to: the one host candidate in op 4's template. */
  readonly publicHost: string;
  /** UDP ports the peer connection may bind ([min, max]); undefined for an ephemeral port. */
  readonly portRange: readonly [number, number] | undefined;
}

/** werift's router, which it keeps private: the only way to receive RTP whose ssrc the SDP did not name. */
interface RtpRouterAccess {
  readonly router: {
    registerRtpReceiverBySsrc(
      transceiver: RTCRtpTransceiver,
      params: { codecs: RTCRtpCodecParameters[]; encodings: RTCRtpCodingParameters[]; headerExtensions: unknown[] },
    ): void;
  };
}

/** RTCP payload-specific feedback format of a Full Intra Request (RFC 5104), a keyframe request like PLI. */
const FIR_FORMAT = 4;

/** How long ICE gathering of an ICE-lite answer may take before op 4 is answered without it. */
const GATHER_TIMEOUT_MS = 5_000;

function localCodecs(codecs: NegotiatedCodecs): { audio: RTCRtpCodecParameters[]; video: RTCRtpCodecParameters[] } {
  const audio = [
    new RTCRtpCodecParameters({
      mimeType: 'audio/opus',
      clockRate: 48_000,
      channels: 2,
      payloadType: codecs.audio.payloadType,
    }),
  ];
  const { video: chosen } = codecs;
  if (!chosen) return { audio, video: [] };
  const video = [
    new RTCRtpCodecParameters({
      mimeType: `video/${chosen.name}`,
      clockRate: 90_000,
      payloadType: chosen.payloadType,
      rtcpFeedback: [useNACK(), usePLI(), useFIR()],
    }),
  ];
  if (chosen.rtxPayloadType !== undefined) {
    // werift keeps a remote rtx codec only when the local one names the same apt.
    const parameters = `apt=${chosen.payloadType}`;
    video.push(new RTCRtpCodecParameters({ mimeType: 'video/rtx', clockRate: 90_000, parameters }));
  }
  return { audio, video };
}

/**
 * One web client's werift peer connection: ICE-lite on one host candidate, DTLS server (Discord's web client
 * answers for the server with `a=setup:passive`), one audio and at most one video transceiver. What this member
 * hears goes straight through the bundled transport's SRTP session, one ssrc per (source member, kind): werift's
 * senders would rewrite every source onto their own single ssrc.
 */
export class WebRtcPeer {
  private readonly listened = new Set<number>();
  private readonly outbound: OutboundStreams;
  private closed = false;

  private constructor(
    private readonly pc: RTCPeerConnection,
    private readonly audio: RTCRtpTransceiver,
    private readonly video: RTCRtpTransceiver | undefined,
    readonly codecs: NegotiatedCodecs,
    /** The UDP port of the announced candidate (closed when the peer is). */
    readonly port: number,
  ) {
    const own = [audio.sender.ssrc, ...(video ? [video.sender.ssrc, video.sender.rtxSsrc] : [])];
    this.outbound = new OutboundStreams(own);
  }

  /** Answers a client offer: the peer and the SDP template op 4 carries. */
  static async answer(offer: ClientOffer, options: WebRtcPeerOptions): Promise<{ peer: WebRtcPeer; sdp: string }> {
    const pc = new RTCPeerConnection({
      iceLite: true,
      iceUseIpv6: false,
      icePortRange: options.portRange ? [options.portRange[0], options.portRange[1]] : undefined,
      // werift leaves loopback out of its host addresses; a hostname is not an address to bind.
      iceAdditionalHostAddresses: isIP(options.publicHost) ? [options.publicHost] : undefined,
      codecs: localCodecs(offer.codecs),
      headerExtensions: { audio: [useSdesMid()], video: [useSdesMid()] },
    });
    try {
      const audio = pc.addTransceiver('audio', { direction: 'sendrecv' });
      const video = offer.codecs.video ? pc.addTransceiver('video', { direction: 'sendrecv' }) : undefined;
      // What the offer decides (werift refusing it, no answer to make) is the client's fault; binding a port,
      // gathering and the template after it are ours.
      const answer = await clientStep(async () => {
        await pc.setRemoteDescription({ type: 'offer', sdp: offer.sdp });
        for (const transceiver of pc.getTransceivers()) transceiver.dtlsTransport.role = 'server';
        return pc.createAnswer();
      });
      await pc.setLocalDescription(answer);
      if (pc.iceGatheringState !== 'complete') {
        await pc.iceGatheringStateChange.watch((state) => state === 'complete', GATHER_TIMEOUT_MS).catch(() => {});
      }
      const template = serverSdpTemplate(pc.localDescription?.sdp ?? '', options.publicHost);
      return { peer: new WebRtcPeer(pc, audio, video, offer.codecs, template.port), sdp: template.sdp };
    } catch (error) {
      await pc.close();
      throw error;
    }
  }

  /** The ssrc this member hears a source's (a member's session ssrc) audio or video under; 0 without video. */
  ssrcOf(kind: MediaKind, source: number): number {
    if (kind === 'video' && !this.video) return 0;
    return this.outbound.ssrcOf(kind, source);
  }

  /**
   * Receives RTP with an ssrc the client announced (op 5, op 12): werift routes by signalled ssrc only, and the
   * fragment signals none. Each packet of a listened stream reaches `onRtp`.
   */
  listen(kind: MediaKind, ssrc: number, rtxSsrc: number | undefined, onRtp: (rtp: RtpPacket) => void): void {
    const transceiver = kind === 'audio' ? this.audio : this.video;
    if (this.closed || !transceiver || this.listened.has(ssrc) || transceiver.codecs.length === 0) return;
    this.listened.add(ssrc);
    const primary = transceiver.codecs[0] as RTCRtpCodecParameters;
    const encoding = new RTCRtpCodingParameters({
      ssrc,
      payloadType: primary.payloadType,
      ...(rtxSsrc === undefined ? {} : { rtx: new RTCRtpRtxParameters({ ssrc: rtxSsrc }) }),
    });
    const params = {
      codecs: transceiver.codecs,
      encodings: [encoding],
      headerExtensions: transceiver.headerExtensions,
    };
    transceiver.receiver.prepareReceive(params);
    (this.pc as unknown as RtpRouterAccess).router.registerRtpReceiverBySsrc(transceiver, params);
    const track = transceiver.receiver.tracks.find((candidate) => candidate.ssrc === ssrc);
    track?.onReceiveRtp.subscribe((rtp) => {
      onRtp(rtp);
    });
  }

  /** Sends one packet from a source (a member's session ssrc) to this member, on that source's own stream. */
  send(kind: MediaKind, rtp: RtpPacket, source: number, nowMs: number): boolean {
    const transceiver = kind === 'audio' ? this.audio : this.video;
    const codec = transceiver?.codecs[0];
    if (this.closed || !transceiver || !codec || rtp.payload.length === 0) return false;
    const transport = transceiver.dtlsTransport;
    if (transport.state !== 'connected') return false;
    const header = this.outbound.headerFor(kind, rtp, source, codec.payloadType, nowMs);
    transport.sendRtp(rtp.payload, header).catch(() => {});
    return true;
  }

  /** Calls back with the source whose video this member asks a keyframe of (PLI or FIR naming that stream). */
  onPictureLoss(handler: (source: number) => void): void {
    const transport = this.video?.dtlsTransport;
    // Read off the transport: werift's router knows none of the ssrcs this member hears.
    transport?.onRtcp.subscribe((rtcp) => {
      if (rtcp.type !== RtcpPayloadSpecificFeedback.type) return;
      const { feedback } = rtcp;
      const fir = (feedback as { fir?: { ssrc: number }[] }).fir;
      const named =
        feedback instanceof PictureLossIndication
          ? [feedback.mediaSsrc]
          : feedback.count === FIR_FORMAT
            ? (fir ?? []).map((entry) => entry.ssrc)
            : [];
      const sources = new Set(named.map((ssrc) => this.outbound.sourceOf('video', ssrc)));
      for (const source of sources) if (source !== undefined) handler(source);
    });
  }

  /** Calls back with each sender report (RTCP SR) this member's browser sends about its own streams. */
  onSenderReport(handler: (report: RtcpSrPacket) => void): void {
    this.audio.dtlsTransport.onRtcp.subscribe((rtcp) => {
      if (rtcp instanceof RtcpSrPacket) handler(rtcp);
    });
  }

  /** Passes a source's sender report on to this member as the report of its stream of that source, if it has one. */
  relayReport(kind: MediaKind, source: number, report: RtcpSrPacket): void {
    const relayed = this.closed ? undefined : this.outbound.reportFor(kind, source, report);
    const transport = this.audio.dtlsTransport;
    if (relayed && transport.state === 'connected') transport.sendRtcp([relayed]).catch(() => {});
  }

  /** Asks this member's browser for a keyframe of a video stream it publishes. */
  requestKeyframe(mediaSsrc: number): void {
    if (!this.closed) this.video?.receiver.sendRtcpPLI(mediaSsrc).catch(() => {});
  }

  /** Closes the peer connection and its UDP sockets. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pc.close();
  }
}

/** Runs a step of the answer that only the client's offer can fail: its failure is a MalformedFragment (4002). */
async function clientStep<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    throw new MalformedFragment(`the fragment does not make an offer (${(error as Error).message})`);
  }
}
