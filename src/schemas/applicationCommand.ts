import {
  arr,
  bool,
  choices,
  int,
  mapOf,
  nullable,
  num,
  obj,
  oneOfTypes,
  permissionBits,
  snowflake,
  str,
} from './builders.js';
import type { JsonSchema } from './builders.js';
import { LOCALE_MAX_LENGTH, MAX_LOCALES } from './discordLimits.js';

/** Discord's caps on a command: 25 options per level, 25 choices per option. */
export const MAX_COMMAND_OPTIONS = 25;
const MAX_CHOICES = 25;
/**
 * A bulk overwrite may hold 110 commands (100 CHAT_INPUT, 5 USER, 5 MESSAGE); the User actor answers
 * Discord's 30032 past a per-type limit, so the schema only stops a huge list early.
 */
const BULK_HARD_CAP = 200;

/** Localized names (32) and descriptions (100) by locale: Discord's limits, 100 for both here. */
const localizations = (): JsonSchema =>
  nullable(mapOf(str({ maxLength: 100 }), { maxProperties: MAX_LOCALES, keys: str({ maxLength: LOCALE_MAX_LENGTH }) }));

/** A choice of a STRING, INTEGER or NUMBER option. */
const choice = obj(
  {
    name: str({ minLength: 1, maxLength: 100 }),
    name_localizations: localizations(),
    // Discord: a string choice value has at most 100 characters.
    value: oneOfTypes(['string', 'number'], { maxLength: 100 }),
  },
  ['name', 'value'],
);

/**
 * An option; `depth` levels of nested options below it (a sub-command group holds sub-commands, which
 * hold plain options: 2 levels at the top, as Discord allows).
 */
function option(depth: number): JsonSchema {
  const properties: Record<string, JsonSchema> = {
    type: int({ minimum: 1, maximum: 11 }),
    name: str({ minLength: 1, maxLength: 32 }),
    name_localizations: localizations(),
    description: str({ minLength: 1, maxLength: 100 }),
    description_localizations: localizations(),
    required: bool(),
    choices: arr(choice, { maxItems: MAX_CHOICES }),
    channel_types: arr(int(), { maxItems: 32 }),
    min_value: num(),
    max_value: num(),
    min_length: int({ minimum: 0, maximum: 6000 }),
    max_length: int({ minimum: 1, maximum: 6000 }),
    autocomplete: bool(),
  };
  if (depth > 0) properties['options'] = arr(option(depth - 1), { maxItems: MAX_COMMAND_OPTIONS });
  return obj(properties, ['type', 'name', 'description']);
}

/**
 * The fields of a command body (POST, PUT items, PATCH). contexts and integration_types also take numeric
 * strings (JDA sends ["0", "1", "2"]), default_member_permissions a number: all reach the actor as Discord's
 * types (numbers, a decimal string).
 */
const commandProperties: Record<string, JsonSchema> = {
  id: snowflake(),
  type: choices('integer', [1, 2, 3]),
  name: str({ minLength: 1, maxLength: 32 }),
  name_localizations: localizations(),
  description: str({ maxLength: 100 }),
  description_localizations: localizations(),
  options: arr(option(2), { maxItems: MAX_COMMAND_OPTIONS }),
  default_member_permissions: nullable(permissionBits()),
  dm_permission: nullable(bool()),
  default_permission: nullable(bool()),
  nsfw: bool(),
  contexts: nullable(arr(choices('integer', [0, 1, 2]), { maxItems: 3 })),
  integration_types: arr(choices('integer', [0, 1]), { maxItems: 2 }),
};

/** POST /applications/{id}[/guilds/{id}]/commands body. */
export const ApplicationCommandCreateSchema = obj(commandProperties, ['name']);
/** PATCH .../commands/{id} body: every field optional. */
export const ApplicationCommandEditSchema = obj(commandProperties);
/** PUT .../commands body: the whole new set. */
export const ApplicationCommandBulkSchema = arr(ApplicationCommandCreateSchema, { maxItems: BULK_HARD_CAP });

/** Validated ApplicationCommandCreateSchema body (options and localizations are checked by the schema). */
export interface ApplicationCommandCreateBody {
  id?: string;
  type?: number;
  name: string;
  name_localizations?: Record<string, string> | null;
  description?: string;
  description_localizations?: Record<string, string> | null;
  options?: Record<string, unknown>[];
  default_member_permissions?: string | null;
  dm_permission?: boolean | null;
  default_permission?: boolean | null;
  nsfw?: boolean;
  contexts?: number[] | null;
  integration_types?: number[];
}
/** Validated ApplicationCommandEditSchema body. */
export type ApplicationCommandEditBody = Partial<ApplicationCommandCreateBody>;
/** Validated ApplicationCommandBulkSchema body. */
export type ApplicationCommandBulkBody = ApplicationCommandCreateBody[];
