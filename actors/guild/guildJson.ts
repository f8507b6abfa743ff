import type { ChannelRecord, GuildRecord, InviteRecord, MemberRecord, RoleRecord } from '../runtime/ports/records.js';
import type { GuildState } from './GuildState.js';
import { guildEmojisJson, guildStickersJson } from './expressionRecords.js';

/** A JSON object as the wire carries it. */
export type JsonObject = Record<string, unknown>;

/**
 * Keys of GuildRecord.fields the actor keeps for itself (bans, welcome screen, expression and template
 * records); never sent as guild fields. Everything else in `fields` is a Discord guild field and goes out as is.
 */
export const PRIVATE_GUILD_FIELDS: ReadonlySet<string> = new Set([
  'bans',
  'welcome_screen',
  'emojis',
  'stickers',
  'template',
]);

/** Guild fields a new guild starts with (Discord's defaults for a fresh community-less guild). */
export function defaultGuildFields(): JsonObject {
  return {
    splash: null,
    discovery_splash: null,
    banner: null,
    description: null,
    features: [],
    verification_level: 0,
    default_message_notifications: 0,
    explicit_content_filter: 0,
    mfa_level: 0,
    nsfw_level: 0,
    nsfw: false,
    system_channel_id: null,
    system_channel_flags: 0,
    rules_channel_id: null,
    public_updates_channel_id: null,
    safety_alerts_channel_id: null,
    afk_channel_id: null,
    afk_timeout: 300,
    widget_enabled: false,
    widget_channel_id: null,
    vanity_url_code: null,
    premium_tier: 0,
    premium_subscription_count: 0,
    premium_progress_bar_enabled: false,
    preferred_locale: 'en-US',
    region: 'local',
    max_members: 500_000,
    max_presences: null,
    max_video_channel_users: 25,
    max_stage_video_channel_users: 50,
    application_id: null,
    hub_type: null,
    incidents_data: null,
  };
}

/** The public fields of a guild record (without roles and other lists). */
export function guildFields(guild: GuildRecord): JsonObject {
  const out: JsonObject = {
    id: guild.id,
    name: guild.name,
    icon: guild.icon,
    icon_hash: guild.icon,
    owner_id: guild.owner_id,
  };
  for (const [key, value] of Object.entries(guild.fields)) {
    if (!PRIVATE_GUILD_FIELDS.has(key)) out[key] = value;
  }
  return out;
}

/** A role object. */
export function roleJson(role: RoleRecord): JsonObject {
  return {
    id: role.id,
    name: role.name,
    color: role.color,
    colors: { primary_color: role.color, secondary_color: null, tertiary_color: null },
    hoist: role.hoist,
    icon: role.icon,
    unicode_emoji: role.unicode_emoji,
    position: role.position,
    permissions: role.permissions,
    managed: role.managed,
    mentionable: role.mentionable,
    flags: role.flags,
  };
}

/** A member object, with its public user snapshot. */
export function memberJson(member: MemberRecord): JsonObject {
  return {
    user: member.user,
    nick: member.nick,
    avatar: member.avatar,
    banner: member.banner ?? null,
    roles: member.roles,
    joined_at: member.joined_at,
    premium_since: null,
    deaf: member.deaf,
    mute: member.mute,
    pending: member.pending,
    flags: member.flags,
    communication_disabled_until: member.communication_disabled_until,
  };
}

/** A member object with guild_id (GUILD_MEMBER_ADD / GUILD_MEMBER_UPDATE payloads). */
export function memberEventJson(guildId: string, member: MemberRecord): JsonObject {
  return { ...memberJson(member), guild_id: guildId };
}

/** Type-specific defaults, so a record stored without them still has Discord's full shape. */
function channelDefaults(type: number): JsonObject {
  switch (type) {
    case 0:
    case 5:
      return { topic: null, nsfw: false, rate_limit_per_user: 0, default_auto_archive_duration: 4320 };
    case 2:
    case 13:
      return { bitrate: 64_000, user_limit: 0, rtc_region: null, nsfw: false, rate_limit_per_user: 0 };
    case 15:
      return {
        topic: null,
        nsfw: false,
        rate_limit_per_user: 0,
        available_tags: [],
        default_reaction_emoji: null,
        default_sort_order: null,
        default_forum_layout: 0,
      };
    default:
      return {};
  }
}

/** True for channel types that hold messages (and so have last_message_id). */
export function isTextBased(type: number): boolean {
  return type === 0 || type === 2 || type === 5 || type === 13 || type === 15;
}

/** A guild channel object; `withGuildId` false for GUILD_CREATE's channel list, as Discord sends it. */
export function channelJson(channel: ChannelRecord, withGuildId = true): JsonObject {
  const out: JsonObject = { id: channel.id, type: channel.type };
  if (withGuildId) out['guild_id'] = channel.guild_id;
  out['name'] = channel.name;
  out['position'] = channel.position;
  out['parent_id'] = channel.parent_id;
  out['permission_overwrites'] = channel.permission_overwrites.map((o) => ({
    id: o.id,
    type: o.type,
    allow: o.allow,
    deny: o.deny,
  }));
  out['flags'] = 0;
  Object.assign(out, channelDefaults(channel.type), channel.fields);
  if (isTextBased(channel.type)) {
    out['last_message_id'] = channel.last_message_id;
    if (channel.last_pin_timestamp !== null) out['last_pin_timestamp'] = channel.last_pin_timestamp;
  }
  return out;
}

/** The guild object of REST replies and GUILD_UPDATE: fields plus roles, emojis and stickers. */
export function guildJson(state: GuildState): JsonObject {
  return {
    ...guildFields(state.guild),
    roles: state.sortedRoles().map(roleJson),
    emojis: guildEmojisJson(state.guild),
    stickers: guildStickersJson(state.guild),
    channel_ordering: state.sortedChannels().map((c) => c.id),
  };
}

/** The partial guild an invite carries. */
export function inviteGuildJson(guild: GuildRecord): JsonObject {
  const fields = guild.fields;
  return {
    id: guild.id,
    name: guild.name,
    icon: guild.icon,
    splash: fields['splash'] ?? null,
    banner: fields['banner'] ?? null,
    description: fields['description'] ?? null,
    features: fields['features'] ?? [],
    verification_level: fields['verification_level'] ?? 0,
    vanity_url_code: fields['vanity_url_code'] ?? null,
    nsfw_level: fields['nsfw_level'] ?? 0,
    nsfw: fields['nsfw'] ?? false,
    premium_subscription_count: fields['premium_subscription_count'] ?? 0,
  };
}

/** When an invite stops working, as an ISO date; null for a permanent one. */
export function inviteExpiresAt(invite: InviteRecord): string | null {
  if (invite.max_age <= 0) return null;
  return new Date(Date.parse(invite.created_at) + invite.max_age * 1000).toISOString();
}

/** An invite object with its metadata (REST replies). */
export function inviteJson(state: GuildState, invite: InviteRecord, withCounts = false): JsonObject {
  const channel = state.channels.get(invite.channel_id);
  const inviter = invite.inviter_id === null ? undefined : state.members.get(invite.inviter_id)?.user;
  const out: JsonObject = {
    code: invite.code,
    type: 0,
    guild_id: state.id,
    guild: inviteGuildJson(state.guild),
    channel: channel ? { id: channel.id, name: channel.name, type: channel.type } : null,
    max_age: invite.max_age,
    max_uses: invite.max_uses,
    uses: invite.uses,
    temporary: invite.temporary,
    created_at: invite.created_at,
    expires_at: inviteExpiresAt(invite),
  };
  if (inviter) out['inviter'] = inviter;
  if (withCounts) {
    out['approximate_member_count'] = state.members.size;
    out['approximate_presence_count'] = 0;
  }
  return out;
}

/** INVITE_CREATE payload (gateway shape: channel_id and guild_id instead of partial objects). */
export function inviteCreateEventJson(state: GuildState, invite: InviteRecord): JsonObject {
  const inviter = invite.inviter_id === null ? undefined : state.members.get(invite.inviter_id)?.user;
  const out: JsonObject = {
    channel_id: invite.channel_id,
    code: invite.code,
    created_at: invite.created_at,
    guild_id: state.id,
    max_age: invite.max_age,
    max_uses: invite.max_uses,
    temporary: invite.temporary,
    uses: 0,
    expires_at: inviteExpiresAt(invite),
    type: 0,
  };
  if (inviter) out['inviter'] = inviter;
  return out;
}
