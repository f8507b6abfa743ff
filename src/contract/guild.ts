import { Type, type Static } from '@sinclair/typebox';
import { ChannelModifySchema } from './channel.js';
import { MAX_CHANNELS, MAX_ROLES, NAME_MAX_LENGTH, OPAQUE_MAX_LENGTH } from './discordLimits.js';
import {
  boundedArray,
  closedObject,
  imageData,
  integer,
  nullable,
  oneOfTypes,
  permissionBits,
  snowflake,
} from './wireTypes.js';

/** Discord documents no limit on a guild description; its client allows far fewer than this. */
const GUILD_DESCRIPTION_MAX_LENGTH = 1024;
/** A voice region id or a guild template code: short ids. */
const SHORT_ID_MAX_LENGTH = 64;
/** Guild feature names (COMMUNITY, DISCOVERABLE, ...): Discord has a few dozen. */
const MAX_FEATURES = 100;
/** Discord: emoji names are 2..32 characters (the Guild actor checks which characters). */
const EMOJI_NAME_MAX_LENGTH = 32;
/** Discord's welcome screen: 5 channels, a 140-character description, 50 per channel. */
const MAX_WELCOME_CHANNELS = 5;

/** POST /guilds body (name at most 100). */
export const GuildCreateSchema = closedObject({
  name: Type.Optional(Type.String({ maxLength: 100 })),
  region: Type.Optional(Type.String({ maxLength: SHORT_ID_MAX_LENGTH })),
  icon: Type.Optional(nullable(imageData())),
  channels: Type.Optional(boundedArray(ChannelModifySchema, { maxItems: MAX_CHANNELS })),
  guild_template_code: Type.Optional(Type.String({ maxLength: SHORT_ID_MAX_LENGTH })),
  system_channel_id: Type.Optional(snowflake()),
  rules_channel_id: Type.Optional(snowflake()),
});
/** Validated GuildCreateSchema body. */
export type GuildCreateBody = Static<typeof GuildCreateSchema>;

/** PATCH /guilds/{id} body; owner_id transfers the guild (owner only). null clears a channel, the description. */
export const GuildUpdateSchema = closedObject({
  name: Type.Optional(Type.String({ maxLength: NAME_MAX_LENGTH })),
  banner: Type.Optional(nullable(imageData())),
  splash: Type.Optional(nullable(imageData())),
  description: Type.Optional(nullable(Type.String({ maxLength: GUILD_DESCRIPTION_MAX_LENGTH }))),
  features: Type.Optional(boundedArray(Type.String({ maxLength: 64 }), { maxItems: MAX_FEATURES })),
  verification_level: Type.Optional(integer()),
  default_message_notifications: Type.Optional(integer()),
  system_channel_flags: Type.Optional(integer()),
  explicit_content_filter: Type.Optional(integer()),
  public_updates_channel_id: Type.Optional(nullable(snowflake())),
  afk_timeout: Type.Optional(integer()),
  afk_channel_id: Type.Optional(nullable(snowflake())),
  preferred_locale: Type.Optional(Type.String({ maxLength: 16 })),
  premium_progress_bar_enabled: Type.Optional(Type.Boolean()),
  discovery_splash: Type.Optional(nullable(imageData())),
  region: Type.Optional(Type.String({ maxLength: SHORT_ID_MAX_LENGTH })),
  icon: Type.Optional(nullable(imageData())),
  guild_template_code: Type.Optional(Type.String({ maxLength: SHORT_ID_MAX_LENGTH })),
  system_channel_id: Type.Optional(nullable(snowflake())),
  rules_channel_id: Type.Optional(nullable(snowflake())),
  owner_id: Type.Optional(snowflake()),
});
/** Validated GuildUpdateSchema body. */
export type GuildUpdateBody = Static<typeof GuildUpdateSchema>;

/** POST /guilds/templates/{code} body: create a guild from a template. */
export const GuildTemplateCreateSchema = closedObject({
  name: Type.String({ maxLength: NAME_MAX_LENGTH }),
  avatar: Type.Optional(nullable(imageData())),
});
/** Validated GuildTemplateCreateSchema body. */
export type GuildTemplateCreateBody = Static<typeof GuildTemplateCreateSchema>;

/** POST /guilds/{id}/templates body. */
// Discord: name 1..100, description at most 120; the Guild actor answers for both (name after trimming).
export const TemplateCreateSchema = closedObject({
  name: Type.String({ maxLength: NAME_MAX_LENGTH }),
  description: Type.Optional(Type.String({ maxLength: 120 })),
});
/** Validated TemplateCreateSchema body. */
export type TemplateCreateBody = Static<typeof TemplateCreateSchema>;
/** PATCH /guilds/{id}/templates/{code} body (same fields as TemplateCreateSchema). */
export const TemplateModifySchema = TemplateCreateSchema;
/** Validated TemplateModifySchema body. */
export type TemplateModifyBody = Static<typeof TemplateModifySchema>;

/** PATCH /guilds/{id}/vanity-url body (code 1..20). */
export const VanityUrlSchema = closedObject({ code: Type.Optional(Type.String({ minLength: 1, maxLength: 20 })) });
/** Validated VanityUrlSchema body. */
export type VanityUrlBody = Static<typeof VanityUrlSchema>;

/** PATCH /guilds/{id}/welcome-screen body. */
export const GuildUpdateWelcomeScreenSchema = closedObject({
  welcome_channels: Type.Optional(
    boundedArray(
      closedObject({
        channel_id: snowflake(),
        description: Type.String({ maxLength: 50 }),
        emoji_id: Type.Optional(snowflake()),
        emoji_name: Type.Optional(Type.String({ maxLength: EMOJI_NAME_MAX_LENGTH })),
      }),
      { maxItems: MAX_WELCOME_CHANNELS },
    ),
  ),
  enabled: Type.Optional(Type.Boolean()),
  description: Type.Optional(Type.String({ maxLength: 140 })),
});
/** Validated GuildUpdateWelcomeScreenSchema body. */
export type GuildUpdateWelcomeScreenBody = Static<typeof GuildUpdateWelcomeScreenSchema>;

/** PATCH /guilds/{id}/widget body; a null channel_id means no invite channel, as on Discord. */
export const WidgetModifySchema = closedObject({ enabled: Type.Boolean(), channel_id: nullable(snowflake()) });
/** Validated WidgetModifySchema body. */
export type WidgetModifyBody = Static<typeof WidgetModifySchema>;

/** POST /guilds/{id}/emojis body. */
export const EmojiCreateSchema = closedObject({
  image: imageData(),
  name: Type.Optional(Type.String({ maxLength: EMOJI_NAME_MAX_LENGTH })),
  require_colons: Type.Optional(nullable(Type.Boolean())),
  roles: Type.Optional(boundedArray(snowflake(), { maxItems: MAX_ROLES })),
});
/** Validated EmojiCreateSchema body. */
export type EmojiCreateBody = Static<typeof EmojiCreateSchema>;
/** EmojiCreateSchema as the Guild actor receives it: the edge keeps the image (stored as a blob). */
export const EmojiCreateWithoutImage = Type.Omit(EmojiCreateSchema, ['image']);

/** PATCH /guilds/{id}/emojis/{emoji_id} body. */
export const EmojiModifySchema = closedObject({
  name: Type.Optional(Type.String({ maxLength: EMOJI_NAME_MAX_LENGTH })),
  roles: Type.Optional(boundedArray(snowflake(), { maxItems: MAX_ROLES })),
});
/** Validated EmojiModifySchema body. */
export type EmojiModifyBody = Static<typeof EmojiModifySchema>;

/** POST/PATCH /guilds/{id}/stickers body (name 2..30, tags at most 200, description at most 100). */
export const ModifyGuildStickerSchema = closedObject({
  name: Type.String({ minLength: 2, maxLength: 30 }),
  tags: Type.String({ maxLength: 200 }),
  description: Type.Optional(Type.String({ maxLength: 100 })),
});
/** Validated ModifyGuildStickerSchema body. */
export type ModifyGuildStickerBody = Static<typeof ModifyGuildStickerSchema>;

/**
 * PATCH /guilds/{id}/roles/{role_id} body (permissions is a decimal bitfield string or a number; name at most
 * 100, as on Discord). Newer clients send `colors` ({primary_color, ...}) instead of `color`. A null icon or
 * unicode_emoji removes it (discord.js role.setIcon(null)).
 */
export const RoleModifySchema = closedObject({
  name: Type.Optional(Type.String({ maxLength: NAME_MAX_LENGTH })),
  permissions: Type.Optional(permissionBits()),
  color: Type.Optional(integer()),
  colors: Type.Optional(
    closedObject({
      primary_color: Type.Optional(integer()),
      secondary_color: Type.Optional(nullable(integer())),
      tertiary_color: Type.Optional(nullable(integer())),
    }),
  ),
  hoist: Type.Optional(Type.Boolean()),
  mentionable: Type.Optional(Type.Boolean()),
  position: Type.Optional(integer()),
  icon: Type.Optional(nullable(imageData())),
  unicode_emoji: Type.Optional(nullable(Type.String({ maxLength: EMOJI_NAME_MAX_LENGTH }))),
});
/** Validated RoleModifySchema body. */
export type RoleModifyBody = Static<typeof RoleModifySchema>;
/** POST /guilds/{id}/roles body: the same fields as RoleModifySchema. */
export const RoleCreateSchema = RoleModifySchema;
/** Validated RoleCreateSchema body. */
export type RoleCreateBody = Static<typeof RoleCreateSchema>;

/** PATCH /guilds/{id}/roles body: an array of {id, position} (errors are keyed "0", "1", ...). */
export const RolePositionUpdateSchema = boundedArray(closedObject({ id: snowflake(), position: integer() }), {
  maxItems: MAX_ROLES,
});
/** Validated RolePositionUpdateSchema body. */
export type RolePositionUpdateBody = Static<typeof RolePositionUpdateSchema>;

/** Members one PATCH /guilds/{id}/roles/{role_id}/members gives the role to (a Discord client route). */
export const ROLE_MEMBERS_MAX = 100;

/** PATCH /guilds/{id}/roles/{role_id}/members body: the members to give the role. */
export const RoleMembersSchema = closedObject({
  member_ids: boundedArray(snowflake(), { maxItems: ROLE_MEMBERS_MAX }),
});

/**
 * POST /channels/{id}/invites body; target_type also takes an integer, as Discord clients send it, and
 * both target fields may be null (discord.js sends null for "no target").
 */
export const InviteCreateSchema = closedObject({
  target_user_id: Type.Optional(nullable(snowflake())),
  target_type: Type.Optional(nullable(oneOfTypes(['string', 'integer'], { maxLength: 16 }))),
  validate: Type.Optional(Type.String({ maxLength: OPAQUE_MAX_LENGTH })),
  max_age: Type.Optional(integer()),
  max_uses: Type.Optional(integer()),
  temporary: Type.Optional(Type.Boolean()),
  unique: Type.Optional(Type.Boolean()),
  target_user: Type.Optional(Type.String({ maxLength: OPAQUE_MAX_LENGTH })),
  target_user_type: Type.Optional(integer()),
});
/** Validated InviteCreateSchema body. */
export type InviteCreateBody = Static<typeof InviteCreateSchema>;

/** POST /channels/{id}/purge body: delete messages between two ids. */
export const PurgeSchema = closedObject({ before: snowflake(), after: snowflake() });
/** Validated PurgeSchema body. */
export type PurgeBody = Static<typeof PurgeSchema>;

/** POST /channels/{id}/webhooks body (name at most 80). */
export const WebhookCreateSchema = closedObject({
  name: Type.String({ maxLength: 80 }),
  avatar: Type.Optional(imageData()),
});
/** Validated WebhookCreateSchema body. */
export type WebhookCreateBody = Static<typeof WebhookCreateSchema>;

/** PATCH /webhooks/{id}[/{token}] body; the Channel actor checks the name and refuses another channel_id. */
export const WebhookModifySchema = closedObject({
  name: Type.Optional(Type.String({ maxLength: 80 })),
  avatar: Type.Optional(nullable(imageData())),
  channel_id: Type.Optional(nullable(snowflake())),
});
/** Validated WebhookModifySchema body. */
export type WebhookModifyBody = Static<typeof WebhookModifySchema>;

/** Member, ban and prune payloads live in member.ts (same spec section). */
export * from './member.js';
