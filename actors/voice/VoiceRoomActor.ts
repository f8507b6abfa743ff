import type { VoiceRoomCommand, VoiceRoomReply } from '../../proto/gen/chorus/v1/voice.js';
import { Actor } from '../runtime/Actor.js';
import type { ActorContext } from '../runtime/ActorContext.js';
import { ActorKind } from '../runtime/ActorKind.js';
import type { VoiceRoomPort } from '../runtime/ports/voiceRoomPort.js';

/**
 * One voice channel's room (key: channel id). The ring places it by `voice:<channel id>`, the key the voice
 * placement names VOICE_SERVER_UPDATE's endpoint by, so it always runs on the node whose voice service hosts the
 * channel's media. It keeps nothing itself: it hands the Guild's decisions to that service, which remembers the
 * latest one per member for clients identifying later.
 */
export class VoiceRoomActor extends Actor<VoiceRoomCommand, VoiceRoomReply> {
  constructor(
    private readonly ctx: Pick<ActorContext, 'tell'>,
    private readonly channelId: string,
    private readonly voice: VoiceRoomPort,
  ) {
    super();
  }

  handle(command: VoiceRoomCommand): Promise<VoiceRoomReply> {
    const body = command.command;
    if (body?.$case !== 'memberVoiceState') return Promise.resolve({});
    const state = body.memberVoiceState;
    // The Guild has members in this room but the voice service here never heard of it: the room lived on a node
    // that is gone (or restarted), and they are still connected there.
    if (state.recheck && !state.gone && !this.voice.knowsRoom(state.guildId, this.channelId)) {
      const voiceRoomMoved = { channelId: this.channelId };
      this.ctx.tell(ActorKind.Guild, state.guildId, { command: { $case: 'voiceRoomMoved', voiceRoomMoved } });
    }
    this.voice.applyMemberState(this.channelId, state);
    return Promise.resolve({});
  }
}
