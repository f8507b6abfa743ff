import type { UserGuildSettingsBody, UserSettingsBody } from '../../src/contract/user.js';

/** What a new account's client settings are until it changes them (Discord's defaults). */
export const DEFAULT_USER_SETTINGS: Readonly<Record<string, unknown>> = Object.freeze({
  afk_timeout: 600,
  allow_accessibility_detection: false,
  animate_emoji: true,
  animate_stickers: 0,
  contact_sync_enabled: false,
  convert_emoticons: false,
  custom_status: null,
  default_guilds_restricted: false,
  detect_platform_accounts: false,
  developer_mode: false,
  disable_games_tab: true,
  enable_tts_command: false,
  explicit_content_filter: 0,
  friend_discovery_flags: 0,
  friend_source_flags: { all: true },
  gateway_connected: false,
  gif_auto_play: true,
  guild_folders: [],
  guild_positions: [],
  inline_attachment_media: true,
  inline_embed_media: true,
  locale: 'en-US',
  message_display_compact: false,
  native_phone_integration_enabled: true,
  render_embeds: true,
  render_reactions: true,
  restricted_guilds: [],
  show_current_game: true,
  status: 'online',
  stream_notifications_enabled: false,
  theme: 'dark',
  timezone_offset: 0,
  view_nsfw_guilds: true,
});

/** The full settings object: defaults overlaid with what the user stored (locale lives on the user). */
export function settingsJson(stored: Record<string, unknown>, locale: string): Record<string, unknown> {
  return { ...DEFAULT_USER_SETTINGS, ...stored, locale };
}

/** Stored settings after a PATCH: the given fields replace the old ones. */
export function mergeSettings(stored: Record<string, unknown>, patch: UserSettingsBody): Record<string, unknown> {
  const next: Record<string, unknown> = { ...stored };
  for (const [key, value] of Object.entries(patch)) if (value !== undefined) next[key] = value;
  return next;
}

/** Per-guild notification settings as stored: channel overrides keyed by channel id. */
export type StoredGuildSettings = Record<string, unknown>;

/** GET /users/@me/guilds/{id}/settings and USER_GUILD_SETTINGS_UPDATE: overrides as an array, as clients read them. */
export function guildSettingsJson(guildId: string, stored: StoredGuildSettings | undefined): Record<string, unknown> {
  const overrides = (stored?.['channel_overrides'] ?? {}) as Record<string, Record<string, unknown>>;
  return {
    guild_id: guildId === '@me' ? null : guildId,
    suppress_everyone: false,
    suppress_roles: false,
    mute_scheduled_events: false,
    // 3 = "use the guild's default", what an untouched guild shows in Discord's clients.
    message_notifications: 3,
    flags: 0,
    mobile_push: true,
    muted: false,
    mute_config: null,
    hide_muted_channels: false,
    notify_highlights: 0,
    version: 0,
    ...stored,
    channel_overrides: Object.entries(overrides).map(([channelId, override]) => ({
      channel_id: channelId,
      message_notifications: 3,
      muted: false,
      mute_config: null,
      collapsed: false,
      ...override,
    })),
  };
}

/** Stored guild settings after a PATCH: overrides merge per channel and the version moves on. */
export function mergeGuildSettings(
  stored: StoredGuildSettings | undefined,
  patch: UserGuildSettingsBody,
): StoredGuildSettings {
  const next: StoredGuildSettings = { ...stored };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined || key === 'channel_overrides' || key === 'guild_id' || key === 'version') continue;
    next[key] = value;
  }
  if (patch.channel_overrides) {
    const overrides = { ...((stored?.['channel_overrides'] ?? {}) as Record<string, Record<string, unknown>>) };
    for (const [channelId, override] of Object.entries(patch.channel_overrides)) {
      const fields = Object.fromEntries(Object.entries(override).filter(([name]) => name !== 'channel_id'));
      overrides[channelId] = { ...overrides[channelId], ...fields };
    }
    next['channel_overrides'] = overrides;
  }
  next['version'] = Number(stored?.['version'] ?? 0) + 1;
  return next;
}
