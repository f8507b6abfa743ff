import type { GuildReply, VoiceStateChange } from '../../proto/gen/chorus/v1/guild.js';
import {
  BadRequestError,
  MissingPermissionsError,
  UnknownEntityError,
  ValidationError,
} from '../../src/domain/errors.js';
import { hasAll, Permission } from '../../src/domain/permissions.js';
import { ActorKind } from '../runtime/ActorKind.js';
import type { StoredVoiceState } from '../runtime/ports/voiceStateStore.js';
import { dispatchEvent } from './GuildFanout.js';
import type { GuildRuntime } from './GuildRuntime.js';
import { jsonReply } from './GuildRuntime.js';
import type { GuildState } from './GuildState.js';
import { ChannelType } from './guildChannelModel.js';
import { memberJson, type JsonObject } from './guildJson.js';
import { permissionsIn } from './guildPermissions.js';
import { isBotMember } from './guildPresences.js';
import { tellVoiceRoom, tellVoiceRooms } from './voiceRoomTells.js';

/**
 * One member's voice connection in this guild (one per user, as on Discord: a second session joining
 * takes it over). Held in memory and written through to the voice state store (GuildVoiceStore), so a
 * new activation of the guild (passivation, failover) restores it (guildVoiceRestore.ts).
 */
export type VoiceState = StoredVoiceState;

/** Sets a member's voice state: in memory now, in the store right after; the voice rooms concerned are told. */
function setVoice(rt: GuildRuntime, voice: VoiceState): void {
  const before = rt.state.voiceStates.get(voice.userId);
  rt.state.voiceStates.set(voice.userId, voice);
  rt.voiceStore.put(voice, before);
  tellVoiceRooms(rt, voice, before);
}

/** Channel types a voice state can point at. */
export const VOICE_CHANNEL_TYPES: ReadonlySet<number> = new Set([ChannelType.voice, ChannelType.stage]);

/** Discord's voice state object as VOICE_STATE_UPDATE and GUILD_CREATE.voice_states carry it. */
export function voiceStateJson(state: GuildState, voice: VoiceState, channelId: string | null): JsonObject {
  const member = state.members.get(voice.userId);
  return {
    guild_id: state.id,
    channel_id: channelId,
    user_id: voice.userId,
    ...(member ? { member: memberJson(member) } : {}),
    session_id: voice.sessionId,
    deaf: member?.deaf === true,
    mute: member?.mute === true,
    self_deaf: voice.selfDeaf,
    self_mute: voice.selfMute,
    self_stream: false,
    self_video: voice.selfVideo,
    suppress: voice.suppress,
    request_to_speak_timestamp: voice.requestToSpeakTimestamp,
  };
}

/** GUILD_CREATE.voice_states: every member connected to a voice channel. */
export function listVoiceStates(state: GuildState): JsonObject[] {
  return [...state.voiceStates.values()].map((voice) => voiceStateJson(state, voice, voice.channelId));
}

/**
 * Sends VOICE_STATE_UPDATE to the guild: user accounts always, bots with GUILD_VOICE_STATES; never to
 * `skipSessionId` (the session that asked, which sends its own copy before VOICE_SERVER_UPDATE).
 */
export function broadcastVoiceState(rt: GuildRuntime, json: JsonObject, userId: string, skipSessionId = ''): void {
  const state = rt.state;
  const event = dispatchEvent('VOICE_STATE_UPDATE', json);
  const userAccount = (other: string): boolean => !isBotMember(state, other);
  rt.fanout.send(event, (other) => other !== userId, '', userAccount);
  const own = rt.fanout.sessionsOf(userId).filter((sessionId) => sessionId !== skipSessionId);
  if (userAccount(userId)) rt.fanout.sendTo(own, { ...event, intent: 0 });
  else rt.fanout.sendTo(own, event);
}

/** Where a member may not connect: no VIEW_CHANNEL or CONNECT there, or it is full (unless MOVE_MEMBERS). */
function mayConnect(state: GuildState, userId: string, channelId: string, nowMs: number): boolean {
  const channel = state.channels.get(channelId);
  if (!channel || !VOICE_CHANNEL_TYPES.has(channel.type)) return false;
  const permissions = permissionsIn(state, userId, channelId, nowMs);
  if (!hasAll(permissions, Permission.VIEW_CHANNEL | Permission.CONNECT)) return false;
  const limit = channel.fields['user_limit'];
  if (typeof limit !== 'number' || limit <= 0 || hasAll(permissions, Permission.MOVE_MEMBERS)) return true;
  let inside = 0;
  for (const voice of state.voiceStates.values())
    if (voice.channelId === channelId && voice.userId !== userId) inside += 1;
  return inside < limit;
}

/**
 * Whether a member joining `channelId` is suppressed: always in a stage channel (an audience member until
 * invited to speak), in a voice channel when SPEAK is denied.
 */
function suppressedIn(state: GuildState, userId: string, channelId: string, nowMs: number): boolean {
  if (state.channels.get(channelId)?.type === ChannelType.stage) return true;
  return !hasAll(permissionsIn(state, userId, channelId, nowMs), Permission.SPEAK);
}

/**
 * voice_state_change (gateway op 4 of one session): joins, moves or leaves a voice channel. A join Discord
 * would refuse (not a voice channel, no CONNECT, full) is ignored, as Discord's gateway does: no state, no
 * event. Replies `{voice_state, channel_changed}`: the state to send the asking session (null: nothing) and
 * whether it needs a new VOICE_SERVER_UPDATE (a join or a move).
 */
export function voiceStateChange(rt: GuildRuntime, command: VoiceStateChange): GuildReply {
  const state = rt.state;
  const { userId, sessionId, channelId } = command;
  const before = state.voiceStates.get(userId);
  const nothing = jsonReply({ voice_state: null, channel_changed: false });
  if (!state.members.has(userId)) return nothing;
  // The voice service dropped a vanished client: only if its state still names that channel and session.
  const stale = before?.channelId !== command.ifChannelId || before.sessionId !== sessionId;
  if (command.ifChannelId !== '' && (channelId !== '' || stale)) return nothing;
  if (channelId === '') {
    if (!before) return nothing;
    // A drop by the voice service tells the holding session too (it did not ask, so sends no copy of its own).
    const json = leave(rt, before, command.ifChannelId === '' ? sessionId : '');
    return jsonReply({ voice_state: json, channel_changed: false });
  }
  const moved = before?.channelId !== channelId;
  if (moved && !mayConnect(state, userId, channelId, rt.nowMs())) return nothing;
  const voice: VoiceState = {
    userId,
    sessionId,
    channelId,
    selfMute: command.selfMute,
    selfDeaf: command.selfDeaf,
    selfVideo: command.selfVideo,
    suppress: moved || !before ? suppressedIn(state, userId, channelId, rt.nowMs()) : before.suppress,
    requestToSpeakTimestamp: moved ? null : (before?.requestToSpeakTimestamp ?? null),
  };
  setVoice(rt, voice);
  const json = voiceStateJson(state, voice, channelId);
  broadcastVoiceState(rt, json, userId, sessionId);
  return jsonReply({ voice_state: json, channel_changed: moved || before?.sessionId !== sessionId });
}

/** Removes a voice state and tells the guild (channel_id null); the JSON sent. */
function leave(rt: GuildRuntime, voice: VoiceState, skipSessionId = ''): JsonObject {
  const state = rt.state;
  state.voiceStates.delete(voice.userId);
  rt.voiceStore.remove(voice);
  tellVoiceRoom(rt, voice, true);
  const json = voiceStateJson(state, voice, null);
  broadcastVoiceState(rt, json, voice.userId, skipSessionId);
  return json;
}

/** A session ended or unsubscribed: its user leaves voice if that session held the connection. */
export function leaveVoiceOfSession(rt: GuildRuntime, sessionId: string): void {
  if (!rt.exists) return;
  for (const voice of rt.state.voiceStates.values()) {
    if (voice.sessionId === sessionId) leave(rt, voice);
  }
}

/** A voice channel is being deleted: everyone in it is disconnected. */
export function leaveVoiceOfChannel(rt: GuildRuntime, channelId: string): void {
  for (const voice of rt.state.voiceStates.values()) {
    if (voice.channelId === channelId) leave(rt, voice);
  }
}

/** A member is leaving the guild (left, kicked, banned): they leave voice first, while still a member. */
export function leaveVoiceOfUser(rt: GuildRuntime, userId: string): void {
  const voice = rt.state.voiceStates.get(userId);
  if (voice) leave(rt, voice);
}

/** The member's server mute or deafen (or `next` state) changed: their voice state, when connected, tells the guild. */
export function voiceMemberChanged(rt: GuildRuntime, userId: string, next?: VoiceState): void {
  const voice = next ?? rt.state.voiceStates.get(userId);
  if (!voice) return;
  if (next) setVoice(rt, next);
  else tellVoiceRoom(rt, voice);
  broadcastVoiceState(rt, voiceStateJson(rt.state, voice, voice.channelId), userId);
}

/**
 * Permissions changed (a role, overwrites, `userId`'s roles or timeout; '' for everyone): a member who may no
 * longer VIEW_CHANNEL and CONNECT where it is connected is disconnected; in a voice channel suppress follows
 * SPEAK. The voice room hears each connected member's state again (may_speak follows SPEAK).
 */
export function refreshVoiceAccess(rt: GuildRuntime, userId: string): void {
  if (!rt.exists) return;
  const state = rt.state;
  for (const voice of [...state.voiceStates.values()]) {
    if (userId !== '' && voice.userId !== userId) continue;
    const permissions = permissionsIn(state, voice.userId, voice.channelId, rt.nowMs());
    const stage = state.channels.get(voice.channelId)?.type === ChannelType.stage;
    const suppress = stage ? voice.suppress : !hasAll(permissions, Permission.SPEAK);
    if (!hasAll(permissions, Permission.VIEW_CHANNEL | Permission.CONNECT)) leave(rt, voice);
    else if (suppress === voice.suppress) tellVoiceRoom(rt, voice);
    else voiceMemberChanged(rt, voice.userId, { ...voice, suppress });
  }
}

/** The member's voice state; 400 40032 when they are not connected (Discord's answer to moving them). */
export function requireVoiceState(state: GuildState, userId: string): VoiceState {
  const voice = state.voiceStates.get(userId);
  if (!voice) throw new BadRequestError('Target user is not connected to voice.', 40_032);
  return voice;
}

/**
 * PATCH member channel_id (MOVE_MEMBERS, checked by the caller): null disconnects the member; a voice
 * channel moves them there (the mover needs CONNECT there too), and their session is told to send a new
 * VOICE_SERVER_UPDATE. True when the guild was told a new state.
 */
export function moveMember(rt: GuildRuntime, actorId: string, userId: string, channelId: string | null): boolean {
  const state = rt.state;
  const voice = requireVoiceState(state, userId);
  if (channelId === null) {
    leave(rt, voice);
    return true;
  }
  requireMoveTarget(rt, actorId, channelId);
  if (channelId === voice.channelId) return false;
  const next: VoiceState = {
    ...voice,
    channelId,
    suppress: suppressedIn(state, userId, channelId, rt.nowMs()),
    requestToSpeakTimestamp: null,
  };
  setVoice(rt, next);
  broadcastVoiceState(rt, voiceStateJson(state, next, channelId), userId);
  rt.ctx.tell(ActorKind.Session, voice.sessionId, {
    command: { $case: 'voiceServer', voiceServer: { guildId: state.id, channelId } },
  });
  return true;
}

/** 400 50035 unless `channelId` is a voice or stage channel of the guild where the mover has CONNECT. */
export function requireMoveTarget(rt: GuildRuntime, actorId: string, channelId: string): void {
  const state = rt.state;
  const channel = state.channels.get(channelId);
  const moverMay = hasAll(permissionsIn(state, actorId, channelId, rt.nowMs()), Permission.CONNECT);
  if (!channel || !VOICE_CHANNEL_TYPES.has(channel.type) || !moverMay) {
    throw ValidationError.field('channel_id', 'CHANNEL_INVALID', 'Not a voice channel you may move members to.');
  }
}

/** The stage fields PATCH /guilds/{id}/voice-states/{user_id} may change (VoiceStateUpdateSchema's). */
export interface StageVoiceChange {
  readonly channel_id?: string | null;
  readonly suppress?: boolean;
  readonly request_to_speak_timestamp?: string;
}

/**
 * Discord's stage rules: the member must be connected (404 10065) to channel_id, a stage channel (400 50035);
 * anyone may suppress themselves, unsuppressing needs MUTE_MEMBERS (403 50013, someone else's state needed
 * it already); requesting to speak needs REQUEST_TO_SPEAK, for yourself only. Tells the guild the new state.
 */
export function updateStageVoiceState(rt: GuildRuntime, actorId: string, userId: string, body: StageVoiceChange): void {
  const state = rt.state;
  const notStage = () =>
    ValidationError.field('channel_id', 'CHANNEL_INVALID', 'Must be the stage channel the user is in.');
  const named = body.channel_id ? state.channels.get(body.channel_id) : undefined;
  if (body.channel_id && named?.type !== ChannelType.stage) throw notStage();
  const voice = state.voiceStates.get(userId);
  if (!voice) throw new UnknownEntityError('voice state');
  const channel = state.channels.get(voice.channelId);
  if ((body.channel_id ?? voice.channelId) !== voice.channelId || channel?.type !== ChannelType.stage) throw notStage();
  const permissions = permissionsIn(state, actorId, voice.channelId, rt.nowMs());
  let next: VoiceState = voice;
  if (body.suppress !== undefined && body.suppress !== voice.suppress) {
    if (!body.suppress && !hasAll(permissions, Permission.MUTE_MEMBERS))
      throw new MissingPermissionsError('MUTE_MEMBERS');
    // Invited to speak: the raised hand is lowered, as on Discord.
    next = {
      ...next,
      suppress: body.suppress,
      requestToSpeakTimestamp: body.suppress ? next.requestToSpeakTimestamp : null,
    };
  }
  if (body.request_to_speak_timestamp !== undefined) {
    if (actorId !== userId) throw ValidationError.field('request_to_speak_timestamp', 'INVALID', 'Only for @me.');
    if (!hasAll(permissions, Permission.REQUEST_TO_SPEAK)) throw new MissingPermissionsError('REQUEST_TO_SPEAK');
    next = { ...next, requestToSpeakTimestamp: new Date(Date.parse(body.request_to_speak_timestamp)).toISOString() };
  }
  if (next === voice) return;
  setVoice(rt, next);
  broadcastVoiceState(rt, voiceStateJson(state, next, next.channelId), userId);
}
