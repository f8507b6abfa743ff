import type { SchemaObject } from 'ajv';
import { SNOWFLAKE_MAX_LENGTH } from './discordLimits.js';

/** A JSON Schema (draft-07) object as ajv compiles it. */
export type JsonSchema = SchemaObject;

/** JSON type names a schema's `type` keyword may hold. */
type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object' | 'null';

/** A string schema; `extra` adds keywords such as minLength, maxLength, format or pattern. */
export const str = (extra: JsonSchema = {}): JsonSchema => ({ type: 'string', ...extra });

/** An integer schema (rejects 1.5). */
export const int = (extra: JsonSchema = {}): JsonSchema => ({ type: 'integer', ...extra });

/** A number schema (accepts 1.5). */
export const num = (extra: JsonSchema = {}): JsonSchema => ({ type: 'number', ...extra });

/** A boolean schema. */
export const bool = (): JsonSchema => ({ type: 'boolean' });

/** Any JSON value at all (spec: "any", unconstrained items). */
export const anyValue = (): JsonSchema => ({});

/** A schema accepting one of several JSON types (e.g. a nonce that is a string or an integer). */
export const oneOfTypes = (types: readonly JsonType[], extra: JsonSchema = {}): JsonSchema => ({
  type: [...types],
  ...extra,
});

/** A value of `type` restricted to the given choices (spec: "one of ..."). */
export const choices = (type: JsonType, values: readonly (string | number | boolean)[]): JsonSchema => ({
  type,
  enum: [...values],
});

/** The same schema, with null also allowed (spec: "nullable"). */
export function nullable(schema: JsonSchema): JsonSchema {
  const type: unknown = schema['type'];
  const types: unknown[] = Array.isArray(type) ? (type as unknown[]) : type === undefined ? [] : [type];
  const out: JsonSchema = { ...schema, type: types.concat('null') };
  const values: unknown = schema['enum'];
  if (Array.isArray(values)) out['enum'] = (values as unknown[]).concat(null);
  return out;
}

/** Bounds of an array: maxItems is mandatory, so no array schema is without a limit. */
export interface ArrayLimits {
  readonly maxItems: number;
  readonly minItems?: number;
}

/**
 * An array schema whose items match `items`, at most `limits.maxItems` long. The items are checked only
 * once the length is within bounds (`if`/`then`): with allErrors, ajv would otherwise visit (and report)
 * every item of a huge array before the length error ends the request.
 */
export function arr(items: JsonSchema, limits: ArrayLimits): JsonSchema {
  const bounds: JsonSchema = { maxItems: limits.maxItems };
  if (limits.minItems !== undefined) bounds['minItems'] = limits.minItems;
  return {
    type: 'array',
    ...bounds,
    if: { type: 'array', maxItems: limits.maxItems },
    then: { type: 'array', items },
  };
}

/** An array of exactly `count` items matching `items` (spec: "array of exactly N"). */
export const exactly = (count: number, items: JsonSchema): JsonSchema =>
  arr(items, { minItems: count, maxItems: count });

/**
 * An object schema. Unknown properties are dropped (the validator runs with `removeAdditional`), so a body
 * reaches an actor, and storage, with only the fields named here; as on Discord, they are not an error.
 */
export function obj(properties: Record<string, JsonSchema>, required: readonly string[] = []): JsonSchema {
  const schema: JsonSchema = { type: 'object', properties, additionalProperties: false };
  if (required.length > 0) schema['required'] = [...required];
  return schema;
}

/** Bounds of a map: how many entries, and what each key must look like. */
export interface MapLimits {
  readonly maxProperties: number;
  /** Schema of every key (a string schema: maxLength, pattern). */
  readonly keys: JsonSchema;
}

/**
 * An object whose every property (e.g. keyed by channel id) matches `values`, with at most
 * `limits.maxProperties` of them; as with arr(), the entries are checked only once the count is in bounds.
 */
export function mapOf(values: JsonSchema, limits: MapLimits): JsonSchema {
  return {
    type: 'object',
    maxProperties: limits.maxProperties,
    if: { type: 'object', maxProperties: limits.maxProperties },
    then: { type: 'object', propertyNames: limits.keys, additionalProperties: values },
  };
}

/** The same object schema with more properties required (e.g. ChannelCreate = ChannelModify + name). */
export function requiring(schema: JsonSchema, ...fields: readonly string[]): JsonSchema {
  const current: unknown = schema['required'];
  const before = Array.isArray(current) ? (current as string[]) : [];
  return { ...schema, required: [...new Set([...before, ...fields])] };
}

/** A snowflake id: always a string on the wire, at most 20 digits (a 64-bit integer). */
export const snowflake = (): JsonSchema => str({ maxLength: SNOWFLAKE_MAX_LENGTH });

/** A permission bitfield serialised as a decimal string (allow, deny, permissions). */
export const permissionBits = (): JsonSchema => str({ pattern: '^[0-9]{1,20}$' });

/**
 * A base64 `data:` URI image (avatar, banner, icon, ...). Left without maxLength on purpose: an image is as
 * large as the body cap allows, and is stored as a blob whose record keeps only its hash.
 */
export const imageData = (): JsonSchema => str();
