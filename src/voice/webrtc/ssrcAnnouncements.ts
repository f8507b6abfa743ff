import type { VoiceVideoBody } from '../../contract/voice.js';
import type { VoiceMediaSession } from '../VoiceMediaSession.js';
import type { VoiceRooms } from '../VoiceRooms.js';
import { VoiceOp } from '../voiceProtocol.js';
import { rtxSsrcSeenBy, ssrcSeenBy } from './ssrcView.js';

/**
 * Tells a member who is present, one op 5 each, with the ssrcs as that member will see them: a receiver maps ssrc
 * to user only through op 5, so this goes before any media reaches it.
 */
export function tellPresent(rooms: VoiceRooms, member: VoiceMediaSession): void {
  for (const other of rooms.othersOf(member)) {
    member.sendNumbered(VoiceOp.speaking, {
      user_id: other.claims.userId,
      ssrc: ssrcSeenBy(member, other, 'audio'),
      speaking: other.speaking,
    });
  }
}

/** Relays a member's op 5 to the rest of its room, each receiver told the ssrc it hears the member under. */
export function relaySpeaking(rooms: VoiceRooms, member: VoiceMediaSession, speaking: number): void {
  for (const other of rooms.othersOf(member)) {
    other.sendNumbered(VoiceOp.speaking, {
      user_id: member.claims.userId,
      ssrc: ssrcSeenBy(other, member, 'audio'),
      speaking,
    });
  }
}

/** Relays a member's op 12 (its streams) to the rest of its room with the ssrcs each receiver sees; 0 is "none". */
export function relayVideo(rooms: VoiceRooms, member: VoiceMediaSession, body: VoiceVideoBody): void {
  for (const other of rooms.othersOf(member)) {
    const video = body.video_ssrc > 0 ? ssrcSeenBy(other, member, 'video') : 0;
    const rtx = body.video_ssrc > 0 ? rtxSsrcSeenBy(other, member) : 0;
    other.sendNumbered(VoiceOp.video, {
      user_id: member.claims.userId,
      audio_ssrc: body.audio_ssrc > 0 ? ssrcSeenBy(other, member, 'audio') : 0,
      video_ssrc: video,
      rtx_ssrc: rtx,
      streams: (body.streams ?? []).map((stream) => ({
        ...stream,
        ssrc: stream.ssrc > 0 ? video : 0,
        rtx_ssrc: stream.rtx_ssrc > 0 ? rtx : 0,
      })),
    });
  }
}
