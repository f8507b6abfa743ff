import { Type, type Static } from '@sinclair/typebox';
import { CAPTCHA_MAX_LENGTH, MFA_CODE_MAX_LENGTH, NAME_MAX_LENGTH, URL_MAX_LENGTH } from './discordLimits.js';
import { boundedArray, closedObject, imageData, integer, nullable, permissionBits, snowflake } from './wireTypes.js';

/** Discord: an application description has at most 400 characters; at most 5 tags of 20 characters. */
const DESCRIPTION_MAX_LENGTH = 400;
const MAX_TAGS = 5;
const TAG_MAX_LENGTH = 20;
const url = () => Type.String({ maxLength: URL_MAX_LENGTH });

/** POST /applications body. */
export const ApplicationCreateSchema = closedObject({
  name: Type.String({ maxLength: NAME_MAX_LENGTH }),
  team_id: Type.Optional(snowflake()),
});
/** Validated ApplicationCreateSchema body. */
export type ApplicationCreateBody = Static<typeof ApplicationCreateSchema>;

/** PATCH /applications/{id} body. */
export const ApplicationModifySchema = closedObject({
  description: Type.Optional(Type.String({ maxLength: DESCRIPTION_MAX_LENGTH })),
  icon: Type.Optional(imageData()),
  interactions_endpoint_url: Type.Optional(url()),
  name: Type.Optional(Type.String({ maxLength: NAME_MAX_LENGTH })),
  privacy_policy_url: Type.Optional(url()),
  role_connections_verification_url: Type.Optional(url()),
  terms_of_service_url: Type.Optional(url()),
  max_participants: Type.Optional(nullable(integer())),
  tags: Type.Optional(boundedArray(Type.String({ maxLength: TAG_MAX_LENGTH }), { maxItems: MAX_TAGS })),
  bot_public: Type.Optional(Type.Boolean()),
  bot_require_code_grant: Type.Optional(Type.Boolean()),
  flags: Type.Optional(integer()),
});
/** Validated ApplicationModifySchema body. */
export type ApplicationModifyBody = Static<typeof ApplicationModifySchema>;

/** POST /oauth2/authorize body: add a bot to a guild (permissions is a decimal bitfield string). */
export const ApplicationAuthorizeSchema = closedObject({
  authorize: Type.Boolean(),
  guild_id: snowflake(),
  permissions: permissionBits(),
  captcha_key: Type.Optional(Type.String({ maxLength: CAPTCHA_MAX_LENGTH })),
  code: Type.Optional(Type.String({ maxLength: MFA_CODE_MAX_LENGTH })),
});
/** Validated ApplicationAuthorizeSchema body. */
export type ApplicationAuthorizeBody = Static<typeof ApplicationAuthorizeSchema>;

/** PATCH /applications/{id}/bot body. */
export const BotModifySchema = closedObject({
  avatar: Type.Optional(imageData()),
  username: Type.Optional(Type.String({ maxLength: NAME_MAX_LENGTH })),
});
/** Validated BotModifySchema body. */
export type BotModifyBody = Static<typeof BotModifySchema>;
