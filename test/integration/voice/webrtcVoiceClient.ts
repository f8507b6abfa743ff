import { randomUUID } from 'node:crypto';
import {
  RTCPeerConnection,
  RTCRtpCodecParameters,
  RTCRtpCodingParameters,
  RtpHeader,
  RtpPacket,
  useSdesMid,
  type RTCRtpTransceiver,
} from 'werift';
import { RawVoiceClient, type VoiceMessage } from './rawVoiceClient.js';
import { answerFor, fragmentOf, readTemplate } from './webrtcSignalling.js';

/** The opus payload type a browser usually picks (not Discord's UDP 120). */
export const BROWSER_OPUS_PT = 111;

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
  readonly received: RtpPacket[] = [];
  private readonly waiters: (() => void)[] = [];
  private readonly heard = new Set<number>();
  private readonly pending: number[] = [];
  private answered = false;
  private sequence = 1000;

  private constructor(
    readonly voice: RawVoiceClient,
    readonly pc: RTCPeerConnection,
    readonly audio: RTCRtpTransceiver,
  ) {}

  /** Opens the voice socket (`wss://` trusting `ca`). */
  static async connect(url: string, ca?: string): Promise<WebRtcVoiceClient> {
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
      },
      headerExtensions: { audio: [useSdesMid()] },
    });
    const audio = pc.addTransceiver('audio', { direction: 'sendrecv' });
    const client = new WebRtcVoiceClient(voice, pc, audio);
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
    ];
    this.voice.send(1, { protocol: 'webrtc', data: fragment, sdp: fragment, codecs, rtc_connection_id: randomUUID() });
    const description = await this.voice.nextOf(4);
    const template = readTemplate((description.d as { sdp: string }).sdp);
    await this.pc.setRemoteDescription({ type: 'answer', sdp: answerFor(localOffer, template) });
    this.answered = true;
    for (const ssrc of this.pending.splice(0)) this.listen(ssrc);
    await this.pc.connectionStateChange.watch((state) => state === 'connected', 10_000);
    this.voice.send(12, { audio_ssrc: this.ssrc, video_ssrc: 0, rtx_ssrc: 0 });
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

  /** Resolves once `count` packets arrived, or after `timeoutMs` with what arrived (never rejects). */
  async receivedAtLeast(count: number, timeoutMs: number): Promise<RtpPacket[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.received.length < count && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(1, deadline - Date.now()));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.received;
  }

  /** Op 5 and op 12 name the ssrc the server sends someone's audio under: receive it (werift routes by ssrc). */
  private learn(message: VoiceMessage): void {
    if (message.op !== 5 && message.op !== 12) return;
    const d = message.d as { ssrc?: number; audio_ssrc?: number };
    const ssrc = message.op === 5 ? d.ssrc : d.audio_ssrc;
    if (typeof ssrc !== 'number' || ssrc <= 0 || this.heard.has(ssrc)) return;
    this.heard.add(ssrc);
    if (this.answered) this.listen(ssrc);
    else this.pending.push(ssrc);
  }

  private listen(ssrc: number): void {
    const codecs = this.audio.codecs;
    const encodings = [new RTCRtpCodingParameters({ ssrc, payloadType: BROWSER_OPUS_PT })];
    (this.pc as unknown as RouterAccess).router.registerRtpReceiverBySsrc(this.audio, {
      codecs,
      encodings,
      headerExtensions: this.audio.headerExtensions,
    });
    const track = this.audio.receiver.tracks.find((candidate) => candidate.ssrc === ssrc);
    track?.onReceiveRtp.subscribe((rtp) => {
      this.received.push(rtp);
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  /** Closes the peer connection and the voice socket. */
  async close(): Promise<void> {
    await this.pc.close();
    await this.voice.close();
  }
}
