import { arr, bool, int, nullable, obj, oneOfTypes, permissionBits, snowflake, str } from './builders.js';

/** POST /applications body. */
export const ApplicationCreateSchema = obj({ name: str(), team_id: oneOfTypes(['string', 'integer']) }, ['name']);
/** Validated ApplicationCreateSchema body. */
export interface ApplicationCreateBody {
  name: string;
  team_id?: string | number;
}

/** PATCH /applications/{id} body. */
export const ApplicationModifySchema = obj({
  description: str(),
  icon: str(),
  interactions_endpoint_url: str(),
  name: str(),
  privacy_policy_url: str(),
  role_connections_verification_url: str(),
  terms_of_service_url: str(),
  max_participants: nullable(int()),
  tags: arr(str()),
  bot_public: bool(),
  bot_require_code_grant: bool(),
  flags: int(),
});
/** Validated ApplicationModifySchema body. */
export interface ApplicationModifyBody {
  description?: string;
  icon?: string;
  interactions_endpoint_url?: string;
  name?: string;
  privacy_policy_url?: string;
  role_connections_verification_url?: string;
  terms_of_service_url?: string;
  max_participants?: number | null;
  tags?: string[];
  bot_public?: boolean;
  bot_require_code_grant?: boolean;
  flags?: number;
}

/** POST /oauth2/authorize body: add a bot to a guild (permissions is a decimal bitfield string). */
export const ApplicationAuthorizeSchema = obj(
  { authorize: bool(), guild_id: snowflake(), permissions: permissionBits(), captcha_key: str(), code: str() },
  ['authorize', 'guild_id', 'permissions'],
);
/** Validated ApplicationAuthorizeSchema body. */
export interface ApplicationAuthorizeBody {
  authorize: boolean;
  guild_id: string;
  permissions: string;
  captcha_key?: string;
  code?: string;
}

/** PATCH /applications/{id}/bot body. */
export const BotModifySchema = obj({ avatar: str(), username: str() });
/** Validated BotModifySchema body. */
export interface BotModifyBody {
  avatar?: string;
  username?: string;
}
