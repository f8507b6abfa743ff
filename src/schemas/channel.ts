import { arr, bool, choices, int, nullable, obj, permissionBits, requiring, snowflake, str } from './builders.js';
import { INLINE_IMAGE_MAX_LENGTH, MAX_CHANNELS, NAME_MAX_LENGTH } from './discordLimits.js';

/** Discord: a channel topic holds at most 1024 characters (4096 for forums; the Guild actor checks 1024). */
const TOPIC_MAX_LENGTH = 1024;
/**
 * Permission overwrites of one channel: Discord documents no cap; one per role (250) and as many members
 * again is far beyond any real channel.
 */
const MAX_OVERWRITES = 500;

/** Channel type numbers the spec accepts. */
const CHANNEL_TYPES = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 33, 34, 35, 64, 255] as const;

/**
 * Whom an overwrite targets: 0 role, 1 member (2 is accepted too, as the spec lists it); "0" and "1" as
 * strings too (Discord's validation takes them). The pre-v8 names "role" and "member" are not taken.
 */
export const ChannelPermissionOverwriteType = choices('number', [0, 1, 2]);
/** Validated ChannelPermissionOverwriteType value. */
export type ChannelPermissionOverwriteType = 0 | 1 | 2;

/** allow and deny are "0" when absent (or null), as on Discord. */
const overwriteFields = {
  id: snowflake(),
  type: ChannelPermissionOverwriteType,
  allow: permissionBits(),
  deny: permissionBits(),
};

/**
 * PUT /channels/{id}/permissions/{overwrite_id} body. The id is the path's: JDA, Discord4J, Oceanic and Eris
 * leave it out of the body, and one the body gives is not used.
 */
export const ChannelPermissionOverwriteSchema = obj(overwriteFields, ['type']);
/** Validated ChannelPermissionOverwriteSchema body. */
export interface ChannelPermissionOverwriteBody {
  id?: string;
  type: ChannelPermissionOverwriteType;
  allow?: string;
  deny?: string;
}

/** One item of permission_overwrites (channel create and modify): here the id says whom it targets. */
const ChannelPermissionOverwriteItem = obj(overwriteFields, ['id', 'type']);
/** Validated item of permission_overwrites. */
export interface ChannelPermissionOverwriteItem extends ChannelPermissionOverwriteBody {
  id: string;
}

/** PATCH /channels/{id} body (name at most 100). */
// parent_id, topic and rtc_region also take null, as on Discord: no category / no topic / automatic region.
export const ChannelModifySchema = obj({
  name: str({ maxLength: 100 }),
  type: choices('number', CHANNEL_TYPES),
  topic: nullable(str({ maxLength: TOPIC_MAX_LENGTH })),
  // Kept as given in the channel record (no blob): bounded like any stored string.
  icon: nullable(str({ maxLength: INLINE_IMAGE_MAX_LENGTH })),
  bitrate: int(),
  user_limit: int(),
  rate_limit_per_user: int(),
  position: int(),
  permission_overwrites: arr(ChannelPermissionOverwriteItem, { maxItems: MAX_OVERWRITES }),
  parent_id: nullable(snowflake()),
  id: snowflake(),
  nsfw: bool(),
  rtc_region: nullable(str({ maxLength: 64 })),
  default_auto_archive_duration: int(),
  default_reaction_emoji: nullable(str({ maxLength: NAME_MAX_LENGTH })),
  flags: int(),
  default_thread_rate_limit_per_user: int(),
  video_quality_mode: int(),
});
/** Validated ChannelModifySchema body. */
export interface ChannelModifyBody {
  name?: string;
  type?: (typeof CHANNEL_TYPES)[number];
  topic?: string | null;
  icon?: string | null;
  bitrate?: number;
  user_limit?: number;
  rate_limit_per_user?: number;
  position?: number;
  permission_overwrites?: ChannelPermissionOverwriteItem[];
  parent_id?: string | null;
  id?: string;
  nsfw?: boolean;
  rtc_region?: string | null;
  default_auto_archive_duration?: number;
  default_reaction_emoji?: string | null;
  flags?: number;
  default_thread_rate_limit_per_user?: number;
  video_quality_mode?: number;
}

/** POST /guilds/{id}/channels body: ChannelModifySchema with name required. */
export const ChannelCreateSchema = requiring(ChannelModifySchema, 'name');
/** Validated ChannelCreateSchema body. */
export interface ChannelCreateBody extends ChannelModifyBody {
  name: string;
}

/** PATCH /guilds/{id}/channels body: an array of position changes (errors are keyed "0", "1", ...). */
export const ChannelReorderSchema = arr(
  obj({ id: snowflake(), position: int(), lock_permissions: bool(), parent_id: nullable(snowflake()) }, ['id']),
  { maxItems: MAX_CHANNELS },
);
/** One item of ChannelReorderSchema. */
export interface ChannelReorderItem {
  id: string;
  position?: number;
  lock_permissions?: boolean;
  parent_id?: string | null;
}
/** Validated ChannelReorderSchema body. */
export type ChannelReorderBody = ChannelReorderItem[];

/** Discord's name for the PATCH /guilds/{id}/channels body: the same as ChannelReorderSchema. */
export const GuildChannelPositionSchema = ChannelReorderSchema;
/** Validated GuildChannelPositionSchema body. */
export type GuildChannelPositionBody = ChannelReorderBody;
