import { Type, type Static } from '@sinclair/typebox';
import { INLINE_IMAGE_MAX_LENGTH, MAX_ROLES, REASON_MAX_LENGTH, TIMESTAMP_MAX_LENGTH } from './discordLimits.js';
import { boundedArray, closedObject, exactly, imageData, integer, nullable, snowflake } from './wireTypes.js';

/** Discord's member limits: nick 32, guild profile bio 190, pronouns 40. */
const NICK_MAX_LENGTH = 32;
const MEMBER_BIO_MAX_LENGTH = 190;
const PRONOUNS_MAX_LENGTH = 40;
/** An IPv6 address in text form has at most 45 characters. */
const IP_MAX_LENGTH = 64;

/**
 * PUT /guilds/{id}/bans/{user_id} body; the delete windows are integers given as numbers or numeric strings
 * (the spec's strings), within Discord's bounds: 7 days, 604800 seconds.
 */
export const BanCreateSchema = closedObject({
  delete_message_seconds: Type.Optional(integer({ minimum: 0, maximum: 604_800 })),
  delete_message_days: Type.Optional(integer({ minimum: 0, maximum: 7 })),
  reason: Type.Optional(Type.String({ maxLength: REASON_MAX_LENGTH })),
});
/** Validated BanCreateSchema body. */
export type BanCreateBody = Static<typeof BanCreateSchema>;

/** Discord's bulk-ban limit: users a request bans. */
export const BULK_BAN_MAX_USERS = 200;

/** POST /guilds/{id}/bulk-ban body (Discord's; not in the spec): the users, and how far back their messages go. */
export const BulkBanSchema = closedObject({
  user_ids: boundedArray(snowflake(), { maxItems: BULK_BAN_MAX_USERS }),
  delete_message_seconds: Type.Optional(integer({ minimum: 0, maximum: 604_800 })),
  reason: Type.Optional(Type.String({ maxLength: REASON_MAX_LENGTH })),
});
/** Validated BulkBanSchema body. */
export type BulkBanBody = Static<typeof BulkBanSchema>;

/** A ban as moderators see it. */
export const BanModeratorSchema = closedObject({
  id: snowflake(),
  user_id: snowflake(),
  guild_id: snowflake(),
  executor_id: snowflake(),
  reason: Type.Optional(Type.String({ maxLength: REASON_MAX_LENGTH })),
});
/** Validated BanModeratorSchema body. */
export type BanModeratorBody = Static<typeof BanModeratorSchema>;

/** A ban as stored, with the banned IP. */
export const BanRegistrySchema = closedObject({
  id: snowflake(),
  user_id: snowflake(),
  guild_id: snowflake(),
  executor_id: snowflake(),
  ip: Type.Optional(Type.String({ maxLength: IP_MAX_LENGTH })),
  reason: Type.Optional(Type.String({ maxLength: REASON_MAX_LENGTH })),
});
/** Validated BanRegistrySchema body. */
export type BanRegistryBody = Static<typeof BanRegistrySchema>;

/**
 * PATCH /guilds/{id}/members/{user_id} body; a null nick resets it (discord.js sends null). Also the
 * moderation fields Discord accepts here: a timeout end (null lifts it), server mute and deafen, and a
 * voice channel to move to (null disconnects).
 */
export const MemberChangeSchema = closedObject({
  roles: Type.Optional(boundedArray(snowflake(), { maxItems: MAX_ROLES })),
  nick: Type.Optional(nullable(Type.String({ maxLength: NICK_MAX_LENGTH }))),
  // Kept as given on the member record (no blob): bounded like any stored string.
  avatar: Type.Optional(nullable(Type.String({ maxLength: INLINE_IMAGE_MAX_LENGTH }))),
  bio: Type.Optional(Type.String({ maxLength: MEMBER_BIO_MAX_LENGTH })),
  communication_disabled_until: Type.Optional(nullable(Type.String({ maxLength: TIMESTAMP_MAX_LENGTH }))),
  mute: Type.Optional(Type.Boolean()),
  deaf: Type.Optional(Type.Boolean()),
  channel_id: Type.Optional(nullable(snowflake())),
});
/** Validated MemberChangeSchema body. */
export type MemberChangeBody = Static<typeof MemberChangeSchema>;

/** PATCH /guilds/{id}/profile/@me body (theme_colors is exactly 2 integers). */
export const MemberChangeProfileSchema = closedObject({
  banner: Type.Optional(nullable(imageData())),
  nick: Type.Optional(Type.String({ maxLength: NICK_MAX_LENGTH })),
  bio: Type.Optional(Type.String({ maxLength: MEMBER_BIO_MAX_LENGTH })),
  pronouns: Type.Optional(Type.String({ maxLength: PRONOUNS_MAX_LENGTH })),
  theme_colors: Type.Optional(exactly(2, integer())),
});
/** Validated MemberChangeProfileSchema body. */
export type MemberChangeProfileBody = Static<typeof MemberChangeProfileSchema>;

/** PATCH /guilds/{id}/members/@me/nick body; nick is required but may be null (reset). */
export const MemberNickChangeSchema = closedObject({ nick: nullable(Type.String({ maxLength: NICK_MAX_LENGTH })) });
/** Validated MemberNickChangeSchema body. */
export type MemberNickChangeBody = Static<typeof MemberNickChangeSchema>;

/**
 * POST /guilds/{id}/prune body; include_roles is a list of role ids (or, as some clients send it, one
 * comma-separated string of them) and compute_prune_count false skips the count in the answer.
 */
export const PruneSchema = closedObject({
  days: integer(),
  compute_prune_count: Type.Optional(Type.Boolean()),
  include_roles: Type.Optional({
    ...boundedArray(snowflake(), { maxItems: MAX_ROLES }),
    type: ['array', 'string'],
    maxLength: 21 * MAX_ROLES,
  }),
});
/** Validated PruneSchema body. */
export type PruneBody = Static<typeof PruneSchema>;
