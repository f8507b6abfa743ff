import { Type, type Static } from '@sinclair/typebox';
import { INLINE_IMAGE_MAX_LENGTH, MAX_CHANNELS, NAME_MAX_LENGTH } from './discordLimits.js';
import { boundedArray, choices, closedObject, integer, nullable, permissionBits, snowflake } from './wireTypes.js';

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
export type ChannelPermissionOverwriteType = Static<typeof ChannelPermissionOverwriteType>;

/** allow and deny are "0" when absent (or null), as on Discord. */
const overwriteFields = {
  id: Type.Optional(snowflake()),
  type: ChannelPermissionOverwriteType,
  allow: Type.Optional(permissionBits()),
  deny: Type.Optional(permissionBits()),
};

/**
 * PUT /channels/{id}/permissions/{overwrite_id} body. The id is the path's: JDA, Discord4J, Oceanic and Eris
 * leave it out of the body, and one the body gives is not used.
 */
export const ChannelPermissionOverwriteSchema = closedObject(overwriteFields);
/** Validated ChannelPermissionOverwriteSchema body. */
export type ChannelPermissionOverwriteBody = Static<typeof ChannelPermissionOverwriteSchema>;

/** One item of permission_overwrites (channel create and modify): here the id says whom it targets. */
const ChannelPermissionOverwriteItem = closedObject({ ...overwriteFields, id: snowflake() });
/** Validated item of permission_overwrites. */
export type ChannelPermissionOverwriteItem = Static<typeof ChannelPermissionOverwriteItem>;

/** Fields of a channel body, all optional (name at most 100). */
// parent_id, topic and rtc_region also take null, as on Discord: no category / no topic / automatic region.
const channelFields = {
  name: Type.Optional(Type.String({ maxLength: 100 })),
  type: Type.Optional(choices('number', CHANNEL_TYPES)),
  topic: Type.Optional(nullable(Type.String({ maxLength: TOPIC_MAX_LENGTH }))),
  // Kept as given in the channel record (no blob): bounded like any stored string.
  icon: Type.Optional(nullable(Type.String({ maxLength: INLINE_IMAGE_MAX_LENGTH }))),
  bitrate: Type.Optional(integer()),
  user_limit: Type.Optional(integer()),
  rate_limit_per_user: Type.Optional(integer()),
  position: Type.Optional(integer()),
  permission_overwrites: Type.Optional(boundedArray(ChannelPermissionOverwriteItem, { maxItems: MAX_OVERWRITES })),
  parent_id: Type.Optional(nullable(snowflake())),
  id: Type.Optional(snowflake()),
  nsfw: Type.Optional(Type.Boolean()),
  rtc_region: Type.Optional(nullable(Type.String({ maxLength: 64 }))),
  default_auto_archive_duration: Type.Optional(integer()),
  default_reaction_emoji: Type.Optional(nullable(Type.String({ maxLength: NAME_MAX_LENGTH }))),
  flags: Type.Optional(integer()),
  default_thread_rate_limit_per_user: Type.Optional(integer()),
  video_quality_mode: Type.Optional(integer()),
};
/** PATCH /channels/{id} body. */
export const ChannelModifySchema = closedObject(channelFields);
/** Validated ChannelModifySchema body. */
export type ChannelModifyBody = Static<typeof ChannelModifySchema>;

/** POST /guilds/{id}/channels body: ChannelModifySchema with name required. */
export const ChannelCreateSchema = closedObject({ ...channelFields, name: Type.String({ maxLength: 100 }) });
/** Validated ChannelCreateSchema body. */
export type ChannelCreateBody = Static<typeof ChannelCreateSchema>;

/** PATCH /guilds/{id}/channels body: an array of position changes (errors are keyed "0", "1", ...). */
export const ChannelReorderSchema = boundedArray(
  closedObject({
    id: snowflake(),
    position: Type.Optional(integer()),
    lock_permissions: Type.Optional(Type.Boolean()),
    parent_id: Type.Optional(nullable(snowflake())),
  }),
  { maxItems: MAX_CHANNELS },
);
/** One item of ChannelReorderSchema. */
export type ChannelReorderItem = ChannelReorderBody[number];
/** Validated ChannelReorderSchema body. */
export type ChannelReorderBody = Static<typeof ChannelReorderSchema>;

/** Discord's name for the PATCH /guilds/{id}/channels body: the same as ChannelReorderSchema. */
export const GuildChannelPositionSchema = ChannelReorderSchema;
/** Validated GuildChannelPositionSchema body. */
export type GuildChannelPositionBody = Static<typeof GuildChannelPositionSchema>;
