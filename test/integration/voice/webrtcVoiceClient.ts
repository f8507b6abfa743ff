import { randomUUID } from 'node:crypto';
import {
  RTCPeerConnection,
  RTCRtpCodecParameters,
  RTCRtpCodingParameters,
  RtcpSrPacket,
  RtpHeader,
  RtpPacket,
  useNACK,
  usePLI,
  useSdesMid,
  type RTCRtpTransceiver,
} from 'werift';
import { RawVoiceClient, type VoiceMessage } from './rawVoiceClient.js';
import { answerFor, fragmentOf, readTemplate } from './webrtcSignalling.js';

/** The opus payload type a browser usually picks (not Discord's UDP 120). */
export const BROWSER_OPUS_PT = 111;
/** The VP8 payload type a browser usually picks; its rtx is the next one. */
export const BROWSER_VP8_PT = 96;

/** werift's router is private; a test client registers the ssrcs op 5 names there, as the server does. */
interface RouterAccess {
  readonly router: {
    registerRtpReceiverBySsrc(
      transceiver: RTCRtpTransceiver,
      params: { codecs: RTCRtpCodecParameters[]; encodings: RTCRtpCodingParameters[]; headerExtensions: unknown[] },
    ): void;
  };
}

/**
 * A web client as Discord's web client behaves, with werift in place of the browser's RTCPeerConnection: the voice
 * WebSocket (RawVoiceClient's, its UDP socket unused), op 1 with the offer's fragment and codecs, the remote answer
 * built from op 4's template with the server `a=setup:passive`, and op 12 / op 5 announcing its own audio ssrc.
 */
export class WebRtcVoiceClient {
  /** Audio packets received, in arrival order. */
  readonly received: RtpPacket[] = [];
  /** Video packets received, in arrival order. */
  readonly receivedVideo: RtpPacket[] = [];
  /** Sender reports (RTCP SR) received, in arrival order. */
  readonly reports: RtcpSrPacket[] = [];
  /** The audio ssrc op 5 / op 12 last named for each other user (user id → ssrc). */
  readonly audioSsrcOf = new Map<string, number>();
  private readonly waiters: (() => void)[] = [];
  private readonly heard = new Set<number>();
  private readonly pending: { kind: 'audio' | 'video'; ssrc: number }[] = [];
  private answered = false;
  private sequence = 1000;

  private constructor(
    readonly voice: RawVoiceClient,
    readonly pc: RTCPeerConnection,
    readonly audio: RTCRtpTransceiver,
    readonly video: RTCRtpTransceiver | undefined,
  ) {}

  /** Opens the voice socket (`wss://` trusting `ca`); `video` adds a VP8 transceiver (PT 96, rtx 97). */
  static async connect(url: string, ca?: string, { video = false } = {}): Promise<WebRtcVoiceClient> {
    const voice = await RawVoiceClient.connect(url, ca);
    const pc = new RTCPeerConnection({
      iceAdditionalHostAddresses: ['127.0.0.1'],
      iceUseIpv6: false,
      codecs: {
        audio: [
          new RTCRtpCodecParameters({
            mimeType: 'audio/opus',
            clockRate: 48_000,
            channels: 2,
            payloadType: BROWSER_OPUS_PT,
          }),
        ],
        video: [
          new RTCRtpCodecParameters({
            mimeType: 'video/VP8',
            clockRate: 90_000,
            payloadType: BROWSER_VP8_PT,
            rtcpFeedback: [useNACK(), usePLI()],
          }),
          new RTCRtpCodecParameters({
            mimeType: 'video/rtx',
            clockRate: 90_000,
            payloadType: BROWSER_VP8_PT + 1,
            parameters: `apt=${BROWSER_VP8_PT}`,
          }),
        ],
      },
      headerExtensions: { audio: [useSdesMid()], video: [useSdesMid()] },
    });
    const audio = pc.addTransceiver('audio', { direction: 'sendrecv' });
    const camera = video ? pc.addTransceiver('video', { direction: 'sendrecv' }) : undefined;
    const client = new WebRtcVoiceClient(voice, pc, audio, camera);
    audio.dtlsTransport.onRtcp.subscribe((rtcp) => {
      if (!(rtcp instanceof RtcpSrPacket)) return;
      client.reports.push(rtcp);
      for (const wake of client.waiters.splice(0)) wake();
    });
    voice.ws.on('message', (data: Buffer) => {
      client.learn(JSON.parse(data.toString('utf8')) as VoiceMessage);
    });
    return client;
  }

  /** This client's own audio ssrc (what it announces in op 12 and op 5). */
  get ssrc(): number {
    return this.audio.sender.ssrc;
  }

  /** Identify, Ready, op 1 webrtc, op 4 → remote answer; resolves with op 4 once the peer connection is connected. */
  async join(identify: Record<string, unknown>): Promise<VoiceMessage> {
    await this.voice.nextOf(8);
    this.voice.send(0, identify);
    await this.voice.nextOf(2);
    await this.pc.setLocalDescription(await this.pc.createOffer());
    const localOffer = this.pc.localDescription?.sdp ?? '';
    const fragment = fragmentOf(localOffer);
    const codecs = [
      { name: 'opus', type: 'audio', priority: 1000, payload_type: BROWSER_OPUS_PT, rtx_payload_type: null },
      ...(this.video
        ? [{ name: 'VP8', type: 'video', priority: 1000, payload_type: BROWSER_VP8_PT, rtx_payload_type: 97 }]
        : []),
    ];
    this.voice.send(1, { protocol: 'webrtc', data: fragment, sdp: fragment, codecs, rtc_connection_id: randomUUID() });
    const description = await this.voice.nextOf(4);
    const template = readTemplate((description.d as { sdp: string }).sdp);
    await this.pc.setRemoteDescription({ type: 'answer', sdp: answerFor(localOffer, template) });
    this.answered = true;
    for (const { kind, ssrc } of this.pending.splice(0)) this.listen(kind, ssrc);
    await this.pc.connectionStateChange.watch((state) => state === 'connected', 10_000);
    const camera = this.video?.sender;
    this.voice.send(12, { audio_ssrc: this.ssrc, video_ssrc: camera?.ssrc ?? 0, rtx_ssrc: camera?.rtxSsrc ?? 0 });
    return description;
  }

  /** Op 5 speaking with this client's own ssrc, as a browser sends it before its first audio. */
  speak(speaking = 1): void {
    this.voice.send(5, { speaking, delay: 0, ssrc: this.ssrc });
  }

  /** Sends one opus payload as RTP through the peer connection. */
  async sendOpus(payload: Buffer): Promise<void> {
    this.sequence += 1;
    const header = new RtpHeader({
      payloadType: BROWSER_OPUS_PT,
      sequenceNumber: this.sequence & 0xffff,
      timestamp: (this.sequence * 960) >>> 0,
      marker: this.sequence === 1001,
    });
    await this.audio.sender.sendRtp(new RtpPacket(header, payload));
  }

  /** Sends one VP8 payload as RTP through the camera transceiver. */
  async sendVideo(payload: Buffer, marker = true): Promise<void> {
    if (!this.video) throw new Error('connected without video');
    this.sequence += 1;
    const header = new RtpHeader({
      payloadType: BROWSER_VP8_PT,
      sequenceNumber: this.sequence & 0xffff,
      timestamp: (this.sequence * 3000) >>> 0,
      marker,
    });
    await this.video.sender.sendRtp(new RtpPacket(header, payload));
  }

  /** Resolves once `count` packets of a kind arrived, or after `timeoutMs` with what arrived (never rejects). */
  async receivedAtLeast(count: number, timeoutMs: number, kind: 'audio' | 'video' = 'audio'): Promise<RtpPacket[]> {
    const packets = kind === 'audio' ? this.received : this.receivedVideo;
    await this.until(() => packets.length >= count, timeoutMs);
    return packets;
  }

  /** The first sender report on an ssrc, once one arrived; undefined after `timeoutMs` without one. */
  async reportOn(ssrc: number, timeoutMs: number): Promise<RtcpSrPacket | undefined> {
    const find = () => this.reports.find((report) => report.ssrc === ssrc);
    await this.until(() => find() !== undefined, timeoutMs);
    return find();
  }

  /** Waits, woken by each packet or report received, until `done` holds or `timeoutMs` passed. */
  private async until(done: () => boolean, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!done() && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(1, deadline - Date.now()));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /**
   * Op 5 and op 12 name the ssrcs the server sends someone's audio and video under: receive them (werift routes by
   * ssrc only).
   */
  private learn(message: VoiceMessage): void {
    if (message.op !== 5 && message.op !== 12) return;
    const d = message.d as { user_id?: string; ssrc?: number; audio_ssrc?: number; video_ssrc?: number };
    const audio = message.op === 5 ? d.ssrc : d.audio_ssrc;
    if (d.user_id !== undefined && typeof audio === 'number' && audio > 0) this.audioSsrcOf.set(d.user_id, audio);
    const named =
      message.op === 5
        ? [{ kind: 'audio' as const, ssrc: d.ssrc }]
        : [
            { kind: 'audio' as const, ssrc: d.audio_ssrc },
            { kind: 'video' as const, ssrc: d.video_ssrc },
          ];
    for (const { kind, ssrc } of named) {
      if (typeof ssrc !== 'number' || ssrc <= 0 || this.heard.has(ssrc)) continue;
      this.heard.add(ssrc);
      if (this.answered) this.listen(kind, ssrc);
      else this.pending.push({ kind, ssrc });
    }
  }

  private listen(kind: 'audio' | 'video', ssrc: number): void {
    const transceiver = kind === 'audio' ? this.audio : this.video;
    if (!transceiver) return;
    const [primary] = transceiver.codecs;
    const encodings = [new RTCRtpCodingParameters({ ssrc, payloadType: primary?.payloadType ?? 0 })];
    (this.pc as unknown as RouterAccess).router.registerRtpReceiverBySsrc(transceiver, {
      codecs: transceiver.codecs,
      encodings,
      headerExtensions: transceiver.headerExtensions,
    });
    const packets = kind === 'audio' ? this.received : this.receivedVideo;
    const track = transceiver.receiver.tracks.find((candidate) => candidate.ssrc === ssrc);
    track?.onReceiveRtp.subscribe((rtp) => {
      packets.push(rtp);
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  /** Closes the peer connection and the voice socket. */
  async close(): Promise<void> {
    await this.pc.close();
    await this.voice.close();
  }
}
