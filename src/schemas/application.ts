import { arr, bool, imageData, int, nullable, obj, permissionBits, snowflake, str } from './builders.js';
import { CAPTCHA_MAX_LENGTH, MFA_CODE_MAX_LENGTH, NAME_MAX_LENGTH, URL_MAX_LENGTH } from './discordLimits.js';

/** Discord: an application description has at most 400 characters; at most 5 tags of 20 characters. */
const DESCRIPTION_MAX_LENGTH = 400;
const MAX_TAGS = 5;
const TAG_MAX_LENGTH = 20;
const url = () => str({ maxLength: URL_MAX_LENGTH });

/** POST /applications body. */
export const ApplicationCreateSchema = obj(
  {
    name: str({ maxLength: NAME_MAX_LENGTH }),
    team_id: snowflake(),
  },
  ['name'],
);
/** Validated ApplicationCreateSchema body. */
export interface ApplicationCreateBody {
  name: string;
  team_id?: string;
}

/** PATCH /applications/{id} body. */
export const ApplicationModifySchema = obj({
  description: str({ maxLength: DESCRIPTION_MAX_LENGTH }),
  icon: imageData(),
  interactions_endpoint_url: url(),
  name: str({ maxLength: NAME_MAX_LENGTH }),
  privacy_policy_url: url(),
  role_connections_verification_url: url(),
  terms_of_service_url: url(),
  max_participants: nullable(int()),
  tags: arr(str({ maxLength: TAG_MAX_LENGTH }), { maxItems: MAX_TAGS }),
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
  {
    authorize: bool(),
    guild_id: snowflake(),
    permissions: permissionBits(),
    captcha_key: str({ maxLength: CAPTCHA_MAX_LENGTH }),
    code: str({ maxLength: MFA_CODE_MAX_LENGTH }),
  },
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
export const BotModifySchema = obj({ avatar: imageData(), username: str({ maxLength: NAME_MAX_LENGTH }) });
/** Validated BotModifySchema body. */
export interface BotModifyBody {
  avatar?: string;
  username?: string;
}
