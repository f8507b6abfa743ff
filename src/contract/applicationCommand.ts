import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { LOCALE_MAX_LENGTH, MAX_LOCALES } from './discordLimits.js';
import {
  boundedArray,
  boundedMap,
  choices,
  closedObject,
  integer,
  nullable,
  numeric,
  oneOfTypes,
  permissionBits,
  snowflake,
} from './wireTypes.js';

/** Discord's caps on a command: 25 options per level, 25 choices per option. */
export const MAX_COMMAND_OPTIONS = 25;
const MAX_CHOICES = 25;
/**
 * A bulk overwrite may hold 110 commands (100 CHAT_INPUT, 5 USER, 5 MESSAGE); the User actor answers
 * Discord's 30032 past a per-type limit, so the schema only stops a huge list early.
 */
const BULK_HARD_CAP = 200;

/** Localized names (32) and descriptions (100) by locale: Discord's limits, 100 for both here. */
const localizations = () =>
  nullable(
    boundedMap(Type.String({ maxLength: 100 }), {
      maxProperties: MAX_LOCALES,
      keys: Type.String({ maxLength: LOCALE_MAX_LENGTH }),
    }),
  );

/** A choice of a STRING, INTEGER or NUMBER option. */
const choice = closedObject({
  name: Type.String({ minLength: 1, maxLength: 100 }),
  name_localizations: Type.Optional(localizations()),
  // Discord: a string choice value has at most 100 characters.
  value: oneOfTypes(['string', 'number'], { maxLength: 100 }),
});

/** The fields of an option at any level (type, name and description required). */
const optionFields = {
  type: integer({ minimum: 1, maximum: 11 }),
  name: Type.String({ minLength: 1, maxLength: 32 }),
  name_localizations: Type.Optional(localizations()),
  description: Type.String({ minLength: 1, maxLength: 100 }),
  description_localizations: Type.Optional(localizations()),
  required: Type.Optional(Type.Boolean()),
  choices: Type.Optional(boundedArray(choice, { maxItems: MAX_CHOICES })),
  channel_types: Type.Optional(boundedArray(integer(), { maxItems: 32 })),
  min_value: Type.Optional(numeric()),
  max_value: Type.Optional(numeric()),
  min_length: Type.Optional(integer({ minimum: 0, maximum: 6000 })),
  max_length: Type.Optional(integer({ minimum: 1, maximum: 6000 })),
  autocomplete: Type.Optional(Type.Boolean()),
};

/** Nested options one level below `inner`. */
const optionsOf = <T extends TSchema>(inner: T) =>
  Type.Optional(boundedArray(inner, { maxItems: MAX_COMMAND_OPTIONS }));

/**
 * Options two levels deep at most, as Discord allows: a sub-command group holds sub-commands, which hold plain
 * options (so a top-level option has 2 levels of nested options below it).
 */
const plainOption = closedObject(optionFields);
const subCommandOption = closedObject({ ...optionFields, options: optionsOf(plainOption) });
const topOption = closedObject({ ...optionFields, options: optionsOf(subCommandOption) });

/**
 * The fields of a command body (POST, PUT items, PATCH), all optional here (ApplicationCommandCreateSchema
 * requires the name). contexts and integration_types also take numeric strings (JDA sends ["0", "1", "2"]),
 * default_member_permissions a number: all reach the actor as Discord's types (numbers, a decimal string).
 */
const commandFields = {
  id: Type.Optional(snowflake()),
  type: Type.Optional(choices('integer', [1, 2, 3])),
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 32 })),
  name_localizations: Type.Optional(localizations()),
  description: Type.Optional(Type.String({ maxLength: 100 })),
  description_localizations: Type.Optional(localizations()),
  options: optionsOf(topOption),
  default_member_permissions: Type.Optional(nullable(permissionBits())),
  dm_permission: Type.Optional(nullable(Type.Boolean())),
  default_permission: Type.Optional(nullable(Type.Boolean())),
  nsfw: Type.Optional(Type.Boolean()),
  contexts: Type.Optional(nullable(boundedArray(choices('integer', [0, 1, 2]), { maxItems: 3 }))),
  integration_types: Type.Optional(boundedArray(choices('integer', [0, 1]), { maxItems: 2 })),
};

/** POST /applications/{id}[/guilds/{id}]/commands body. */
export const ApplicationCommandCreateSchema = closedObject({
  ...commandFields,
  name: Type.String({ minLength: 1, maxLength: 32 }),
});
/** PATCH .../commands/{id} body: every field optional. */
export const ApplicationCommandEditSchema = closedObject(commandFields);
/** PUT .../commands body: the whole new set. */
export const ApplicationCommandBulkSchema = boundedArray(ApplicationCommandCreateSchema, { maxItems: BULK_HARD_CAP });

/** Validated ApplicationCommandCreateSchema body (options and localizations are checked by the schema). */
export type ApplicationCommandCreateBody = Static<typeof ApplicationCommandCreateSchema>;
/** Validated ApplicationCommandEditSchema body. */
export type ApplicationCommandEditBody = Static<typeof ApplicationCommandEditSchema>;
/** Validated ApplicationCommandBulkSchema body. */
export type ApplicationCommandBulkBody = Static<typeof ApplicationCommandBulkSchema>;

/** Discord's cap on the overrides of one command in one guild. */
const MAX_COMMAND_PERMISSIONS = 100;

/**
 * PUT /applications/{id}/guilds/{id}/commands/{id}/permissions body: the command's whole new list of
 * overrides, each allowing or denying a role (1), a user (2) or a channel (3) by id.
 */
export const ApplicationCommandPermissionsSchema = closedObject({
  permissions: boundedArray(
    closedObject({ id: snowflake(), type: choices('integer', [1, 2, 3]), permission: Type.Boolean() }),
    { maxItems: MAX_COMMAND_PERMISSIONS },
  ),
});
/** Validated ApplicationCommandPermissionsSchema body. */
export type ApplicationCommandPermissionsBody = Static<typeof ApplicationCommandPermissionsSchema>;
