import type { Ajv, AnySchemaObject, ErrorObject, FuncKeywordDefinition } from 'ajv';
import { ALL_PERMISSIONS } from '../domain/permissions.js';
import { echo } from './formErrors.js';

/**
 * The shapes a value may take on the wire, each with the one form an actor receives. Clients differ: discord.py
 * sends ids as JSON integers, JDA and Discord4J send permission masks as numbers and integer fields as
 * numeric strings; Discord accepts all of them (its validation coerces), so Chorus does too.
 * - snowflake: a decimal string of at most 20 digits below 2^64, or a non-negative JSON integer → decimal string.
 * - permissions: the same, with no bit above the highest known permission → decimal string.
 * - integer: a JSON integer or an integer as a decimal string ("5", as Discord's validation takes) → number.
 * - number: a JSON number or a number as a decimal string → number.
 */
export const WireForm = {
  snowflake: 'snowflake',
  permissions: 'permissions',
  integer: 'integer',
  number: 'number',
} as const;
/** One of WireForm. */
export type WireForm = (typeof WireForm)[keyof typeof WireForm];

/** Where ajv found the value (its container and key), as it passes it to a keyword function. */
interface Place {
  readonly parentData: Record<string | number, unknown>;
  readonly parentDataProperty: string | number;
}
/** A keyword function as ajv calls it: errors of the last call are left on the function. */
type KeywordCheck = ((data: unknown, place?: Place) => boolean) & { errors?: Partial<ErrorObject>[] };

/** A value in its canonical form, or the Discord error leaf explaining why it has none. */
type Converted = { readonly value: unknown } | { readonly code: string; readonly message: string };

const SNOWFLAKE_LIMIT = 1n << 64n;
/** One past the highest permission bit: a mask this large names a bit no client can mean. */
const PERMISSIONS_LIMIT = 1n << BigInt(ALL_PERMISSIONS.toString(2).length);
const DIGITS = /^[0-9]{1,20}$/;
/** An integer as Python's int() reads it (sign and surrounding blanks allowed), bounded in length. */
const INTEGER_TEXT = /^\s*[-+]?[0-9]{1,20}\s*$/;
const NUMBER_TEXT = /^\s*[-+]?(?:[0-9]{1,30}(?:\.[0-9]{0,30})?|\.[0-9]{1,30})(?:[eE][-+]?[0-9]{1,3})?\s*$/;

/** The unsigned 64-bit value of a decimal string or a JSON integer, or undefined when it is neither. */
function unsigned(raw: unknown): bigint | undefined {
  if (typeof raw === 'string' && DIGITS.test(raw)) {
    const value = BigInt(raw);
    return value < SNOWFLAKE_LIMIT ? value : undefined;
  }
  // Integers beyond 2^53 arrive as strings already (losslessJson), so a safe integer is every exact one.
  if (typeof raw === 'number' && Number.isSafeInteger(raw) && raw >= 0) return BigInt(raw);
  return undefined;
}

function snowflake(raw: unknown): Converted {
  const value = unsigned(raw);
  if (value === undefined) return { code: 'NUMBER_TYPE_COERCE', message: `Value "${echo(raw)}" is not snowflake.` };
  return { value: value.toString() };
}

function permissions(raw: unknown): Converted {
  const value = unsigned(raw);
  if (value === undefined) return { code: 'NUMBER_TYPE_COERCE', message: `Value "${echo(raw)}" is not int.` };
  if (value >= PERMISSIONS_LIMIT) {
    const max = (PERMISSIONS_LIMIT - 1n).toString();
    return { code: 'NUMBER_TYPE_MAX', message: `int value should be less than or equal to ${max}.` };
  }
  return { value: value.toString() };
}

function integer(raw: unknown): Converted {
  const value = typeof raw === 'string' && INTEGER_TEXT.test(raw) ? Number(raw) : raw;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return { value };
  return { code: 'NUMBER_TYPE_COERCE', message: `Value "${echo(raw)}" is not int.` };
}

function number(raw: unknown): Converted {
  const value = typeof raw === 'string' && NUMBER_TEXT.test(raw) ? Number(raw) : raw;
  if (typeof value === 'number' && Number.isFinite(value)) return { value };
  return { code: 'NUMBER_TYPE_COERCE', message: `Value "${echo(raw)}" is not a number.` };
}

const CONVERTERS: Readonly<Record<WireForm, (raw: unknown) => Converted>> = { snowflake, permissions, integer, number };

/** True when a schema lets null through as a value of its own (`nullable()`: null means "clear"). */
export function acceptsNull(schema: unknown): boolean {
  if (typeof schema !== 'object' || schema === null) return false;
  const { type, orNull, enum: values } = schema as Record<string, unknown>;
  if (orNull === true || type === 'null') return true;
  return (Array.isArray(type) && type.includes('null')) || (Array.isArray(values) && values.includes(null));
}

/**
 * `wire: <form>`: converts the value in place to its form's canonical shape before any other keyword of its
 * schema looks at it (so `enum`, and bounds under `allOf`, check the converted value), or fails with
 * Discord's leaf. Null passes only with `orNull: true`.
 */
const wireKeyword: FuncKeywordDefinition = {
  keyword: 'wire',
  schemaType: 'string',
  modifying: true,
  errors: true,
  before: 'enum',
  compile(form: WireForm, parentSchema: AnySchemaObject) {
    const convert = CONVERTERS[form];
    const nullAllowed = parentSchema['orNull'] === true;
    const check: KeywordCheck = (data, place) => {
      if (data === null && nullAllowed) return true;
      const converted = convert(data);
      if ('code' in converted) {
        check.errors = [{ keyword: 'wire', message: converted.message, params: { code: converted.code } }];
        return false;
      }
      if (place !== undefined && converted.value !== data) place.parentData[place.parentDataProperty] = converted.value;
      return true;
    };
    return check;
  },
};

/**
 * `nullMeansAbsent: true` on an object: a property whose schema does not take null is dropped when the body
 * sends null (Discord4J sends `"nonce": null`, many clients null for "not set"), as if it were absent: an
 * optional field is then simply unset, a required one reported missing. Runs before `required`/`properties`.
 */
const nullMeansAbsentKeyword: FuncKeywordDefinition = {
  keyword: 'nullMeansAbsent',
  schemaType: 'boolean',
  errors: false,
  compile(_enabled: boolean, parentSchema: AnySchemaObject) {
    const properties = (parentSchema['properties'] ?? {}) as Record<string, unknown>;
    const droppable = Object.keys(properties).filter((name) => !acceptsNull(properties[name]));
    return (data: unknown) => {
      if (typeof data !== 'object' || data === null || Array.isArray(data)) return true;
      const body = data as Record<string, unknown>;
      for (const name of droppable) if (body[name] === null) Reflect.deleteProperty(body, name);
      return true;
    };
  },
};

/** Registers the wire keywords (and `orNull`, read by `wire` and nullMeansAbsent) on an ajv instance. */
export function addWireKeywords(ajv: Ajv): void {
  ajv.addKeyword('orNull');
  ajv.addKeyword(wireKeyword);
  ajv.addKeyword(nullMeansAbsentKeyword);
}
