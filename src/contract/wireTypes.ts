import {
  Type,
  type ObjectOptions,
  type SchemaOptions,
  type Static,
  type TObject,
  type TProperties,
  type TSchema,
  type TUnsafe,
} from '@sinclair/typebox';
import { WireForm } from './wireForms.js';

/**
 * The few TypeBox types with a Chorus rule built in, so the rule holds in every schema: objects drop unknown
 * fields and read null as absent, arrays and maps are bounded and checked item by item only within their bounds,
 * and values in a wire form (wireForms.ts) are converted before they are checked. Each returns a real TypeBox type,
 * so `Static<typeof Schema>` is the body type an actor receives; the rest of a schema is plain `Type.*`.
 */

/** Plain JSON Schema keywords (string keys only), as ajv reads them. */
type Keywords = Record<string, unknown>;

/** JSON type names a schema's `type` keyword may hold, with the static type each stands for. */
interface JsonTypes {
  string: string;
  number: number;
  integer: number;
  boolean: boolean;
  array: unknown[];
  object: Record<string, unknown>;
  null: null;
}
type JsonType = keyof JsonTypes;

/** Numeric bounds of an integer or number field. */
interface NumericBounds {
  readonly minimum?: number;
  readonly maximum?: number;
}

/** The string-keyed keywords of a schema (TypeBox's symbol keys left behind), as a plain object. */
function keywordsOf(schema: object): Keywords {
  return Object.fromEntries(Object.entries(schema));
}

/**
 * A value in one of the wire forms: converted to its canonical shape first, then checked against `canonical`
 * (bounds such as minimum), which sits under allOf so it sees the converted value.
 */
function wire<T>(form: WireForm, canonical: Keywords = {}): TUnsafe<T> {
  return Type.Unsafe<T>(Object.keys(canonical).length === 0 ? { wire: form } : { wire: form, allOf: [canonical] });
}

/** An integer (rejects 1.5); a numeric string such as "5" is taken as 5, as Discord does. */
export const integer = (bounds: NumericBounds = {}): TUnsafe<number> =>
  wire<number>(WireForm.integer, Object.keys(bounds).length === 0 ? {} : { type: 'integer', ...bounds });

/** A number (accepts 1.5); a numeric string such as "1.5" is taken as 1.5. */
export const numeric = (bounds: NumericBounds = {}): TUnsafe<number> =>
  wire<number>(WireForm.number, Object.keys(bounds).length === 0 ? {} : { type: 'number', ...bounds });

/** A snowflake id: a decimal string (at most 20 digits, below 2^64) or a JSON integer; reaches actors as a string. */
export const snowflake = (): TUnsafe<string> => wire<string>(WireForm.snowflake);

/**
 * A permission bitfield (allow, deny, permissions): a decimal string or a JSON integer, with no bit above
 * the known permissions; reaches actors as a decimal string.
 */
export const permissionBits = (): TUnsafe<string> => wire<string>(WireForm.permissions);

/**
 * A base64 `data:` URI image (avatar, banner, icon, ...). Left without maxLength on purpose: an image is as
 * large as the body cap allows, and is stored as a blob whose record keeps only its hash.
 */
export const imageData = () => Type.String();

/**
 * A value of `type` restricted to the given choices (spec: "one of ..."); numeric choices also take their
 * numeric strings ("0" for 0), as Discord does. An `enum` rather than a union of literals: the schemas use no
 * anyOf (see validate.ts), and the enum gives Discord's BASE_TYPE_CHOICES leaf.
 */
export function choices<const V extends readonly (string | number | boolean)[]>(
  type: JsonType,
  values: V,
): TUnsafe<V[number]> {
  if (type === 'integer' || type === 'number') {
    const form = values.every((value) => Number.isInteger(value)) ? WireForm.integer : WireForm.number;
    return Type.Unsafe<V[number]>({ wire: form, enum: [...values] });
  }
  return Type.Unsafe<V[number]>({ type, enum: [...values] });
}

/** A value of any of several JSON types (e.g. a nonce that is a string or an integer); `extra` adds bounds. */
export function oneOfTypes<const T extends readonly JsonType[]>(
  types: T,
  extra: SchemaOptions = {},
): TUnsafe<JsonTypes[T[number]]> {
  return Type.Unsafe<JsonTypes[T[number]]>({ type: [...types], ...extra });
}

/** Null added to a plain schema's keywords: to its type list and enum, or as `orNull` on a wire value. */
function withNull(schema: Keywords): Keywords {
  const values: unknown = schema['enum'];
  if (schema['wire'] !== undefined) {
    const out: Keywords = { ...schema, orNull: true };
    if (Array.isArray(values)) out['enum'] = (values as unknown[]).concat(null);
    const canonical = schema['allOf'] as Keywords[] | undefined;
    if (canonical) out['allOf'] = canonical.map(withNull);
    return out;
  }
  const type: unknown = schema['type'];
  const types: unknown[] = Array.isArray(type) ? (type as unknown[]) : type === undefined ? [] : [type];
  const out: Keywords = { ...schema, type: types.concat('null') };
  if (Array.isArray(values)) out['enum'] = (values as unknown[]).concat(null);
  return out;
}

/** The same schema, with null also allowed (spec: "nullable"): null is then a value, e.g. "clear it". */
export function nullable<T extends TSchema>(schema: T): TUnsafe<Static<T> | null> {
  return Type.Unsafe<Static<T> | null>(withNull(keywordsOf(schema)));
}

/** Bounds of an array: maxItems is mandatory, so no array schema is without a limit. */
export interface ArrayLimits {
  readonly maxItems: number;
  readonly minItems?: number;
}

/**
 * An array whose items match `items`, at most `limits.maxItems` long. The items are checked only once the
 * length is within bounds (`if`/`then`): with allErrors, ajv would otherwise visit (and report) every item of a
 * huge array before the length error ends the request.
 */
export function boundedArray<T extends TSchema>(items: T, limits: ArrayLimits): TUnsafe<Static<T>[]> {
  const bounds: Keywords = { maxItems: limits.maxItems };
  if (limits.minItems !== undefined) bounds['minItems'] = limits.minItems;
  return Type.Unsafe<Static<T>[]>({
    type: 'array',
    ...bounds,
    if: { type: 'array', maxItems: limits.maxItems },
    then: { type: 'array', items },
  });
}

/** A tuple of N items of type T: the static type of exactly(N, ...). */
type Tuple<T, N extends number, Items extends T[] = []> = Items['length'] extends N
  ? Items
  : Tuple<T, N, [...Items, T]>;

/** An array of exactly `count` items matching `items` (spec: "array of exactly N"), typed as a tuple. */
export const exactly = <T extends TSchema, const N extends number>(count: N, items: T): TUnsafe<Tuple<Static<T>, N>> =>
  Type.Unsafe<Tuple<Static<T>, N>>(boundedArray(items, { minItems: count, maxItems: count }));

/**
 * An object. Unknown properties are dropped (the validator runs with `removeAdditional`), so a body reaches an
 * actor, and storage, with only the fields named here; as on Discord, they are not an error. A null property is
 * taken as absent unless its schema is nullable() (nullMeansAbsent, see wireForms.ts). Optional fields are
 * `Type.Optional(...)`; the others are required.
 */
export function closedObject<P extends TProperties>(properties: P, options: ObjectOptions = {}): TObject<P> {
  return Type.Object(properties, { nullMeansAbsent: true, additionalProperties: false, ...options });
}

/** Bounds of a map: how many entries, and what each key must look like. */
export interface MapLimits {
  readonly maxProperties: number;
  /** Schema of every key (a string schema: maxLength, pattern). */
  readonly keys: TSchema;
}

/**
 * An object whose every property (e.g. keyed by channel id) matches `values`, with at most
 * `limits.maxProperties` of them; as with boundedArray(), the entries are checked only once the count is in bounds.
 */
export function boundedMap<T extends TSchema>(values: T, limits: MapLimits): TUnsafe<Record<string, Static<T>>> {
  return Type.Unsafe<Record<string, Static<T>>>({
    type: 'object',
    maxProperties: limits.maxProperties,
    if: { type: 'object', maxProperties: limits.maxProperties },
    then: { type: 'object', propertyNames: limits.keys, additionalProperties: values },
  });
}
