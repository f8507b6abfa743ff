import type { VoiceMediaSession } from '../VoiceMediaSession.js';
import type { MediaKind } from './WebRtcPeer.js';

/**
 * The ssrc a receiver must be told (op 5, op 12) for a sender's stream of a kind. A web client hears everyone
 * through its peer's one sender per kind, whose ssrc werift chose; a UDP client hears a UDP sender under the ssrc
 * Ready assigned and a web client under the ssrc that client announced (its own audio ssrc, kept on the bridge).
 */
export function ssrcSeenBy(receiver: VoiceMediaSession, sender: VoiceMediaSession, kind: MediaKind): number {
  if (receiver.webrtc) {
    if (kind === 'audio') return receiver.webrtc.audioSsrc;
    return receiver.webrtc.videoSsrcs?.ssrc ?? 0;
  }
  if (kind === 'audio') return sender.announced.audio ?? sender.ssrc;
  return sender.announced.video ?? 0;
}

/** The rtx ssrc a receiver sees for a sender's video (0 when there is none). */
export function rtxSsrcSeenBy(receiver: VoiceMediaSession, sender: VoiceMediaSession): number {
  if (receiver.webrtc) return receiver.webrtc.videoSsrcs?.rtx ?? 0;
  return sender.announced.rtx ?? 0;
}
