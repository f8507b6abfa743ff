import { Type, type Static } from '@sinclair/typebox';
import {
  EMAIL_MAX_LENGTH,
  MFA_CODE_MAX_LENGTH,
  NAME_MAX_LENGTH,
  PASSWORD_CHECK_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
} from './discordLimits.js';
import { boundedArray, choices, closedObject, exactly, imageData, integer, nullable, snowflake } from './wireTypes.js';

/** Discord's limits on a profile: bio 1024 here (the spec's UserModifySchema limit), pronouns 40. */
const BIO_MAX_LENGTH = 1024;
const PRONOUNS_MAX_LENGTH = 40;
/** A group DM holds 10 users: its owner and at most 9 recipients (the User actor's own check). */
const MAX_GROUP_DM_RECIPIENTS = 9;

/** PATCH /users/@me body (username 1..100, bio at most 1024, discriminator exactly 4). */
export const UserModifySchema = closedObject({
  username: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  avatar: Type.Optional(nullable(imageData())),
  bio: Type.Optional(Type.String({ maxLength: BIO_MAX_LENGTH })),
  accent_color: Type.Optional(integer()),
  banner: Type.Optional(nullable(imageData())),
  password: Type.Optional(Type.String({ maxLength: PASSWORD_CHECK_MAX_LENGTH })),
  new_password: Type.Optional(Type.String({ maxLength: PASSWORD_MAX_LENGTH })),
  code: Type.Optional(Type.String({ maxLength: MFA_CODE_MAX_LENGTH })),
  email: Type.Optional(Type.String({ maxLength: EMAIL_MAX_LENGTH })),
  discriminator: Type.Optional(Type.String({ minLength: 4, maxLength: 4 })),
});
/** Validated UserModifySchema body. */
export type UserModifyBody = Static<typeof UserModifySchema>;

/** PATCH /users/@me/profile body (theme_colors is exactly 2 integers). */
export const UserProfileModifySchema = closedObject({
  bio: Type.Optional(Type.String({ maxLength: BIO_MAX_LENGTH })),
  accent_color: Type.Optional(nullable(integer())),
  banner: Type.Optional(nullable(imageData())),
  pronouns: Type.Optional(Type.String({ maxLength: PRONOUNS_MAX_LENGTH })),
  theme_colors: Type.Optional(exactly(2, integer())),
});
/** Validated UserProfileModifySchema body. */
export type UserProfileModifyBody = Static<typeof UserProfileModifySchema>;

/** POST /users/@me/relationships body: send a friend request by username and discriminator. */
// Only looked up: bounds generous enough that a wrong tag still answers "no such user", as before.
export const RelationshipPostSchema = closedObject({
  username: Type.String({ maxLength: NAME_MAX_LENGTH }),
  discriminator: Type.String({ maxLength: 32 }),
});
/** Validated RelationshipPostSchema body. */
export type RelationshipPostBody = Static<typeof RelationshipPostSchema>;

/** PUT /users/@me/relationships/{user_id} body (1 friend, 2 block, 3 incoming, 4 outgoing). */
export const RelationshipPutSchema = closedObject({ type: Type.Optional(choices('number', [1, 2, 3, 4])) });
/** Validated RelationshipPutSchema body. */
export type RelationshipPutBody = Static<typeof RelationshipPutSchema>;

/** POST /users/@me/channels body: open a DM or group DM. */
export const DmChannelCreateSchema = closedObject({
  recipients: boundedArray(snowflake(), { maxItems: MAX_GROUP_DM_RECIPIENTS }),
  name: Type.Optional(Type.String({ maxLength: NAME_MAX_LENGTH })),
});
/** Validated DmChannelCreateSchema body. */
export type DmChannelCreateBody = Static<typeof DmChannelCreateSchema>;

/** User settings payloads live in userSettings.ts (same spec section). */
export * from './userSettings.js';
