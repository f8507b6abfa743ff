import type { MemberVoiceState } from '../../../proto/gen/chorus/v1/voice.js';

/**
 * This node's voice service as the voice room actor sees it: applies what the Guild decided about a member of
 * a voice channel to the media of that channel hosted here (closing, deafening, silencing).
 */
export interface VoiceRoomPort {
  applyMemberState(channelId: string, state: MemberVoiceState): void;
  /** Whether the member (guild, user, gateway session) has a media session in `channelId` on this node. */
  hostsMember(channelId: string, state: MemberVoiceState): boolean;
}
