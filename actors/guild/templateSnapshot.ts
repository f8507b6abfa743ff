import type { ChannelRecord, RoleRecord } from '../runtime/ports/records.js';
import type { GuildState } from './GuildState.js';

/** A role of a template: its id is its index (0 = @everyone), as in Discord's serialized_source_guild. */
export interface TemplateRole {
  id: number;
  name: string;
  permissions: string;
  color: number;
  hoist: boolean;
  mentionable: boolean;
  icon: string | null;
  unicode_emoji: string | null;
}

/** A channel of a template: ids are indexes from 1; overwrites name template role ids (role overwrites only). */
export interface TemplateChannel {
  id: number;
  type: number;
  name: string;
  position: number;
  parent_id: number | null;
  permission_overwrites: { id: number; type: 0; allow: string; deny: string }[];
  [field: string]: unknown;
}

/** Discord's serialized_source_guild: what a template copies (no members, messages, emojis or bans). */
export interface SerializedGuild {
  name: string;
  description: string | null;
  region: string;
  verification_level: number;
  default_message_notifications: number;
  explicit_content_filter: number;
  preferred_locale: string;
  afk_timeout: number;
  roles: TemplateRole[];
  channels: TemplateChannel[];
  afk_channel_id: number | null;
  system_channel_id: number | null;
  system_channel_flags: number;
  icon_hash: string | null;
}

function templateRole(role: RoleRecord, index: number): TemplateRole {
  return {
    id: index,
    name: role.name,
    permissions: role.permissions,
    color: role.color,
    hoist: role.hoist,
    mentionable: role.mentionable,
    icon: role.icon,
    unicode_emoji: role.unicode_emoji,
  };
}

function fieldOr<T>(state: GuildState, key: string, fallback: T): T {
  return (state.guild.fields[key] as T | undefined) ?? fallback;
}

/** Serializes the guild's roles (managed ones left out), channels and settings into a template snapshot. */
export function serializeGuild(state: GuildState): SerializedGuild {
  const roleIndex = new Map<string, number>();
  const roles = [state.everyone, ...state.sortedRoles().filter((r) => r.id !== state.id && !r.managed)]
    .filter((role): role is RoleRecord => role !== undefined)
    .map((role, index) => {
      roleIndex.set(role.id, index);
      return templateRole(role, index);
    });
  const channelIndex = new Map<string, number>();
  const sorted = state.sortedChannels();
  sorted.forEach((channel, index) => channelIndex.set(channel.id, index + 1));
  const channels = sorted.map((channel: ChannelRecord): TemplateChannel => ({
    ...channel.fields,
    id: channelIndex.get(channel.id) ?? 0,
    type: channel.type,
    name: channel.name ?? '',
    position: channel.position,
    parent_id: channel.parent_id === null ? null : (channelIndex.get(channel.parent_id) ?? null),
    permission_overwrites: channel.permission_overwrites.flatMap((o) => {
      const id = o.type === 0 ? roleIndex.get(o.id) : undefined;
      return id === undefined ? [] : [{ id, type: 0 as const, allow: o.allow, deny: o.deny }];
    }),
  }));
  const channelRef = (key: string): number | null => {
    const id = fieldOr<string | null>(state, key, null);
    return id === null ? null : (channelIndex.get(id) ?? null);
  };
  return {
    name: state.guild.name,
    description: fieldOr<string | null>(state, 'description', null),
    region: fieldOr(state, 'region', 'local'),
    verification_level: fieldOr(state, 'verification_level', 0),
    default_message_notifications: fieldOr(state, 'default_message_notifications', 0),
    explicit_content_filter: fieldOr(state, 'explicit_content_filter', 0),
    preferred_locale: fieldOr(state, 'preferred_locale', 'en-US'),
    afk_timeout: fieldOr(state, 'afk_timeout', 300),
    roles,
    channels,
    afk_channel_id: channelRef('afk_channel_id'),
    system_channel_id: channelRef('system_channel_id'),
    system_channel_flags: fieldOr(state, 'system_channel_flags', 0),
    icon_hash: state.guild.icon,
  };
}
