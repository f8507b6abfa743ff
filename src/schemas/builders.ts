import type { SchemaObject } from 'ajv';
import { WireForm } from './wireForms.js';

/** A JSON Schema (draft-07) object as ajv compiles it. */
export type JsonSchema = SchemaObject;

/** JSON type names a schema's `type` keyword may hold. */
type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object' | 'null';

/** A string schema; `extra` adds keywords such as minLength, maxLength, format or pattern. */
export const str = (extra: JsonSchema = {}): JsonSchema => ({ type: 'string', ...extra });

/**
 * A value in one of the wire forms (wireForms.ts): converted to its canonical shape first, then checked
 * against `canonical` (bounds such as minimum), which sits under allOf so it sees the converted value.
 */
function wire(form: WireForm, canonical: JsonSchema = {}): JsonSchema {
  return Object.keys(canonical).length === 0 ? { wire: form } : { wire: form, allOf: [canonical] };
}

/** An integer (rejects 1.5); a numeric string such as "5" is taken as 5, as Discord does. */
export const int = (extra: JsonSchema = {}): JsonSchema =>
  wire(WireForm.integer, Object.keys(extra).length === 0 ? {} : { type: 'integer', ...extra });

/** A number (accepts 1.5); a numeric string such as "1.5" is taken as 1.5. */
export const num = (extra: JsonSchema = {}): JsonSchema =>
  wire(WireForm.number, Object.keys(extra).length === 0 ? {} : { type: 'number', ...extra });

/** A boolean schema. */
export const bool = (): JsonSchema => ({ type: 'boolean' });

/** Any JSON value at all (spec: "any", unconstrained items). */
export const anyValue = (): JsonSchema => ({});

/** A schema accepting one of several JSON types (e.g. a nonce that is a string or an integer). */
export const oneOfTypes = (types: readonly JsonType[], extra: JsonSchema = {}): JsonSchema => ({
  type: [...types],
  ...extra,
});

/**
 * A value of `type` restricted to the given choices (spec: "one of ..."); numeric choices also take their
 * numeric strings ("0" for 0), as Discord does.
 */
export function choices(type: JsonType, values: readonly (string | number | boolean)[]): JsonSchema {
  if (type === 'integer' || type === 'number') {
    const form = values.every((value) => Number.isInteger(value)) ? WireForm.integer : WireForm.number;
    return { wire: form, enum: [...values] };
  }
  return { type, enum: [...values] };
}

/** The same schema, with null also allowed (spec: "nullable"): null is then a value, e.g. "clear it". */
export function nullable(schema: JsonSchema): JsonSchema {
  if (schema['wire'] !== undefined) {
    const out: JsonSchema = { ...schema, orNull: true };
    const values: unknown = schema['enum'];
    if (Array.isArray(values)) out['enum'] = (values as unknown[]).concat(null);
    const canonical = schema['allOf'] as JsonSchema[] | undefined;
    if (canonical) out['allOf'] = canonical.map(nullable);
    return out;
  }
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
 * A null property is taken as absent unless its schema is nullable() (nullMeansAbsent, see wireForms.ts).
 */
export function obj(properties: Record<string, JsonSchema>, required: readonly string[] = []): JsonSchema {
  const schema: JsonSchema = { type: 'object', nullMeansAbsent: true, properties, additionalProperties: false };
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

/** A snowflake id: a decimal string (at most 20 digits, below 2^64) or a JSON integer; reaches actors as a string. */
export const snowflake = (): JsonSchema => wire(WireForm.snowflake);

/**
 * A permission bitfield (allow, deny, permissions): a decimal string or a JSON integer, with no bit above
 * the known permissions; reaches actors as a decimal string.
 */
export const permissionBits = (): JsonSchema => wire(WireForm.permissions);

/**
 * A base64 `data:` URI image (avatar, banner, icon, ...). Left without maxLength on purpose: an image is as
 * large as the body cap allows, and is stored as a blob whose record keeps only its hash.
 */
export const imageData = (): JsonSchema => str();
