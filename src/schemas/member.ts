import { arr, bool, exactly, imageData, int, nullable, obj, snowflake, str } from './builders.js';
import { INLINE_IMAGE_MAX_LENGTH, MAX_ROLES, REASON_MAX_LENGTH, TIMESTAMP_MAX_LENGTH } from './discordLimits.js';

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
export const BanCreateSchema = obj({
  delete_message_seconds: int({ minimum: 0, maximum: 604_800 }),
  delete_message_days: int({ minimum: 0, maximum: 7 }),
  reason: str({ maxLength: REASON_MAX_LENGTH }),
});
/** Validated BanCreateSchema body. */
export interface BanCreateBody {
  delete_message_seconds?: number;
  delete_message_days?: number;
  reason?: string;
}

/** A ban as moderators see it. */
export const BanModeratorSchema = obj(
  {
    id: snowflake(),
    user_id: snowflake(),
    guild_id: snowflake(),
    executor_id: snowflake(),
    reason: str({ maxLength: REASON_MAX_LENGTH }),
  },
  ['id', 'user_id', 'guild_id', 'executor_id'],
);
/** Validated BanModeratorSchema body. */
export interface BanModeratorBody {
  id: string;
  user_id: string;
  guild_id: string;
  executor_id: string;
  reason?: string;
}

/** A ban as stored, with the banned IP. */
export const BanRegistrySchema = obj(
  {
    id: snowflake(),
    user_id: snowflake(),
    guild_id: snowflake(),
    executor_id: snowflake(),
    ip: str({ maxLength: IP_MAX_LENGTH }),
    reason: str({ maxLength: REASON_MAX_LENGTH }),
  },
  ['id', 'user_id', 'guild_id', 'executor_id'],
);
/** Validated BanRegistrySchema body. */
export interface BanRegistryBody extends BanModeratorBody {
  ip?: string;
}

/**
 * PATCH /guilds/{id}/members/{user_id} body; a null nick resets it (discord.js sends null). Also the
 * moderation fields Discord accepts here: a timeout end (null lifts it), server mute and deafen, and a
 * voice channel to move to (null disconnects).
 */
export const MemberChangeSchema = obj({
  roles: arr(snowflake(), { maxItems: MAX_ROLES }),
  nick: nullable(str({ maxLength: NICK_MAX_LENGTH })),
  // Kept as given on the member record (no blob): bounded like any stored string.
  avatar: nullable(str({ maxLength: INLINE_IMAGE_MAX_LENGTH })),
  bio: str({ maxLength: MEMBER_BIO_MAX_LENGTH }),
  communication_disabled_until: nullable(str({ maxLength: TIMESTAMP_MAX_LENGTH })),
  mute: bool(),
  deaf: bool(),
  channel_id: nullable(snowflake()),
});
/** Validated MemberChangeSchema body. */
export interface MemberChangeBody {
  roles?: string[];
  nick?: string | null;
  avatar?: string | null;
  bio?: string;
  communication_disabled_until?: string | null;
  mute?: boolean;
  deaf?: boolean;
  channel_id?: string | null;
}

/** PATCH /guilds/{id}/profile/@me body (theme_colors is exactly 2 integers). */
export const MemberChangeProfileSchema = obj({
  banner: nullable(imageData()),
  nick: str({ maxLength: NICK_MAX_LENGTH }),
  bio: str({ maxLength: MEMBER_BIO_MAX_LENGTH }),
  pronouns: str({ maxLength: PRONOUNS_MAX_LENGTH }),
  theme_colors: exactly(2, int()),
});
/** Validated MemberChangeProfileSchema body. */
export interface MemberChangeProfileBody {
  banner?: string | null;
  nick?: string;
  bio?: string;
  pronouns?: string;
  theme_colors?: [number, number];
}

/** PATCH /guilds/{id}/members/@me/nick body; nick is required but may be null (reset). */
export const MemberNickChangeSchema = obj({ nick: nullable(str({ maxLength: NICK_MAX_LENGTH })) }, ['nick']);
/** Validated MemberNickChangeSchema body. */
export interface MemberNickChangeBody {
  nick: string | null;
}

/**
 * POST /guilds/{id}/prune body; include_roles is a list of role ids (or, as some clients send it, one
 * comma-separated string of them) and compute_prune_count false skips the count in the answer.
 */
export const PruneSchema = obj(
  {
    days: int(),
    compute_prune_count: bool(),
    include_roles: {
      ...arr(snowflake(), { maxItems: MAX_ROLES }),
      type: ['array', 'string'],
      maxLength: 21 * MAX_ROLES,
    },
  },
  ['days'],
);
/** Validated PruneSchema body. */
export interface PruneBody {
  days: number;
  compute_prune_count?: boolean;
  include_roles?: string[] | string;
}
