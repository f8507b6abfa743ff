import type { VoiceRoomCommand, VoiceRoomReply } from '../../proto/gen/chorus/v1/voice.js';
import { Actor } from '../runtime/Actor.js';
import type { VoiceRoomPort } from '../runtime/ports/voiceRoomPort.js';

/**
 * One voice channel's room (key: channel id). The ring places it by `voice:<channel id>`, the key the voice
 * placement names VOICE_SERVER_UPDATE's endpoint by, so it always runs on the node whose voice service hosts the
 * channel's media. It keeps nothing itself: it hands the Guild's decisions to that service, which remembers the
 * latest one per member for clients identifying later.
 */
export class VoiceRoomActor extends Actor<VoiceRoomCommand, VoiceRoomReply> {
  constructor(
    private readonly channelId: string,
    private readonly voice: VoiceRoomPort,
  ) {
    super();
  }

  handle(command: VoiceRoomCommand): Promise<VoiceRoomReply> {
    const body = command.command;
    if (body?.$case === 'memberVoiceState') this.voice.applyMemberState(this.channelId, body.memberVoiceState);
    return Promise.resolve({});
  }
}
