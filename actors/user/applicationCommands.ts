import { BadRequestError, ValidationError } from '../../src/domain/errors.js';
import type { ApplicationCommandCreateBody } from '../../src/contract/applicationCommand.js';

/** Command types: CHAT_INPUT (slash), USER and MESSAGE (context menus). */
export const CommandType = { ChatInput: 1, User: 2, Message: 3 } as const;

/** How many commands of each type one scope (global, or one guild) may hold (Discord 30032 beyond). */
const LIMITS: Readonly<Record<number, number>> = { 1: 100, 2: 5, 3: 5 };

/** A CHAT_INPUT name: lowercase letters (any script), digits, `-` and `_`. */
const CHAT_INPUT_NAME = /^[-_\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$/u;

/**
 * The fields of a command the caller chose, before the server's (id, version, application_id). `type` is any
 * number here: a stored command's type is carried over as it is on edit.
 */
export type CommandFields = Omit<ApplicationCommandCreateBody, 'type'> & { type?: number };

/** Where a stored command lives and what it is called (the upsert key is name + type). */
export interface CommandKey {
  readonly id: string;
  readonly type: number;
  readonly name: string;
}

/** The type of a command body (CHAT_INPUT when absent). */
export function typeOf(fields: { type?: number | undefined }): number {
  return fields.type ?? CommandType.ChatInput;
}

/**
 * Checks what the schema cannot: a CHAT_INPUT name is lowercase and its description is 1-100 characters;
 * USER and MESSAGE commands have no description and no options. `at` prefixes field paths (bulk items).
 */
export function checkCommand(fields: CommandFields, at = ''): void {
  const path = (field: string): string => `${at}${field}`;
  if (typeOf(fields) === CommandType.ChatInput) {
    if (!CHAT_INPUT_NAME.test(fields.name) || fields.name !== fields.name.toLowerCase()) {
      throw ValidationError.field(path('name'), 'APPLICATION_COMMAND_INVALID_NAME', 'Command name is invalid');
    }
    if (fields.description === undefined) {
      throw ValidationError.field(path('description'), 'BASE_TYPE_REQUIRED', 'This field is required');
    }
    if (fields.description.length < 1) {
      throw ValidationError.field(path('description'), 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 100 in length.');
    }
    return;
  }
  if (fields.description !== undefined && fields.description !== '') {
    throw ValidationError.field(
      path('description'),
      'CONTEXT_MENU_DESCRIPTION',
      'Context menu commands have no description.',
    );
  }
  if (fields.options !== undefined && fields.options.length > 0) {
    throw ValidationError.field(path('options'), 'CONTEXT_MENU_OPTIONS', 'Context menu commands have no options.');
  }
}

/** The 50035 for a second command of one type and name, at `path`. */
export function duplicateName(path: string): ValidationError {
  return ValidationError.field(path, 'APPLICATION_COMMANDS_DUPLICATE_NAME', 'Application command names must be unique');
}

/** Refuses a bulk set holding two commands of one type and name (naming the later item). */
export function checkUniqueNames(commands: readonly { type?: number; name: string }[]): void {
  const seen = new Set<string>();
  commands.forEach((command, index) => {
    const key = `${typeOf(command)}:${command.name}`;
    if (seen.has(key)) throw duplicateName(`${index}.name`);
    seen.add(key);
  });
}

/** Refuses a set with more commands of a type than one scope may hold. */
export function checkLimits(commands: readonly { type?: number }[]): void {
  for (const [type, limit] of Object.entries(LIMITS)) {
    if (commands.filter((command) => typeOf(command) === Number(type)).length > limit) {
      throw new BadRequestError(`Maximum number of application commands reached (${limit})`, 30_032);
    }
  }
}

/** The stored command's fields back as a body (for PATCH merges and version comparisons). */
export function fieldsOf(data: Record<string, unknown>): CommandFields {
  const server = new Set(['id', 'application_id', 'guild_id', 'version']);
  return Object.fromEntries(Object.entries(data).filter(([key]) => !server.has(key))) as unknown as CommandFields;
}

/**
 * The command object Discord returns: the caller's fields with their defaults, plus id, application_id,
 * guild_id (guild commands) and version. dm_permission exists on global commands only.
 */
export function commandObject(
  key: { id: string; applicationId: string; guildId: string | null; version: string },
  fields: CommandFields,
): Record<string, unknown> {
  const type = typeOf(fields);
  const command: Record<string, unknown> = {
    id: key.id,
    application_id: key.applicationId,
    version: key.version,
    default_member_permissions: fields.default_member_permissions ?? null,
    type,
    name: fields.name,
    name_localizations: fields.name_localizations ?? null,
    description: type === CommandType.ChatInput ? (fields.description ?? '') : '',
    description_localizations: fields.description_localizations ?? null,
    nsfw: fields.nsfw ?? false,
    contexts: fields.contexts ?? null,
    integration_types: fields.integration_types ?? [0],
  };
  if (key.guildId !== null) command['guild_id'] = key.guildId;
  else command['dm_permission'] = fields.dm_permission ?? true;
  if (fields.options !== undefined && fields.options.length > 0) command['options'] = fields.options;
  return command;
}
