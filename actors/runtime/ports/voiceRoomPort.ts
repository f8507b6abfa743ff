import type { MemberVoiceState } from '../../../proto/gen/chorus/v1/voice.js';

/**
 * This node's voice service as the voice room actor sees it: applies what the Guild decided about a member of
 * a voice channel to the media of that channel hosted here (closing, deafening, silencing).
 */
export interface VoiceRoomPort {
  applyMemberState(channelId: string, state: MemberVoiceState): void;
}
