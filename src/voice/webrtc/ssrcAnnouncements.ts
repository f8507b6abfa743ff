import type { VoiceVideoBody } from '../../contract/voice.js';
import type { AnnouncedSsrcs, VoiceMediaSession } from '../VoiceMediaSession.js';
import type { VoiceRooms } from '../VoiceRooms.js';
import { VoiceOp } from '../voiceProtocol.js';
import { rtxSsrcSeenBy, ssrcSeenBy } from './ssrcView.js';

/**
 * Tells a member who is present, one op 5 each (and their last op 12), with the ssrcs as that member will see them: a receiver maps ssrc
 * to user only through op 5, so this goes before any media reaches it.
 */
export function tellPresent(rooms: VoiceRooms, member: VoiceMediaSession): void {
  for (const other of rooms.othersOf(member)) {
    member.sendNumbered(VoiceOp.speaking, {
      user_id: other.claims.userId,
      ssrc: ssrcSeenBy(member, other, 'audio'),
      speaking: other.speaking,
    });
    if (other.lastVideo) member.sendNumbered(VoiceOp.video, videoFor(member, other, other.lastVideo));
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

/**
 * The client's own streams in its op 12: audio, and the video layer to forward: of the simulcast streams it sends
 * (active, with an ssrc) the one of best quality, else `video_ssrc`.
 */
export function ownSsrcsOf(body: VoiceVideoBody): AnnouncedSsrcs {
  const layers = (body.streams ?? []).filter((stream) => stream.type === 'video' && stream.active && stream.ssrc > 0);
  const best = layers.sort((a, b) => b.quality - a.quality)[0];
  if (body.video_ssrc > 0 && best) return { audio: body.audio_ssrc, video: best.ssrc, rtx: best.rtx_ssrc };
  return { audio: body.audio_ssrc, video: body.video_ssrc, rtx: body.rtx_ssrc };
}

/** Op 12 of a sender as one receiver must see it: the ssrcs it hears the sender under; 0 is "none". */
function videoFor(
  receiver: VoiceMediaSession,
  sender: VoiceMediaSession,
  body: VoiceVideoBody,
): Record<string, unknown> {
  const video = body.video_ssrc > 0 ? ssrcSeenBy(receiver, sender, 'video') : 0;
  const rtx = body.video_ssrc > 0 ? rtxSsrcSeenBy(receiver, sender) : 0;
  return {
    user_id: sender.claims.userId,
    audio_ssrc: body.audio_ssrc > 0 ? ssrcSeenBy(receiver, sender, 'audio') : 0,
    video_ssrc: video,
    rtx_ssrc: rtx,
    streams: (body.streams ?? []).map((stream) => ({
      ...stream,
      ssrc: stream.ssrc > 0 ? video : 0,
      rtx_ssrc: stream.rtx_ssrc > 0 ? rtx : 0,
    })),
  };
}

/** Relays a member's op 12 (its streams) to the rest of its room and keeps it for members who join later. */
export function relayVideo(rooms: VoiceRooms, member: VoiceMediaSession, body: VoiceVideoBody): void {
  member.lastVideo = body;
  for (const other of rooms.othersOf(member)) other.sendNumbered(VoiceOp.video, videoFor(other, member, body));
}
