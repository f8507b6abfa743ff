import { ValidationError } from '../../src/domain/errors.js';
import { isSnowflake } from '../../src/domain/snowflake.js';
import type { InvokedOption } from '../../src/contract/interaction.js';
import { isJsonObject } from '../../src/domain/jsonValue.js';

/** Option types (Discord's ApplicationCommandOptionType). */
export const OptionType = {
  SubCommand: 1,
  SubCommandGroup: 2,
  String: 3,
  Integer: 4,
  Boolean: 5,
  User: 6,
  Channel: 7,
  Role: 8,
  Mentionable: 9,
  Number: 10,
  Attachment: 11,
} as const;

/** The ids an invocation names, by kind, for the server to resolve (`resolved`). */
export interface NamedIds {
  readonly users: Set<string>;
  readonly channels: Set<string>;
  readonly roles: Set<string>;
  /** Mentionable options: a user or a role. */
  readonly mentionables: Set<string>;
}

/** A stored command option definition, as far as validation reads it. */
interface OptionDefinition {
  readonly type: number;
  readonly name: string;
  readonly required: boolean;
  readonly options: readonly OptionDefinition[];
  readonly choices: readonly unknown[] | undefined;
  readonly min: number | undefined;
  readonly max: number | undefined;
  readonly minLength: number | undefined;
  readonly maxLength: number | undefined;
  readonly autocomplete: boolean;
}

const numberOr = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);

/** The stored definitions under `options` (an array in the command object), read defensively. */
export function definitionsOf(options: unknown): OptionDefinition[] {
  if (!Array.isArray(options)) return [];
  return options.filter(isJsonObject).map((option) => ({
    type: Number(option['type']),
    name: String(option['name']),
    required: option['required'] === true,
    options: definitionsOf(option['options']),
    choices: Array.isArray(option['choices'])
      ? option['choices'].filter(isJsonObject).map((choice) => choice['value'])
      : undefined,
    min: numberOr(option['min_value']),
    max: numberOr(option['max_value']),
    minLength: numberOr(option['min_length']),
    maxLength: numberOr(option['max_length']),
    autocomplete: option['autocomplete'] === true,
  }));
}

const invalid = (path: string, message: string): ValidationError =>
  ValidationError.field(path, 'APPLICATION_COMMAND_OPTION_INVALID', message);

/** Checks one value against its option's type and bounds (a focused autocomplete value is partial text). */
function checkValue(definition: OptionDefinition, option: InvokedOption, path: string, ids: NamedIds): void {
  const { value } = option;
  if (option.focused === true) {
    if (!definition.autocomplete) throw invalid(`${path}.focused`, 'This option has no autocomplete.');
    return;
  }
  const at = `${path}.value`;
  switch (definition.type) {
    case OptionType.String:
      if (typeof value !== 'string') throw invalid(at, 'Must be a string.');
      if (value.length < (definition.minLength ?? 0) || value.length > (definition.maxLength ?? 6000)) {
        throw invalid(at, 'The value has the wrong length.');
      }
      break;
    case OptionType.Integer:
    case OptionType.Number: {
      const whole = definition.type === OptionType.Integer;
      if (typeof value !== 'number' || (whole && !Number.isSafeInteger(value))) {
        throw invalid(at, whole ? 'Must be an integer.' : 'Must be a number.');
      }
      if (value < (definition.min ?? -Infinity) || value > (definition.max ?? Infinity)) {
        throw invalid(at, 'The value is out of range.');
      }
      break;
    }
    case OptionType.Boolean:
      if (typeof value !== 'boolean') throw invalid(at, 'Must be a boolean.');
      break;
    default: {
      if (typeof value !== 'string' || !isSnowflake(value)) throw invalid(at, 'Must be a snowflake.');
      const bucket = {
        [OptionType.User]: ids.users,
        [OptionType.Channel]: ids.channels,
        [OptionType.Role]: ids.roles,
        [OptionType.Mentionable]: ids.mentionables,
      }[definition.type];
      bucket?.add(value);
    }
  }
  if (definition.choices !== undefined && definition.choices.length > 0 && !definition.choices.includes(value)) {
    throw invalid(at, 'The value is not one of the choices.');
  }
}

/**
 * Checks invoked options against their definitions at one level: every name is defined, with its
 * type; a subcommand (group) level has exactly one chosen; required options are present. Collects the
 * ids to resolve. Returns how many options are focused (autocomplete wants exactly one).
 */
export function checkOptions(
  definitions: readonly OptionDefinition[],
  invoked: readonly InvokedOption[],
  path: string,
  ids: NamedIds,
): number {
  const nested = definitions.some((d) => d.type === OptionType.SubCommand || d.type === OptionType.SubCommandGroup);
  if (nested && invoked.length !== 1) throw invalid(path, 'Exactly one subcommand must be chosen.');
  let focused = 0;
  const seen = new Set<string>();
  invoked.forEach((option, index) => {
    const at = `${path}.${index}`;
    const definition = definitions.find((d) => d.name === option.name);
    if (!definition) throw invalid(`${at}.name`, 'Unknown option.');
    if (definition.type !== option.type) throw invalid(`${at}.type`, 'The option has another type.');
    if (seen.has(option.name)) throw invalid(`${at}.name`, 'The option is given twice.');
    seen.add(option.name);
    if (definition.type === OptionType.SubCommand || definition.type === OptionType.SubCommandGroup) {
      focused += checkOptions(definition.options, option.options ?? [], `${at}.options`, ids);
      return;
    }
    checkValue(definition, option, at, ids);
    if (option.focused === true) focused += 1;
  });
  const missing = definitions.find((d) => d.required && !seen.has(d.name));
  if (missing && !nested) throw invalid(path, `The required option "${missing.name}" is missing.`);
  return focused;
}

/** An empty set of named ids. */
export function noIds(): NamedIds {
  return { users: new Set(), channels: new Set(), roles: new Set(), mentionables: new Set() };
}
