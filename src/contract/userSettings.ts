import { Type, type Static } from '@sinclair/typebox';
import { LOCALE_MAX_LENGTH, MAX_CHANNELS, MAX_GUILDS, NAME_MAX_LENGTH, TIMESTAMP_MAX_LENGTH } from './discordLimits.js';
import {
  boundedArray,
  boundedMap,
  choices,
  closedObject,
  integer,
  nullable,
  oneOfTypes,
  snowflake,
} from './wireTypes.js';
import { Status } from './realtime.js';

/** Discord's custom status: text up to 128 characters; an emoji name (unicode or custom, 2..32). */
const CUSTOM_STATUS_TEXT_MAX_LENGTH = 128;
const EMOJI_NAME_MAX_LENGTH = 32;

/**
 * A custom status line in user settings. Discord's client sends every field, null when unset, and
 * `expires_at` as an ISO 8601 timestamp (older clients: epoch milliseconds).
 */
export const CustomStatus = closedObject({
  emoji_id: Type.Optional(nullable(snowflake())),
  emoji_name: Type.Optional(nullable(Type.String({ maxLength: EMOJI_NAME_MAX_LENGTH }))),
  expires_at: Type.Optional(nullable(oneOfTypes(['string', 'integer'], { maxLength: TIMESTAMP_MAX_LENGTH }))),
  text: Type.Optional(nullable(Type.String({ maxLength: CUSTOM_STATUS_TEXT_MAX_LENGTH }))),
});
/** Validated CustomStatus value. */
export type CustomStatus = Static<typeof CustomStatus>;

/** Who may send friend requests. */
export const FriendSourceFlags = closedObject({ all: Type.Boolean() });
/** Validated FriendSourceFlags value. */
export type FriendSourceFlags = Static<typeof FriendSourceFlags>;

/**
 * A folder of guilds in the client's guild list. Discord's client also lists each guild outside a folder
 * as a folder of one, with a null id, name and colour.
 */
export const GuildFolder = closedObject({
  color: nullable(integer()),
  guild_ids: boundedArray(snowflake(), { maxItems: MAX_GUILDS }),
  id: nullable(integer()),
  name: nullable(Type.String({ maxLength: NAME_MAX_LENGTH })),
});
/** Validated GuildFolder value. */
export type GuildFolder = Static<typeof GuildFolder>;

/** PATCH /users/@me/settings body. */
export const UserSettingsSchema = closedObject({
  status: Type.Optional(Status),
  afk_timeout: Type.Optional(integer()),
  allow_accessibility_detection: Type.Optional(Type.Boolean()),
  animate_emoji: Type.Optional(Type.Boolean()),
  animate_stickers: Type.Optional(integer()),
  contact_sync_enabled: Type.Optional(Type.Boolean()),
  convert_emoticons: Type.Optional(Type.Boolean()),
  custom_status: Type.Optional(nullable(CustomStatus)),
  default_guilds_restricted: Type.Optional(Type.Boolean()),
  detect_platform_accounts: Type.Optional(Type.Boolean()),
  developer_mode: Type.Optional(Type.Boolean()),
  disable_games_tab: Type.Optional(Type.Boolean()),
  enable_tts_command: Type.Optional(Type.Boolean()),
  explicit_content_filter: Type.Optional(integer()),
  friend_source_flags: Type.Optional(FriendSourceFlags),
  gateway_connected: Type.Optional(Type.Boolean()),
  gif_auto_play: Type.Optional(Type.Boolean()),
  guild_folders: Type.Optional(boundedArray(GuildFolder, { maxItems: MAX_GUILDS })),
  guild_positions: Type.Optional(boundedArray(snowflake(), { maxItems: MAX_GUILDS })),
  inline_attachment_media: Type.Optional(Type.Boolean()),
  inline_embed_media: Type.Optional(Type.Boolean()),
  locale: Type.Optional(Type.String({ maxLength: LOCALE_MAX_LENGTH })),
  message_display_compact: Type.Optional(Type.Boolean()),
  native_phone_integration_enabled: Type.Optional(Type.Boolean()),
  render_embeds: Type.Optional(Type.Boolean()),
  render_reactions: Type.Optional(Type.Boolean()),
  restricted_guilds: Type.Optional(boundedArray(snowflake(), { maxItems: MAX_GUILDS })),
  show_current_game: Type.Optional(Type.Boolean()),
  stream_notifications_enabled: Type.Optional(Type.Boolean()),
  theme: Type.Optional(choices('string', ['dark', 'light'])),
  timezone_offset: Type.Optional(integer()),
});
/** Validated UserSettingsSchema body. */
export type UserSettingsBody = Static<typeof UserSettingsSchema>;

/** How long a mute lasts. */
export const MuteConfig = closedObject({ end_time: integer(), selected_time_window: integer() });
/** Validated MuteConfig value. */
export type MuteConfig = Static<typeof MuteConfig>;

/** Notification settings for one channel inside UserGuildSettingsSchema (`collapsed`: a category folded). */
export const ChannelOverride = closedObject({
  message_notifications: Type.Optional(integer()),
  mute_config: Type.Optional(MuteConfig),
  muted: Type.Optional(Type.Boolean()),
  collapsed: Type.Optional(Type.Boolean()),
  channel_id: Type.Optional(nullable(snowflake())),
});
/** Validated ChannelOverride value. */
export type ChannelOverride = Static<typeof ChannelOverride>;

/** Channel overrides are keyed by channel id: at most one per channel of a guild. */
const channelOverrides = boundedMap(ChannelOverride, {
  maxProperties: MAX_CHANNELS,
  keys: Type.String({ pattern: '^[0-9]{1,20}$' }),
});

/** PATCH /users/@me/guilds/{guild_id}/settings body (channel_overrides is keyed by channel id). */
export const UserGuildSettingsSchema = closedObject({
  channel_overrides: Type.Optional(channelOverrides),
  version: Type.Optional(integer()),
  guild_id: Type.Optional(nullable(snowflake())),
  flags: Type.Optional(integer()),
  message_notifications: Type.Optional(integer()),
  mobile_push: Type.Optional(Type.Boolean()),
  mute_config: Type.Optional(nullable(MuteConfig)),
  muted: Type.Optional(Type.Boolean()),
  suppress_everyone: Type.Optional(Type.Boolean()),
  suppress_roles: Type.Optional(Type.Boolean()),
  mute_scheduled_events: Type.Optional(Type.Boolean()),
  hide_muted_channels: Type.Optional(Type.Boolean()),
  notify_highlights: Type.Optional(choices('number', [0])),
});
/** Validated UserGuildSettingsSchema body. */
export type UserGuildSettingsBody = Static<typeof UserGuildSettingsSchema>;
