import type { MemberVoiceState } from '../../../proto/gen/chorus/v1/voice.js';

/**
 * This node's voice service as the voice room actor sees it: applies what the Guild decided about a member of
 * a voice channel to the media of that channel hosted here (closing, deafening, silencing).
 */
export interface VoiceRoomPort {
  applyMemberState(channelId: string, state: MemberVoiceState): void;
  /**
   * Whether the voice service here knows the channel: was told about a member of it, or hosts a media session
   * in it. A room the Guild has members in that is unknown here lived on a node that is gone.
   */
  knowsRoom(guildId: string, channelId: string): boolean;
}
