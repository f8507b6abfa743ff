import { arr, bool, choices, int, mapOf, nullable, obj, snowflake, str } from './builders.js';
import { Status } from './realtime.js';

/** A custom status line in user settings. */
export const CustomStatus = obj({ emoji_id: snowflake(), emoji_name: str(), expires_at: int(), text: str() });
/** Validated CustomStatus value. */
export interface CustomStatus {
  emoji_id?: string;
  emoji_name?: string;
  expires_at?: number;
  text?: string;
}

/** Who may send friend requests. */
export const FriendSourceFlags = obj({ all: bool() }, ['all']);
/** Validated FriendSourceFlags value. */
export interface FriendSourceFlags {
  all: boolean;
}

/** A folder of guilds in the client's guild list. */
export const GuildFolder = obj({ color: int(), guild_ids: arr(snowflake()), id: int(), name: str() }, [
  'color',
  'guild_ids',
  'id',
  'name',
]);
/** Validated GuildFolder value. */
export interface GuildFolder {
  color: number;
  guild_ids: string[];
  id: number;
  name: string;
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
  guild_folders: arr(GuildFolder),
  guild_positions: arr(snowflake()),
  inline_attachment_media: bool(),
  inline_embed_media: bool(),
  locale: str(),
  message_display_compact: bool(),
  native_phone_integration_enabled: bool(),
  render_embeds: bool(),
  render_reactions: bool(),
  restricted_guilds: arr(snowflake()),
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

/** Notification settings for one channel inside UserGuildSettingsSchema. */
export const ChannelOverride = obj({
  message_notifications: int(),
  mute_config: MuteConfig,
  muted: bool(),
  channel_id: nullable(snowflake()),
});
/** Validated ChannelOverride value. */
export interface ChannelOverride {
  message_notifications?: number;
  mute_config?: MuteConfig;
  muted?: boolean;
  channel_id?: string | null;
}

/** PATCH /users/@me/guilds/{guild_id}/settings body (channel_overrides is keyed by channel id). */
export const UserGuildSettingsSchema = obj({
  channel_overrides: mapOf(ChannelOverride),
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
