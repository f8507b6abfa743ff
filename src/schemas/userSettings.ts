import { arr, bool, choices, int, mapOf, nullable, obj, oneOfTypes, snowflake, str } from './builders.js';
import { LOCALE_MAX_LENGTH, MAX_CHANNELS, MAX_GUILDS, NAME_MAX_LENGTH, TIMESTAMP_MAX_LENGTH } from './discordLimits.js';
import { Status } from './realtime.js';

/** Discord's custom status: text up to 128 characters; an emoji name (unicode or custom, 2..32). */
const CUSTOM_STATUS_TEXT_MAX_LENGTH = 128;
const EMOJI_NAME_MAX_LENGTH = 32;

/**
 * A custom status line in user settings. Discord's client sends every field, null when unset, and
 * `expires_at` as an ISO 8601 timestamp (older clients: epoch milliseconds).
 */
export const CustomStatus = obj({
  emoji_id: nullable(snowflake()),
  emoji_name: nullable(str({ maxLength: EMOJI_NAME_MAX_LENGTH })),
  expires_at: nullable(oneOfTypes(['string', 'integer'], { maxLength: TIMESTAMP_MAX_LENGTH })),
  text: nullable(str({ maxLength: CUSTOM_STATUS_TEXT_MAX_LENGTH })),
});
/** Validated CustomStatus value. */
export interface CustomStatus {
  emoji_id?: string | null;
  emoji_name?: string | null;
  expires_at?: string | number | null;
  text?: string | null;
}

/** Who may send friend requests. */
export const FriendSourceFlags = obj({ all: bool() }, ['all']);
/** Validated FriendSourceFlags value. */
export interface FriendSourceFlags {
  all: boolean;
}

/**
 * A folder of guilds in the client's guild list. Discord's client also lists each guild outside a folder
 * as a folder of one, with a null id, name and colour.
 */
export const GuildFolder = obj(
  {
    color: nullable(int()),
    guild_ids: arr(snowflake(), { maxItems: MAX_GUILDS }),
    id: nullable(int()),
    name: nullable(str({ maxLength: NAME_MAX_LENGTH })),
  },
  ['color', 'guild_ids', 'id', 'name'],
);
/** Validated GuildFolder value. */
export interface GuildFolder {
  color: number | null;
  guild_ids: string[];
  id: number | null;
  name: string | null;
}

/** PATCH /users/@me/settings body. */
export const UserSettingsSchema = obj({
  status: Status,
  afk_timeout: int(),
  allow_accessibility_detection: bool(),
  animate_emoji: bool(),
  animate_stickers: int(),
  contact_sync_enabled: bool(),
  convert_emoticons: bool(),
  custom_status: nullable(CustomStatus),
  default_guilds_restricted: bool(),
  detect_platform_accounts: bool(),
  developer_mode: bool(),
  disable_games_tab: bool(),
  enable_tts_command: bool(),
  explicit_content_filter: int(),
  friend_source_flags: FriendSourceFlags,
  gateway_connected: bool(),
  gif_auto_play: bool(),
  guild_folders: arr(GuildFolder, { maxItems: MAX_GUILDS }),
  guild_positions: arr(snowflake(), { maxItems: MAX_GUILDS }),
  inline_attachment_media: bool(),
  inline_embed_media: bool(),
  locale: str({ maxLength: LOCALE_MAX_LENGTH }),
  message_display_compact: bool(),
  native_phone_integration_enabled: bool(),
  render_embeds: bool(),
  render_reactions: bool(),
  restricted_guilds: arr(snowflake(), { maxItems: MAX_GUILDS }),
  show_current_game: bool(),
  stream_notifications_enabled: bool(),
  theme: choices('string', ['dark', 'light']),
  timezone_offset: int(),
});
/** Validated UserSettingsSchema body. */
export interface UserSettingsBody {
  status?: Status;
  afk_timeout?: number;
  allow_accessibility_detection?: boolean;
  animate_emoji?: boolean;
  animate_stickers?: number;
  contact_sync_enabled?: boolean;
  convert_emoticons?: boolean;
  custom_status?: CustomStatus | null;
  default_guilds_restricted?: boolean;
  detect_platform_accounts?: boolean;
  developer_mode?: boolean;
  disable_games_tab?: boolean;
  enable_tts_command?: boolean;
  explicit_content_filter?: number;
  friend_source_flags?: FriendSourceFlags;
  gateway_connected?: boolean;
  gif_auto_play?: boolean;
  guild_folders?: GuildFolder[];
  guild_positions?: string[];
  inline_attachment_media?: boolean;
  inline_embed_media?: boolean;
  locale?: string;
  message_display_compact?: boolean;
  native_phone_integration_enabled?: boolean;
  render_embeds?: boolean;
  render_reactions?: boolean;
  restricted_guilds?: string[];
  show_current_game?: boolean;
  stream_notifications_enabled?: boolean;
  theme?: 'dark' | 'light';
  timezone_offset?: number;
}

/** How long a mute lasts. */
export const MuteConfig = obj({ end_time: int(), selected_time_window: int() }, ['end_time', 'selected_time_window']);
/** Validated MuteConfig value. */
export interface MuteConfig {
  end_time: number;
  selected_time_window: number;
}

/** Notification settings for one channel inside UserGuildSettingsSchema (`collapsed`: a category folded). */
export const ChannelOverride = obj({
  message_notifications: int(),
  mute_config: MuteConfig,
  muted: bool(),
  collapsed: bool(),
  channel_id: nullable(snowflake()),
});
/** Validated ChannelOverride value. */
export interface ChannelOverride {
  message_notifications?: number;
  mute_config?: MuteConfig;
  muted?: boolean;
  collapsed?: boolean;
  channel_id?: string | null;
}

/** Channel overrides are keyed by channel id: at most one per channel of a guild. */
const channelOverrides = mapOf(ChannelOverride, {
  maxProperties: MAX_CHANNELS,
  keys: str({ pattern: '^[0-9]{1,20}$' }),
});

/** PATCH /users/@me/guilds/{guild_id}/settings body (channel_overrides is keyed by channel id). */
export const UserGuildSettingsSchema = obj({
  channel_overrides: channelOverrides,
  version: int(),
  guild_id: nullable(snowflake()),
  flags: int(),
  message_notifications: int(),
  mobile_push: bool(),
  mute_config: nullable(MuteConfig),
  muted: bool(),
  suppress_everyone: bool(),
  suppress_roles: bool(),
  mute_scheduled_events: bool(),
  hide_muted_channels: bool(),
  notify_highlights: choices('number', [0]),
});
/** Validated UserGuildSettingsSchema body. */
export interface UserGuildSettingsBody {
  channel_overrides?: Record<string, ChannelOverride>;
  version?: number;
  guild_id?: string | null;
  flags?: number;
  message_notifications?: number;
  mobile_push?: boolean;
  mute_config?: MuteConfig | null;
  muted?: boolean;
  suppress_everyone?: boolean;
  suppress_roles?: boolean;
  mute_scheduled_events?: boolean;
  hide_muted_channels?: boolean;
  notify_highlights?: 0;
}
