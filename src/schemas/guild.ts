import { ChannelModifySchema, type ChannelModifyBody } from './channel.js';
import { arr, bool, imageData, int, nullable, obj, oneOfTypes, permissionBits, snowflake, str } from './builders.js';
import { MAX_CHANNELS, MAX_ROLES, NAME_MAX_LENGTH, OPAQUE_MAX_LENGTH } from './discordLimits.js';

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
export const GuildCreateSchema = obj({
  name: str({ maxLength: 100 }),
  region: str({ maxLength: SHORT_ID_MAX_LENGTH }),
  icon: nullable(imageData()),
  channels: arr(ChannelModifySchema, { maxItems: MAX_CHANNELS }),
  guild_template_code: str({ maxLength: SHORT_ID_MAX_LENGTH }),
  system_channel_id: snowflake(),
  rules_channel_id: snowflake(),
});
/** Validated GuildCreateSchema body. */
export interface GuildCreateBody {
  name?: string;
  region?: string;
  icon?: string | null;
  channels?: ChannelModifyBody[];
  guild_template_code?: string;
  system_channel_id?: string;
  rules_channel_id?: string;
}

/** PATCH /guilds/{id} body; owner_id transfers the guild (owner only). null clears a channel, the description. */
export const GuildUpdateSchema = obj({
  name: str({ maxLength: NAME_MAX_LENGTH }),
  banner: nullable(imageData()),
  splash: nullable(imageData()),
  description: nullable(str({ maxLength: GUILD_DESCRIPTION_MAX_LENGTH })),
  features: arr(str({ maxLength: 64 }), { maxItems: MAX_FEATURES }),
  verification_level: int(),
  default_message_notifications: int(),
  system_channel_flags: int(),
  explicit_content_filter: int(),
  public_updates_channel_id: nullable(snowflake()),
  afk_timeout: int(),
  afk_channel_id: nullable(snowflake()),
  preferred_locale: str({ maxLength: 16 }),
  premium_progress_bar_enabled: bool(),
  discovery_splash: nullable(imageData()),
  region: str({ maxLength: SHORT_ID_MAX_LENGTH }),
  icon: nullable(imageData()),
  guild_template_code: str({ maxLength: SHORT_ID_MAX_LENGTH }),
  system_channel_id: nullable(snowflake()),
  rules_channel_id: nullable(snowflake()),
  owner_id: snowflake(),
});
/** Validated GuildUpdateSchema body. */
export interface GuildUpdateBody {
  name?: string;
  banner?: string | null;
  splash?: string | null;
  description?: string | null;
  features?: string[];
  verification_level?: number;
  default_message_notifications?: number;
  system_channel_flags?: number;
  explicit_content_filter?: number;
  public_updates_channel_id?: string | null;
  afk_timeout?: number;
  afk_channel_id?: string | null;
  preferred_locale?: string;
  premium_progress_bar_enabled?: boolean;
  discovery_splash?: string | null;
  region?: string;
  icon?: string | null;
  guild_template_code?: string;
  system_channel_id?: string | null;
  rules_channel_id?: string | null;
  owner_id?: string;
}

/** POST /guilds/templates/{code} body: create a guild from a template. */
export const GuildTemplateCreateSchema = obj(
  { name: str({ maxLength: NAME_MAX_LENGTH }), avatar: nullable(imageData()) },
  ['name'],
);
/** Validated GuildTemplateCreateSchema body. */
export interface GuildTemplateCreateBody {
  name: string;
  avatar?: string | null;
}

/** POST /guilds/{id}/templates body. */
// Discord: name 1..100, description at most 120; the Guild actor answers for both (name after trimming).
export const TemplateCreateSchema = obj(
  { name: str({ maxLength: NAME_MAX_LENGTH }), description: str({ maxLength: 120 }) },
  ['name'],
);
/** Validated TemplateCreateSchema body. */
export interface TemplateCreateBody {
  name: string;
  description?: string;
}
/** PATCH /guilds/{id}/templates/{code} body (same fields as TemplateCreateSchema). */
export const TemplateModifySchema = TemplateCreateSchema;
/** Validated TemplateModifySchema body. */
export type TemplateModifyBody = TemplateCreateBody;

/** PATCH /guilds/{id}/vanity-url body (code 1..20). */
export const VanityUrlSchema = obj({ code: str({ minLength: 1, maxLength: 20 }) });
/** Validated VanityUrlSchema body. */
export interface VanityUrlBody {
  code?: string;
}

/** PATCH /guilds/{id}/welcome-screen body. */
export const GuildUpdateWelcomeScreenSchema = obj({
  welcome_channels: arr(
    obj(
      {
        channel_id: snowflake(),
        description: str({ maxLength: 50 }),
        emoji_id: snowflake(),
        emoji_name: str({ maxLength: EMOJI_NAME_MAX_LENGTH }),
      },
      ['channel_id', 'description'],
    ),
    { maxItems: MAX_WELCOME_CHANNELS },
  ),
  enabled: bool(),
  description: str({ maxLength: 140 }),
});
/** Validated GuildUpdateWelcomeScreenSchema body. */
export interface GuildUpdateWelcomeScreenBody {
  welcome_channels?: { channel_id: string; description: string; emoji_id?: string; emoji_name?: string }[];
  enabled?: boolean;
  description?: string;
}

/** PATCH /guilds/{id}/widget body; a null channel_id means no invite channel, as on Discord. */
export const WidgetModifySchema = obj({ enabled: bool(), channel_id: nullable(snowflake()) }, [
  'enabled',
  'channel_id',
]);
/** Validated WidgetModifySchema body. */
export interface WidgetModifyBody {
  enabled: boolean;
  channel_id: string | null;
}

/** POST /guilds/{id}/emojis body. */
export const EmojiCreateSchema = obj(
  {
    image: imageData(),
    name: str({ maxLength: EMOJI_NAME_MAX_LENGTH }),
    require_colons: nullable(bool()),
    roles: arr(snowflake(), { maxItems: MAX_ROLES }),
  },
  ['image'],
);
/** Validated EmojiCreateSchema body. */
export interface EmojiCreateBody {
  image: string;
  name?: string;
  require_colons?: boolean | null;
  roles?: string[];
}

/** PATCH /guilds/{id}/emojis/{emoji_id} body. */
export const EmojiModifySchema = obj({
  name: str({ maxLength: EMOJI_NAME_MAX_LENGTH }),
  roles: arr(snowflake(), { maxItems: MAX_ROLES }),
});
/** Validated EmojiModifySchema body. */
export interface EmojiModifyBody {
  name?: string;
  roles?: string[];
}

/** POST/PATCH /guilds/{id}/stickers body (name 2..30, tags at most 200, description at most 100). */
export const ModifyGuildStickerSchema = obj(
  {
    name: str({ minLength: 2, maxLength: 30 }),
    tags: str({ maxLength: 200 }),
    description: str({ maxLength: 100 }),
  },
  ['name', 'tags'],
);
/** Validated ModifyGuildStickerSchema body. */
export interface ModifyGuildStickerBody {
  name: string;
  tags: string;
  description?: string;
}

/**
 * PATCH /guilds/{id}/roles/{role_id} body (permissions is a decimal bitfield string or a number; name at most
 * 100, as on Discord). Newer clients send `colors` ({primary_color, ...}) instead of `color`. A null icon or
 * unicode_emoji removes it (discord.js role.setIcon(null)).
 */
export const RoleModifySchema = obj({
  name: str({ maxLength: NAME_MAX_LENGTH }),
  permissions: permissionBits(),
  color: int(),
  colors: obj({ primary_color: int(), secondary_color: nullable(int()), tertiary_color: nullable(int()) }),
  hoist: bool(),
  mentionable: bool(),
  position: int(),
  icon: nullable(imageData()),
  unicode_emoji: nullable(str({ maxLength: EMOJI_NAME_MAX_LENGTH })),
});
/** Validated RoleModifySchema body. */
export interface RoleModifyBody {
  name?: string;
  permissions?: string;
  color?: number;
  colors?: { primary_color?: number; secondary_color?: number | null; tertiary_color?: number | null };
  hoist?: boolean;
  mentionable?: boolean;
  position?: number;
  icon?: string | null;
  unicode_emoji?: string | null;
}
/** POST /guilds/{id}/roles body: the same fields as RoleModifySchema. */
export const RoleCreateSchema = RoleModifySchema;
/** Validated RoleCreateSchema body. */
export type RoleCreateBody = RoleModifyBody;

/** PATCH /guilds/{id}/roles body: an array of {id, position} (errors are keyed "0", "1", ...). */
export const RolePositionUpdateSchema = arr(obj({ id: snowflake(), position: int() }, ['id', 'position']), {
  maxItems: MAX_ROLES,
});
/** Validated RolePositionUpdateSchema body. */
export type RolePositionUpdateBody = { id: string; position: number }[];

/**
 * POST /channels/{id}/invites body; target_type also takes an integer, as Discord clients send it, and
 * both target fields may be null (discord.js sends null for "no target").
 */
export const InviteCreateSchema = obj({
  target_user_id: nullable(snowflake()),
  target_type: nullable(oneOfTypes(['string', 'integer'], { maxLength: 16 })),
  validate: str({ maxLength: OPAQUE_MAX_LENGTH }),
  max_age: int(),
  max_uses: int(),
  temporary: bool(),
  unique: bool(),
  target_user: str({ maxLength: OPAQUE_MAX_LENGTH }),
  target_user_type: int(),
});
/** Validated InviteCreateSchema body. */
export interface InviteCreateBody {
  target_user_id?: string | null;
  target_type?: string | number | null;
  validate?: string;
  max_age?: number;
  max_uses?: number;
  temporary?: boolean;
  unique?: boolean;
  target_user?: string;
  target_user_type?: number;
}

/** POST /channels/{id}/purge body: delete messages between two ids. */
export const PurgeSchema = obj({ before: snowflake(), after: snowflake() }, ['before', 'after']);
/** Validated PurgeSchema body. */
export interface PurgeBody {
  before: string;
  after: string;
}

/** POST /channels/{id}/webhooks body (name at most 80). */
export const WebhookCreateSchema = obj({ name: str({ maxLength: 80 }), avatar: imageData() }, ['name']);
/** Validated WebhookCreateSchema body. */
export interface WebhookCreateBody {
  name: string;
  avatar?: string;
}

/** PATCH /webhooks/{id}[/{token}] body; the Channel actor checks the name and refuses another channel_id. */
export const WebhookModifySchema = obj({
  name: str({ maxLength: 80 }),
  avatar: nullable(imageData()),
  channel_id: nullable(snowflake()),
});
/** Validated WebhookModifySchema body. */
export interface WebhookModifyBody {
  name?: string;
  avatar?: string | null;
  channel_id?: string | null;
}

/** Member, ban and prune payloads live in member.ts (same spec section). */
export * from './member.js';
