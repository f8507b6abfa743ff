import type {
  ActivateSession,
  ChannelAccess,
  GuildCommand,
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
import { isBotMember } from './guildPresences.js';
import { GuildCreateText, listedMembers, presencesFor, type GuildCreateCut } from './guildCreateText.js';
import { leaveVoiceOfSession, listVoiceStates } from './guildVoice.js';
import type { GuildRuntime } from './GuildRuntime.js';
import { callerId, emptyReply } from './GuildRuntime.js';
import type { GuildState } from './GuildState.js';
import { channelJson, guildJson, memberEventJson, memberJson, type JsonObject } from './guildJson.js';
import {
  canView,
  permissionsIn,
  requireAnyPermission,
  requireChannelPermission,
  requireGuildPermission,
  requireMember,
  viewerTest,
} from './guildPermissions.js';

/** Members listed in GUILD_CREATE besides the subscriber (the rest come through op 8 / member lists). */
const GUILD_CREATE_MEMBERS = 100;

/**
 * Commands that change nothing a GUILD_CREATE shows, or only what GuildCreateText checks itself (a
 * channel's last message, presences, voice states): the hot ones of a connect storm and plain reads.
 * After any other command the cached parts are dropped.
 */
type GuildCommandName = NonNullable<GuildCommand['command']>['$case'];
const KEEPS_GUILD_CREATE: ReadonlySet<GuildCommandName> = new Set<GuildCommandName>([
  'subscribe',
  'unsubscribe',
  'activateSession',
  'dispatch',
  'channelAccess',
  'checkPermission',
  'memberPresence',
  'listPresences',
  'getGuild',
  'getChannel',
  'listChannels',
  'listRoles',
  'mentionableRoles',
  'getMember',
  'listMembers',
]);

/** Called by the Guild actor after each command: drops the cached GUILD_CREATE parts unless the command kept them. */
export function afterCommand(rt: GuildRuntime, command: GuildCommandName | undefined): void {
  if (command !== undefined && KEEPS_GUILD_CREATE.has(command)) return;
  rt.guildCreateText?.clear();
  rt.channelsReadAtMs = undefined;
}

/**
 * How long one read of the guild's stored channels serves the subscribes after it: well under the Channel's
 * flush delay (250 ms, ChannelScope), the time its last_message_id already takes to reach the store. A storm
 * of a thousand subscribes a second then reads the channels ten times a second instead of a thousand.
 */
const CHANNELS_READ_FOR_MS = 100;

/**
 * last_message_id and last_pin_timestamp are owned by the channel actors, so they are refreshed from storage
 * here rather than kept in step, at most once per CHANNELS_READ_FOR_MS.
 */
async function refreshLastMessages(rt: GuildRuntime): Promise<void> {
  const state = rt.state;
  const now = rt.nowMs();
  const readAt = rt.channelsReadAtMs;
  if (readAt !== undefined && now >= readAt && now - readAt < CHANNELS_READ_FOR_MS) return;
  const stored = await rt.stores.channels.listByGuild(state.id);
  for (const record of stored) {
    const channel = state.channels.get(record.id);
    if (!channel) continue;
    channel.last_message_id = record.last_message_id;
    channel.last_pin_timestamp = record.last_pin_timestamp;
  }
  rt.channelsReadAtMs = now;
}

/**
 * What a subscriber's GUILD_CREATE lists. A user account in a large guild gets its own member alone, as
 * Discord's lazy guilds do (the member list comes through op 14 / 37, members through op 8): a 100-member
 * list per identify was most of a connect storm's cost. A bot without GUILD_PRESENCES gets itself and the
 * members in voice, as Discord documents (gateway.md, GUILD_CREATE); other bots and small guilds get up to
 * 100 more members. Presences: for bots only with GUILD_PRESENCES; in a lazy guild only the listed members'.
 */
export function guildCreateCut(rt: GuildRuntime, userId: string, intents: bigint): GuildCreateCut {
  const state = rt.state;
  const bot = isBotMember(state, userId);
  const large = state.members.size > rt.largeGuildMembers;
  const lazy = large && !bot;
  const presences = !bot || hasIntent(intents, GatewayIntent.GUILD_PRESENCES);
  return {
    otherMembers: lazy || !presences ? 0 : GUILD_CREATE_MEMBERS,
    voiceMembers: !presences,
    presences: !presences ? 'none' : lazy ? 'listed' : 'online',
    onlineLimit: GUILD_CREATE_MEMBERS,
    large,
  };
}

/**
 * The GUILD_CREATE payload for one user as an object (the uncached form GuildCreateText's text equals): the
 * guild, its extras, and only the channels the user can view.
 */
export function guildCreatePayload(state: GuildState, userId: string, cut: GuildCreateCut): JsonObject {
  const self = requireMember(state, userId);
  const members = listedMembers(state, self, cut);
  return {
    ...guildJson(state),
    joined_at: self.joined_at,
    large: cut.large,
    unavailable: false,
    lazy: true,
    member_count: state.members.size,
    members: members.map(memberJson),
    channels: state
      .sortedChannels()
      .filter((channel) => canView(state, userId, channel.id))
      .map((channel) => channelJson(channel, false)),
    threads: [],
    presences: presencesFor(state, members, cut),
    voice_states: listVoiceStates(state),
    stage_instances: [],
    guild_scheduled_events: [],
    soundboard_sounds: [],
    embedded_activities: [],
    application_command_counts: {},
  };
}

/** subscribe: members only; replies the GUILD_CREATE payload with the subscriber's own member apart. */
export async function subscribe(rt: GuildRuntime, command: Subscribe): Promise<GuildReply> {
  const state = rt.state;
  const self = requireMember(state, command.userId);
  await refreshLastMessages(rt);
  const intents = BigInt(command.intents || '0');
  await rt.subscriptions.subscribe(command.sessionId, command.userId, intents);
  const cut = guildCreateCut(rt, command.userId, intents);
  const text = (rt.guildCreateText ??= new GuildCreateText());
  const rendered = text.render(state, self, cut) ?? {
    text: JSON.stringify(guildCreatePayload(state, command.userId, cut)),
    own: JSON.stringify(memberJson(self)),
  };
  return { reply: { $case: 'subscribed', subscribed: { guildJson: rendered.text, ownMemberJson: rendered.own } } };
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
  const audience = channelId ? viewerTest(state, channelId) : undefined;
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
