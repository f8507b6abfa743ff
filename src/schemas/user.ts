import { arr, choices, exactly, imageData, int, nullable, obj, snowflake, str } from './builders.js';
import {
  EMAIL_MAX_LENGTH,
  MFA_CODE_MAX_LENGTH,
  NAME_MAX_LENGTH,
  PASSWORD_CHECK_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
} from './discordLimits.js';

/** Discord's limits on a profile: bio 1024 here (the spec's UserModifySchema limit), pronouns 40. */
const BIO_MAX_LENGTH = 1024;
const PRONOUNS_MAX_LENGTH = 40;
/** A group DM holds 10 users: its owner and at most 9 recipients (the User actor's own check). */
const MAX_GROUP_DM_RECIPIENTS = 9;

/** PATCH /users/@me body (username 1..100, bio at most 1024, discriminator exactly 4). */
export const UserModifySchema = obj({
  username: str({ minLength: 1, maxLength: 100 }),
  avatar: nullable(imageData()),
  bio: str({ maxLength: BIO_MAX_LENGTH }),
  accent_color: int(),
  banner: nullable(imageData()),
  password: str({ maxLength: PASSWORD_CHECK_MAX_LENGTH }),
  new_password: str({ maxLength: PASSWORD_MAX_LENGTH }),
  code: str({ maxLength: MFA_CODE_MAX_LENGTH }),
  email: str({ maxLength: EMAIL_MAX_LENGTH }),
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
  bio: str({ maxLength: BIO_MAX_LENGTH }),
  accent_color: nullable(int()),
  banner: nullable(imageData()),
  pronouns: str({ maxLength: PRONOUNS_MAX_LENGTH }),
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
// Only looked up: bounds generous enough that a wrong tag still answers "no such user", as before.
export const RelationshipPostSchema = obj(
  { username: str({ maxLength: NAME_MAX_LENGTH }), discriminator: str({ maxLength: 32 }) },
  ['username', 'discriminator'],
);
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
export const DmChannelCreateSchema = obj(
  { recipients: arr(snowflake(), { maxItems: MAX_GROUP_DM_RECIPIENTS }), name: str({ maxLength: NAME_MAX_LENGTH }) },
  ['recipients'],
);
/** Validated DmChannelCreateSchema body. */
export interface DmChannelCreateBody {
  recipients: string[];
  name?: string;
}

/** User settings payloads live in userSettings.ts (same spec section). */
export * from './userSettings.js';
