/**
 * Stored records. Each is the Discord-shaped document the owning actor keeps, plus the key fields
 * storage indexes it by; storage keeps the document as JSON so both engines store it the same way.
 */

/** An account (user or bot) with its private fields. */
export interface UserRecord {
  readonly id: string;
  username: string;
  discriminator: string;
  global_name: string | null;
  /** Lower-cased; null for bots. */
  email: string | null;
  /** KDF output (`scrypt$...`); null for bots. */
  password_hash: string | null;
  avatar: string | null;
  banner: string | null;
  bio: string;
  accent_color: number | null;
  pronouns: string;
  bot: boolean;
  flags: number;
  public_flags: number;
  premium_type: number;
  verified: boolean;
  mfa_enabled: boolean;
  locale: string;
  /** Instance rights mask (decimal string). */
  rights: string;
  /** Bumped on password change or bot token reset; tokens carry it, so older tokens stop working. */
  token_generation: number;
  /** Hashes of tokens revoked by logout. */
  revoked_tokens: string[];
  settings: Record<string, unknown>;
  /** Per-guild notification settings keyed by guild id ("@me" for DMs). */
  guild_settings: Record<string, Record<string, unknown>>;
  /** user id → note text. */
  notes: Record<string, string>;
  /** user id → relationship type (1 friend, 2 blocked, 3 incoming, 4 outgoing). */
  relationships: Record<string, number>;
  created_at: string;
  /** Profile theme colours (PATCH /users/@me/profile). */
  theme_colors?: number[] | null;
  /** Base32 TOTP secret while MFA is on. */
  totp_secret?: string | null;
  /** MFA backup codes (8 hex digits each). */
  backup_codes?: { code: string; consumed: boolean }[];
  /** Set by POST /users/@me/disable: the account cannot log in. */
  disabled?: boolean;
  /** Set by POST /users/@me/delete: the account is anonymised and cannot log in. */
  deleted?: boolean;
}

/** An OAuth2 application, possibly with a bot user. */
export interface ApplicationRecord {
  readonly id: string;
  owner_id: string;
  name: string;
  description: string;
  icon: string | null;
  bot_user_id: string | null;
  bot_public: boolean;
  bot_require_code_grant: boolean;
  flags: number;
  /** The Ed25519 public key (32 raw bytes in hex) that signed HTTP interactions verify against. */
  verify_key: string;
  /**
   * Its private key (PKCS#8 PEM), server-side only; absent on applications made before interactions
   * were signed, which get a new pair on first use (applicationKeys.ts).
   */
  signing_key?: string;
  extra: Record<string, unknown>;
}

/** A guild's own record (not its channels, roles or members). */
export interface GuildRecord {
  readonly id: string;
  owner_id: string;
  name: string;
  icon: string | null;
  /** Every other guild field (banner, description, system_channel_id, features, ...). */
  fields: Record<string, unknown>;
  created_at: string;
}

/** A channel of any type; guild_id is null for DMs and group DMs. */
export interface ChannelRecord {
  readonly id: string;
  guild_id: string | null;
  type: number;
  name: string | null;
  position: number;
  parent_id: string | null;
  permission_overwrites: { id: string; type: number; allow: string; deny: string }[];
  /** DM and group-DM recipients (user ids). */
  recipient_ids: string[];
  owner_id: string | null;
  last_message_id: string | null;
  last_pin_timestamp: string | null;
  /** Every other field (topic, nsfw, bitrate, user_limit, rate_limit_per_user, icon, flags, ...). */
  fields: Record<string, unknown>;
  created_at: string;
}

/** A guild role. */
export interface RoleRecord {
  readonly id: string;
  readonly guild_id: string;
  name: string;
  permissions: string;
  color: number;
  hoist: boolean;
  mentionable: boolean;
  managed: boolean;
  position: number;
  icon: string | null;
  unicode_emoji: string | null;
  flags: number;
}

/** A guild member. */
export interface MemberRecord {
  readonly guild_id: string;
  readonly user_id: string;
  nick: string | null;
  avatar: string | null;
  roles: string[];
  joined_at: string;
  deaf: boolean;
  mute: boolean;
  pending: boolean;
  communication_disabled_until: string | null;
  flags: number;
  bio: string;
  /** Per-guild profile (PATCH /guilds/{id}/profile/@me); absent until first set. */
  banner?: string | null;
  pronouns?: string;
  theme_colors?: number[] | null;
  /** The user's public record, kept current by the User actor (a Guild never awaits a User). */
  user: Record<string, unknown>;
}

/** An invite code. */
export interface InviteRecord {
  readonly code: string;
  readonly guild_id: string | null;
  readonly channel_id: string;
  inviter_id: string | null;
  max_age: number;
  max_uses: number;
  uses: number;
  temporary: boolean;
  created_at: string;
}

/** A stored message; reactions are kept beside it (see MessageStore). */
export interface MessageRecord {
  readonly id: string;
  readonly channel_id: string;
  readonly guild_id: string | null;
  readonly author_id: string;
  type: number;
  content: string;
  tts: boolean;
  mention_everyone: boolean;
  mention_ids: string[];
  mention_role_ids: string[];
  embeds: unknown[];
  attachments: unknown[];
  components: unknown[];
  sticker_ids: string[];
  nonce: string | null;
  pinned: boolean;
  /** When the message was last pinned (ISO); absent or null when it is not pinned. */
  pinned_at?: string | null;
  flags: number;
  message_reference: { message_id?: string; channel_id?: string; guild_id?: string } | null;
  edited_timestamp: string | null;
  timestamp: string;
  webhook_id: string | null;
  /** The author's public user record as JSON at send time (so reads need no user lookups). */
  author_json: string;
  /** A response to an interaction: the application that sent it (absent on other messages). */
  application_id?: string;
  /** A response to an interaction: Discord's `interaction_metadata` object (absent on other messages). */
  interaction_metadata?: Record<string, unknown>;
}

/** One user's reaction to a message with one emoji. */
export interface ReactionRecord {
  readonly channel_id: string;
  readonly message_id: string;
  /** `name:id` for custom emoji, the unicode text otherwise. */
  readonly emoji: string;
  readonly user_id: string;
  readonly created_at: string;
  /** The reacting user's public record as JSON at reaction time (for the reactions users list). */
  readonly user_json?: string;
}

/** A channel's incoming webhook (type 1); owned by its Channel actor. */
export interface WebhookRecord {
  readonly id: string;
  readonly guild_id: string | null;
  readonly channel_id: string;
  /** The user who created it, and their public user record as JSON then (the `user` field). */
  readonly creator_id: string;
  readonly creator_json: string;
  name: string;
  avatar: string | null;
  /** The execute credential: 68 url-safe characters. */
  readonly token: string;
}
