import { arr, choices, exactly, int, nullable, obj, snowflake, str } from './builders.js';

/** PATCH /users/@me body (username 1..100, bio at most 1024, discriminator exactly 4). */
export const UserModifySchema = obj({
  username: str({ minLength: 1, maxLength: 100 }),
  avatar: nullable(str()),
  bio: str({ maxLength: 1024 }),
  accent_color: int(),
  banner: nullable(str()),
  password: str(),
  new_password: str(),
  code: str(),
  email: str(),
  discriminator: str({ minLength: 4, maxLength: 4 }),
});
/** Validated UserModifySchema body. */
export interface UserModifyBody {
  username?: string;
  avatar?: string | null;
  bio?: string;
  accent_color?: number;
  banner?: string | null;
  password?: string;
  new_password?: string;
  code?: string;
  email?: string;
  discriminator?: string;
}

/** PATCH /users/@me/profile body (theme_colors is exactly 2 integers). */
export const UserProfileModifySchema = obj({
  bio: str(),
  accent_color: nullable(int()),
  banner: nullable(str()),
  pronouns: str(),
  theme_colors: exactly(2, int()),
});
/** Validated UserProfileModifySchema body. */
export interface UserProfileModifyBody {
  bio?: string;
  accent_color?: number | null;
  banner?: string | null;
  pronouns?: string;
  theme_colors?: [number, number];
}

/** POST /users/@me/relationships body: send a friend request by username and discriminator. */
export const RelationshipPostSchema = obj({ username: str(), discriminator: str() }, ['username', 'discriminator']);
/** Validated RelationshipPostSchema body. */
export interface RelationshipPostBody {
  username: string;
  discriminator: string;
}

/** PUT /users/@me/relationships/{user_id} body (1 friend, 2 block, 3 incoming, 4 outgoing). */
export const RelationshipPutSchema = obj({ type: choices('number', [1, 2, 3, 4]) });
/** Validated RelationshipPutSchema body. */
export interface RelationshipPutBody {
  type?: 1 | 2 | 3 | 4;
}

/** POST /users/@me/channels body: open a DM or group DM. */
export const DmChannelCreateSchema = obj({ recipients: arr(snowflake()), name: str() }, ['recipients']);
/** Validated DmChannelCreateSchema body. */
export interface DmChannelCreateBody {
  recipients: string[];
  name?: string;
}

/** User settings payloads live in userSettings.ts (same spec section). */
export * from './userSettings.js';
