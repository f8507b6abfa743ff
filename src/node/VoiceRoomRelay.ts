import type { VoiceRoomPort } from '../../actors/runtime/ports/voiceRoomPort.js';
import type { MemberVoiceState } from '../../proto/gen/chorus/v1/voice.js';

/**
 * The voice room actors' way to this node's voice service, which starts after the actor host (it needs the
 * node's HTTP port): until `attach`, and on a node running without voice, decisions have no media to act on.
 */
export class VoiceRoomRelay implements VoiceRoomPort {
  private target: VoiceRoomPort | undefined;

  attach(target: VoiceRoomPort | undefined): void {
    this.target = target;
  }

  applyMemberState(channelId: string, state: MemberVoiceState): void {
    this.target?.applyMemberState(channelId, state);
  }

  /** Without a voice service there is nothing to re-home a room to: every room counts as known. */
  knowsRoom(guildId: string, channelId: string): boolean {
    return this.target?.knowsRoom(guildId, channelId) ?? true;
  }
}
