import type { MemberVoiceState } from '../../proto/gen/chorus/v1/voice.js';
import type { VoiceVideoBody } from '../contract/voice.js';
import type { VoiceEncryptionMode } from './voiceProtocol.js';
import type { WebRtcPeer } from './webrtc/WebRtcPeer.js';

/** What a voice token vouches for (the claims of verifyVoiceToken). */
export interface VoiceClaims {
  readonly userId: string;
  readonly sessionId: string;
  readonly guildId: string;
  readonly channelId: string;
  readonly nonce: string;
}

/** The socket a media session currently speaks through; swapped by Resume. */
export interface VoicePeer {
  /** Voice gateway version the socket asked for (8 adds `seq` to numbered messages). */
  readonly version: number;
  send(payload: Record<string, unknown>): void;
  close(code: number, reason: string): void;
}

/** A UDP address (the source of the member's IP discovery). */
export interface MediaAddress {
  readonly address: string;
  readonly port: number;
}

/** The ssrcs a client announced for its own streams (op 5, op 12); a web client's are its browser's own. */
export interface AnnouncedSsrcs {
  audio?: number | undefined;
  video?: number | undefined;
  rtx?: number | undefined;
}

interface NumberedMessage {
  readonly seq: number;
  readonly op: number;
  readonly d: unknown;
}

/** Replay depth for Buffered Resume: enough for the join and speaking traffic of a busy channel between heartbeats. */
const REPLAY_LIMIT = 256;

/**
 * One identified voice member: its ssrc, key and mode, UDP address and numbered messages. It outlives its socket
 * so that a resumed client keeps its ssrc, key and UDP flow, as @discordjs/voice expects.
 */
export class VoiceMediaSession {
  secretKey: Uint8Array | undefined;
  mode: VoiceEncryptionMode | undefined;
  address: MediaAddress | undefined;
  speaking = 0;
  peer: VoicePeer | undefined;
  /** A web client's peer connection (protocol "webrtc"); undefined for a UDP client. */
  webrtc: WebRtcPeer | undefined;
  readonly announced: AnnouncedSsrcs = {};
  /** The client's last op 12, told to members who join after it. */
  lastVideo: VoiceVideoBody | undefined;
  /** Server- or self-deafened (the Guild said so): it is sent no media. */
  deafened = false;
  /** Server-muted, suppressed or without SPEAK (the Guild said so): its media reaches nobody. */
  silenced = false;
  /** Its channel's room moved to another node: its client leaving here is a move, not a member vanishing. */
  handedOver = false;
  private outboundCounter = 0;
  private seq = 0;
  private readonly replay: NumberedMessage[] = [];

  constructor(
    readonly claims: VoiceClaims,
    readonly token: string,
    readonly ssrc: number,
    public lastHeartbeatMs: number,
  ) {}

  /** Channel key grouping members that hear each other. */
  get roomKey(): string {
    return `${this.claims.guildId}:${this.claims.channelId}`;
  }

  /** Takes on what the Guild decided; self_mute is the client's own business (it simply stops sending). */
  applyVoiceState(state: MemberVoiceState): void {
    this.deafened = state.deaf || state.selfDeaf;
    this.silenced = state.mute || state.suppress || !state.maySpeak;
  }

  /** Next nonce counter for a packet sealed for this member (one counter for all senders it hears). */
  nextOutboundCounter(): number {
    this.outboundCounter = (this.outboundCounter + 1) >>> 0;
    return this.outboundCounter;
  }

  /** Sends a message that a resumed client must not miss: numbered, kept until acknowledged. */
  sendNumbered(op: number, d: unknown): void {
    this.seq += 1;
    const message = { seq: this.seq, op, d };
    this.replay.push(message);
    if (this.replay.length > REPLAY_LIMIT) this.replay.shift();
    this.deliver(message);
  }

  /** Forgets messages the client acknowledged (v8 heartbeat and resume `seq_ack`). */
  acknowledge(seqAck: number): void {
    while (this.replay.length > 0 && (this.replay[0]?.seq ?? Infinity) <= seqAck) this.replay.shift();
  }

  /** Re-sends the numbered messages after `seqAck` to the current socket (Buffered Resume). */
  replayAfter(seqAck: number): void {
    for (const message of this.replay) if (message.seq > seqAck) this.deliver(message);
  }

  private deliver(message: NumberedMessage): void {
    if (!this.peer) return;
    this.peer.send(
      this.peer.version >= 8 ? { op: message.op, d: message.d, seq: message.seq } : { op: message.op, d: message.d },
    );
  }
}
