/**
 * Size limits the schemas put on every array, map and free-form string. Where Discord documents a limit
 * (developer docs, or its published OpenAPI description) the value is Discord's; where it documents none, a
 * generous value no real client reaches. Either way a body holds a bounded amount of data, so what an
 * actor stores (and later clones, serializes and sends out) stays small.
 */

/** A snowflake is a 64-bit integer: at most 20 decimal digits. */
export const SNOWFLAKE_MAX_LENGTH = 20;

/** Role ids in one list (member roles, emoji roles, prune include_roles): Discord's 250 roles per guild. */
export const MAX_ROLES = 250;

/** Channels of one guild (channel lists, reorders, per-channel maps): Discord's 500 channels per guild. */
export const MAX_CHANNELS = 500;

/** Guilds one account can be in (Discord: 100, 200 with Nitro): folders, positions, restricted guilds. */
export const MAX_GUILDS = 200;

/** Entries of a localization map: Discord has about 30 locales; keys are locale codes such as "en-US". */
export const MAX_LOCALES = 64;
/** A locale code ("en-US", "zh-TW"), with room for the longer BCP 47 forms some clients send. */
export const LOCALE_MAX_LENGTH = 16;

/** Names and short labels with no documented limit of their own (Discord's channel and guild names: 100). */
export const NAME_MAX_LENGTH = 100;

/** An http(s) URL (embed, application and activity links): Discord's embed url fields take about 2048. */
export const URL_MAX_LENGTH = 2048;

/** An ISO 8601 timestamp, with fractional seconds and an offset, has well under 64 characters. */
export const TIMESTAMP_MAX_LENGTH = 64;

/** Opaque strings a client echoes back and the server only compares (codes, tickets, tokens, keys). */
export const OPAQUE_MAX_LENGTH = 2048;

/** A captcha answer (hCaptcha tokens run to a few thousand characters). */
export const CAPTCHA_MAX_LENGTH = 8192;

/**
 * An image data URI that a record keeps as given, rather than as a blob and its hash (a guild member's
 * avatar, a guild channel's icon): 256 KiB of text, a 190 KB image, is plenty for an avatar.
 */
export const INLINE_IMAGE_MAX_LENGTH = 262_144;

/** An email address: 254 characters (RFC 5321 path limit). */
export const EMAIL_MAX_LENGTH = 254;

/** A password a new one is checked against: longer than any account can set (72), short enough to hash. */
export const PASSWORD_CHECK_MAX_LENGTH = 256;
/** A password an account sets (RegisterSchema's spec limit). */
export const PASSWORD_MAX_LENGTH = 72;

/** A six-digit TOTP code or an eight-character backup code, with room for separators. */
export const MFA_CODE_MAX_LENGTH = 64;

/** Discord: a note about another user holds at most 256 characters. */
export const NOTE_MAX_LENGTH = 256;

/** Discord's audit log reason (X-Audit-Log-Reason and ban reasons): 512 characters. */
export const REASON_MAX_LENGTH = 512;

/** Discord: a message has at most 3 stickers. */
export const MAX_STICKERS = 3;
/** Discord: at most 10 embeds and 10 attachments per message. */
export const MAX_EMBEDS = 10;
export const MAX_ATTACHMENTS = 10;
/** Discord: allowed_mentions.users and .roles hold at most 100 ids each. */
export const MAX_ALLOWED_MENTIONS = 100;
