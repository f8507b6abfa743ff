import type { SchemaObject } from 'ajv';

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

/** An array schema whose items match `items`; `extra` adds minItems / maxItems. */
export const arr = (items: JsonSchema, extra: JsonSchema = {}): JsonSchema => ({ type: 'array', items, ...extra });

/** An array of exactly `count` items matching `items` (spec: "array of exactly N"). */
export const exactly = (count: number, items: JsonSchema): JsonSchema =>
  arr(items, { minItems: count, maxItems: count });

/** An object schema; unknown extra properties are allowed, as Discord ignores them. */
export function obj(properties: Record<string, JsonSchema>, required: readonly string[] = []): JsonSchema {
  const schema: JsonSchema = { type: 'object', properties };
  if (required.length > 0) schema['required'] = [...required];
  return schema;
}

/** An object whose every property (e.g. keyed by channel id) matches `values`. */
export const mapOf = (values: JsonSchema): JsonSchema => ({ type: 'object', additionalProperties: values });

/** The same object schema with more properties required (e.g. ChannelCreate = ChannelModify + name). */
export function requiring(schema: JsonSchema, ...fields: readonly string[]): JsonSchema {
  const current: unknown = schema['required'];
  const before = Array.isArray(current) ? (current as string[]) : [];
  return { ...schema, required: [...new Set([...before, ...fields])] };
}

/** A snowflake id: always a string on the wire. */
export const snowflake = (): JsonSchema => str();

/** A permission bitfield serialised as a decimal string (allow, deny, permissions). */
export const permissionBits = (): JsonSchema => str({ pattern: '^[0-9]{1,20}$' });
