import type { GuildReply } from '../../proto/gen/chorus/v1/guild.js';
import type { MemberVoiceState, VoiceRoomMoved } from '../../proto/gen/chorus/v1/voice.js';
import { hasAll, Permission } from '../../src/domain/permissions.js';
import { ActorKind } from '../runtime/ActorKind.js';
import type { StoredVoiceState } from '../runtime/ports/voiceStateStore.js';
import { emptyReply, type GuildRuntime } from './GuildRuntime.js';
import { permissionsIn } from './guildPermissions.js';

/**
 * What the voice room of `voice.channelId` is told about the member: gone, or in the channel with what it may
 * hear and say. May speak: SPEAK there, not server-muted, not suppressed (self_mute is the client's business).
 */
function memberVoiceState(rt: GuildRuntime, voice: StoredVoiceState, gone: boolean): MemberVoiceState {
  const member = rt.state.members.get(voice.userId);
  const mute = member?.mute === true;
  const speak = gone
    ? false
    : hasAll(permissionsIn(rt.state, voice.userId, voice.channelId, rt.nowMs()), Permission.SPEAK);
  return {
    guildId: rt.state.id,
    userId: voice.userId,
    sessionId: voice.sessionId,
    gone,
    selfDeaf: voice.selfDeaf,
    deaf: member?.deaf === true,
    mute,
    selfMute: voice.selfMute,
    suppress: voice.suppress,
    maySpeak: speak && !mute && !voice.suppress,
    recheck: false,
  };
}

/**
 * Tells the voice room of the member's channel what the Guild now decided (a tell: the room lives on the node
 * hosting the channel's media, wherever the Guild runs). The voice service applies it to the member's media
 * session there: gone closes it (4014), deaf stops what it hears, silenced drops what it says.
 */
export function tellVoiceRoom(rt: GuildRuntime, voice: StoredVoiceState, gone = false): void {
  rt.ctx.tell(ActorKind.Voice, voice.channelId, {
    command: { $case: 'memberVoiceState', memberVoiceState: memberVoiceState(rt, voice, gone) },
  });
}

/**
 * A voice state was set (`before` the previous one): the room it left, or the session that lost it to another
 * session of the same user, hears gone; the room it is in hears the new state.
 */
export function tellVoiceRooms(rt: GuildRuntime, voice: StoredVoiceState, before: StoredVoiceState | undefined): void {
  if (before && (before.channelId !== voice.channelId || before.sessionId !== voice.sessionId))
    tellVoiceRoom(rt, before, true);
  tellVoiceRoom(rt, voice);
}

/**
 * voice_room_moved (a tell from the voice service that hosted the channel): the ring now places the channel's
 * room on another node. Its members are told to that room again (their deafen, mute, may_speak follow them) and
 * each session sends a fresh VOICE_SERVER_UPDATE, whose endpoint names the new node.
 */
export function voiceRoomMoved(rt: GuildRuntime, command: VoiceRoomMoved): GuildReply {
  if (!rt.exists) return emptyReply();
  for (const voice of rt.state.voiceStates.values()) {
    if (voice.channelId !== command.channelId) continue;
    tellVoiceRoom(rt, voice);
    rt.ctx.tell(ActorKind.Session, voice.sessionId, {
      command: { $case: 'voiceServer', voiceServer: { guildId: rt.state.id, channelId: voice.channelId } },
    });
  }
  return emptyReply();
}

/**
 * A node left the cluster (or the Guild activated, maybe after its own node left): rooms that node hosted now run
 * elsewhere, on nodes whose voice service never heard of them. One member of each occupied channel is told to its
 * room again with `recheck`; a room unknown where it now runs answers voice_room_moved (VoiceRoomActor), which
 * sends the channel's members there.
 */
export function recheckVoiceRooms(rt: GuildRuntime): void {
  if (!rt.exists) return;
  const checked = new Set<string>();
  for (const voice of rt.state.voiceStates.values()) {
    if (checked.has(voice.channelId)) continue;
    checked.add(voice.channelId);
    rt.ctx.tell(ActorKind.Voice, voice.channelId, {
      command: {
        $case: 'memberVoiceState',
        memberVoiceState: { ...memberVoiceState(rt, voice, false), recheck: true },
      },
    });
  }
}
