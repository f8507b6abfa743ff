import type {
  ActivateSession,
  ChannelAccess,
  GuildDispatch,
  GuildReply,
  PermissionCheck,
  Subscribe,
  Unsubscribe,
  UserChanged,
} from '../../proto/gen/chorus/v1/guild.js';
import { ValidationError } from '../../src/domain/errors.js';
import { isSnowflake } from '../../src/domain/snowflake.js';
import { GatewayIntent, hasIntent } from '../../src/domain/intents.js';
import { isBotMember, onlinePresences } from './guildPresences.js';
import { leaveVoiceOfSession, listVoiceStates } from './guildVoice.js';
import type { GuildRuntime } from './GuildRuntime.js';
import { callerId, emptyReply, jsonReply } from './GuildRuntime.js';
import type { GuildState } from './GuildState.js';
import { channelJson, guildJson, memberEventJson, memberJson, type JsonObject } from './guildJson.js';
import {
  canView,
  permissionsIn,
  requireAnyPermission,
  requireChannelPermission,
  requireGuildPermission,
  requireMember,
} from './guildPermissions.js';

/** Members listed in GUILD_CREATE besides the subscriber (the rest come through op 8 / member lists). */
const GUILD_CREATE_MEMBERS = 100;
/** Above this many members a guild is "large" (Discord's largest large_threshold). */
const LARGE_THRESHOLD = 250;

/**
 * The GUILD_CREATE payload for one user: the guild, its extras, and only the channels the user can view;
 * `presences` of the online members when the session may see them (GUILD_PRESENCES).
 */
export function guildCreatePayload(state: GuildState, userId: string, withPresences = false): JsonObject {
  const self = requireMember(state, userId);
  const members = [memberJson(self)];
  for (const member of state.members.values()) {
    if (members.length > GUILD_CREATE_MEMBERS) break;
    if (member.user_id !== userId) members.push(memberJson(member));
  }
  return {
    ...guildJson(state),
    joined_at: self.joined_at,
    large: state.members.size > LARGE_THRESHOLD,
    unavailable: false,
    lazy: true,
    member_count: state.members.size,
    members,
    channels: state
      .sortedChannels()
      .filter((channel) => canView(state, userId, channel.id))
      .map((channel) => channelJson(channel, false)),
    threads: [],
    presences: withPresences ? onlinePresences(state, GUILD_CREATE_MEMBERS) : [],
    voice_states: listVoiceStates(state),
    stage_instances: [],
    guild_scheduled_events: [],
    soundboard_sounds: [],
    embedded_activities: [],
    application_command_counts: {},
  };
}

/**
 * subscribe: members only; replies the GUILD_CREATE payload. last_message_id is owned by the channel
 * actors, so it is refreshed from storage here (one read per subscription) rather than kept in step.
 */
export async function subscribe(rt: GuildRuntime, command: Subscribe): Promise<GuildReply> {
  const state = rt.state;
  requireMember(state, command.userId);
  const stored = await rt.stores.channels.listByGuild(state.id);
  for (const record of stored) {
    const channel = state.channels.get(record.id);
    if (!channel) continue;
    channel.last_message_id = record.last_message_id;
    channel.last_pin_timestamp = record.last_pin_timestamp;
  }
  const intents = BigInt(command.intents || '0');
  await rt.subscriptions.subscribe(command.sessionId, command.userId, intents);
  const presences = !isBotMember(state, command.userId) || hasIntent(intents, GatewayIntent.GUILD_PRESENCES);
  return jsonReply(guildCreatePayload(state, command.userId, presences));
}

/**
 * unsubscribe: the session no longer gets this guild's dispatches (idempotent, even for a deleted
 * guild). Sent by the session when it ends, and by the system when a fan-out found the session gone.
 * A voice connection the session held ends with it (VOICE_STATE_UPDATE with channel_id null).
 */
export async function unsubscribe(rt: GuildRuntime, command: Unsubscribe): Promise<GuildReply> {
  await rt.subscriptions.unsubscribe([command.sessionId]);
  leaveVoiceOfSession(rt, command.sessionId);
  return emptyReply();
}

/**
 * activate_session (a session sent op 14 / 37 for this guild): from now on it gets every message and typing
 * even when the guild is large; in memory only, so a re-activated guild sees it passive until its next op 14.
 */
export function activateSession(rt: GuildRuntime, command: ActivateSession): GuildReply {
  rt.fanout.activate(command.sessionId);
  return emptyReply();
}

/**
 * dispatch (from channel actors): fan out to sessions allowed by intents and, with channel_id, VIEW_CHANNEL;
 * with only_user, to the sessions of user_id subscribed here only (those on the guild's shard).
 */
export function dispatch(rt: GuildRuntime, command: GuildDispatch): GuildReply {
  const state = rt.state;
  if (!command.event) return emptyReply();
  if (command.onlyUser) {
    rt.fanout.sendTo(rt.fanout.sessionsOf(command.userId), command.event);
    return emptyReply();
  }
  const channelId = command.channelId;
  const audience = channelId ? (userId: string) => canView(state, userId, channelId) : undefined;
  rt.fanout.send(command.event, audience, command.userId);
  return emptyReply();
}

/**
 * channel_access: the permission snapshot a channel actor caches; pure memory, O(roles + overwrites).
 * The channel is noted as a holder, told when the snapshot changes (see GuildRuntime.memberChanged).
 * A running timeout bounds the snapshot's life: permissions come back when it ends, with no event.
 */
export function channelAccess(rt: GuildRuntime, command: ChannelAccess): GuildReply {
  const state = rt.state;
  const nowMs = rt.nowMs();
  const member = state.members.get(command.userId);
  const permissions = member ? permissionsIn(state, command.userId, command.channelId, nowMs) : 0n;
  const timeoutEndMs = Date.parse(member?.communication_disabled_until ?? '');
  state.accessHolders.note(command.channelId, command.userId);
  return {
    reply: {
      $case: 'channelAccess',
      channelAccess: {
        permissions: permissions.toString(),
        member: member !== undefined,
        version: String(state.version),
        memberJson: member ? JSON.stringify(memberJson(member)) : '',
        validUntilMs: timeoutEndMs > nowMs ? String(timeoutEndMs) : '0',
      },
    },
  };
}

/**
 * check_permission: passes for a member holding the bits (in the channel when given), or one of them
 * when `any` is set; 404/403 otherwise.
 */
export function checkPermission(rt: GuildRuntime, command: PermissionCheck): GuildReply {
  const state = rt.state;
  const userId = callerId(command.caller);
  if (!/^\d{0,20}$/.test(command.permissions)) {
    throw ValidationError.field('permissions', 'NUMBER_TYPE_COERCE', 'Not a permission mask.');
  }
  const bits = BigInt(command.permissions || '0');
  const channelId = command.channelId && isSnowflake(command.channelId) ? command.channelId : undefined;
  if (command.any) requireAnyPermission(state, userId, bits, channelId);
  else if (channelId !== undefined) requireChannelPermission(state, userId, channelId, bits);
  else requireGuildPermission(state, userId, bits);
  return emptyReply();
}

/** user_changed (from the User actor): refreshes the member's user snapshot and tells GUILD_MEMBER_UPDATE. */
export async function userChanged(rt: GuildRuntime, command: UserChanged): Promise<GuildReply> {
  const state = rt.state;
  const member = state.members.get(command.userId);
  if (!member) return emptyReply();
  let user: unknown;
  try {
    user = JSON.parse(command.userJson);
  } catch {
    return emptyReply();
  }
  if (!user || typeof user !== 'object') return emptyReply();
  const next = { ...member, user: user as Record<string, unknown> };
  await rt.stores.guilds.saveMember(next);
  state.members.set(next.user_id, next);
  rt.emit('GUILD_MEMBER_UPDATE', memberEventJson(state.id, next), undefined, next.user_id);
  rt.memberChanged(next.user_id); // snapshots carry the member object, user included
  return emptyReply();
}
