import type { VoiceMediaSession } from '../VoiceMediaSession.js';
import type { MediaKind } from './WebRtcPeer.js';

/**
 * The ssrc a receiver must be told (op 5, op 12) for a sender's stream of a kind. A web client hears each sender on
 * an ssrc of its own that its peer chose (per receiver, sender and kind); a UDP client hears a UDP sender under the
 * ssrc Ready assigned and a web client under the ssrc that client announced (its own audio ssrc, kept on the bridge).
 */
export function ssrcSeenBy(receiver: VoiceMediaSession, sender: VoiceMediaSession, kind: MediaKind): number {
  if (receiver.webrtc) return receiver.webrtc.ssrcOf(kind, sender.ssrc);
  if (kind === 'audio') return sender.announced.audio ?? sender.ssrc;
  return sender.announced.video ?? 0;
}

/** The rtx ssrc a receiver sees for a sender's video (0 when there is none: a web receiver gets no retransmissions). */
export function rtxSsrcSeenBy(receiver: VoiceMediaSession, sender: VoiceMediaSession): number {
  if (receiver.webrtc) return 0;
  return sender.announced.rtx ?? 0;
}
