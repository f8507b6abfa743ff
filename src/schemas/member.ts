import { arr, exactly, int, nullable, obj, oneOfTypes, snowflake, str } from './builders.js';

/** PUT /guilds/{id}/bans/{user_id} body; the delete windows also take integers, as Discord clients send them. */
export const BanCreateSchema = obj({
  delete_message_seconds: oneOfTypes(['string', 'integer']),
  delete_message_days: oneOfTypes(['string', 'integer']),
  reason: str(),
});
/** Validated BanCreateSchema body. */
export interface BanCreateBody {
  delete_message_seconds?: string | number;
  delete_message_days?: string | number;
  reason?: string;
}

/** A ban as moderators see it. */
export const BanModeratorSchema = obj(
  { id: snowflake(), user_id: snowflake(), guild_id: snowflake(), executor_id: snowflake(), reason: str() },
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
  { id: snowflake(), user_id: snowflake(), guild_id: snowflake(), executor_id: snowflake(), ip: str(), reason: str() },
  ['id', 'user_id', 'guild_id', 'executor_id'],
);
/** Validated BanRegistrySchema body. */
export interface BanRegistryBody extends BanModeratorBody {
  ip?: string;
}

/** PATCH /guilds/{id}/members/{user_id} body; a null nick resets it (discord.js sends null). */
export const MemberChangeSchema = obj({
  roles: arr(snowflake()),
  nick: nullable(str()),
  avatar: nullable(str()),
  bio: str(),
});
/** Validated MemberChangeSchema body. */
export interface MemberChangeBody {
  roles?: string[];
  nick?: string | null;
  avatar?: string | null;
  bio?: string;
}

/** PATCH /guilds/{id}/profile/@me body (theme_colors is exactly 2 integers). */
export const MemberChangeProfileSchema = obj({
  banner: nullable(str()),
  nick: str(),
  bio: str(),
  pronouns: str(),
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
export const MemberNickChangeSchema = obj({ nick: nullable(str()) }, ['nick']);
/** Validated MemberNickChangeSchema body. */
export interface MemberNickChangeBody {
  nick: string | null;
}

/** POST /guilds/{id}/prune body. */
export const PruneSchema = obj({ days: int() }, ['days']);
/** Validated PruneSchema body. */
export interface PruneBody {
  days: number;
}
