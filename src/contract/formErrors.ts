import type { ErrorObject } from 'ajv';
import type { FieldErrorLeaf, FieldErrorTree } from '../domain/errors.js';

/** Key under which Discord lists the errors of one node of the tree. */
const ERRORS_KEY = '_errors';

/** Longest echo of a rejected value inside a message, so a huge body cannot bloat the error. */
const MAX_ECHO = 100;

/**
 * Most fields one error body names. Discord's error bodies stay small however bad the body; beyond this
 * many the client has enough to fix, and the answer stays a few kilobytes.
 */
export const MAX_FIELD_ERRORS = 20;

/** Longest body key echoed as a path segment of the tree (keys of maps are client-chosen). */
const MAX_SEGMENT = 64;

/**
 * Keywords whose error only restates errors reported below it: `if` fails when its `then` did (boundedArray()'s and
 * boundedMap()'s size guard), `propertyNames` when one of its key checks did.
 */
const RESTATING_KEYWORDS: ReadonlySet<string> = new Set(['if', 'propertyNames']);

/** Converts ajv errors (from a `verbose` ajv) into Discord's 50035 `errors` tree that mirrors the body. */
// Array indices become string keys, each failing node gets `{ _errors: [{ code, message }] }`, and only the first
// error per node is kept, as Discord reports one per field; at most MAX_FIELD_ERRORS nodes are reported.
export function formErrors(errors: readonly ErrorObject[]): FieldErrorTree {
  const tree: FieldErrorTree = {};
  const seen = new Set<string>();
  for (const error of errors) {
    if (RESTATING_KEYWORDS.has(error.keyword)) continue;
    const path = errorPath(error);
    const key = JSON.stringify(path);
    if (seen.has(key)) continue;
    if (seen.size >= MAX_FIELD_ERRORS) break;
    seen.add(key);
    insertFieldError(tree, path, toLeaf(error));
  }
  return tree;
}

/** Body path of an error; for `required`, the missing property itself. */
function errorPath(error: ErrorObject): string[] {
  const path = error.instancePath === '' ? [] : error.instancePath.slice(1).split('/').map(segmentOf);
  const missing: unknown = error.params['missingProperty'];
  if (error.keyword === 'required' && typeof missing === 'string') path.push(missing);
  return path;
}

/** A JSON pointer segment as a tree key: unescaped, and cut to MAX_SEGMENT characters. */
function segmentOf(segment: string): string {
  const key = segment.replace(/~1/g, '/').replace(/~0/g, '~');
  return key.length > MAX_SEGMENT ? `${key.slice(0, MAX_SEGMENT)}…` : key;
}

/** Adds `leaf` to the `_errors` of the field at `path` in `tree`, creating the nodes on the way. */
export function insertFieldError(tree: FieldErrorTree, path: readonly string[], leaf: FieldErrorLeaf): void {
  let node = tree;
  for (const segment of path) {
    const next = node[segment];
    // A body key literally named "_errors" cannot nest; report at the node above instead.
    if (Array.isArray(next)) break;
    if (next === undefined) {
      const child: FieldErrorTree = {};
      node[segment] = child;
      node = child;
    } else {
      node = next;
    }
  }
  const existing = node[ERRORS_KEY];
  if (Array.isArray(existing)) existing.push(leaf);
  else node[ERRORS_KEY] = [leaf];
}

function toLeaf(error: ErrorObject): FieldErrorLeaf {
  const params = error.params;
  switch (error.keyword) {
    case 'required':
      return { code: 'BASE_TYPE_REQUIRED', message: 'This field is required' };
    case 'type':
      return typeLeaf(params['type'], error.data);
    case 'minLength':
    case 'maxLength':
    case 'minItems':
    case 'maxItems':
      return lengthLeaf(error);
    case 'enum':
      return choicesLeaf(params['allowedValues']);
    case 'const':
      return choicesLeaf([params['allowedValue']]);
    case 'format':
      return formatLeaf(params['format'], error.data);
    case 'wire':
      // The wire keyword (wireForms.ts) words its own leaf.
      return { code: String(params['code']), message: error.message ?? 'Invalid value.' };
    case 'pattern':
      return { code: 'STRING_TYPE_REGEX', message: 'String value did not match validation regex.' };
    case 'minimum':
    case 'exclusiveMinimum':
      return {
        code: 'NUMBER_TYPE_MIN',
        message: `int value should be greater than or equal to ${String(params['limit'])}.`,
      };
    case 'maximum':
    case 'exclusiveMaximum':
      return {
        code: 'NUMBER_TYPE_MAX',
        message: `int value should be less than or equal to ${String(params['limit'])}.`,
      };
    default:
      return { code: 'BASE_TYPE_INVALID', message: error.message ?? 'Invalid value.' };
  }
}

/** Leaf for a value of the wrong JSON type; `expected` is the schema's `type` (a name, a list, or a joined list). */
function typeLeaf(expected: unknown, data: unknown): FieldErrorLeaf {
  const listed = Array.isArray(expected) ? expected.map(String) : String(expected).split(',');
  const types = listed.filter((type) => type !== 'null');
  const first = types[0] ?? 'object';
  if (first === 'object') {
    return { code: 'MODEL_TYPE_CONVERT', message: 'Only dictionaries may be used in a ModelType' };
  }
  if (types.length > 1) {
    return { code: TYPE_CODES[first] ?? 'BASE_TYPE_INVALID', message: `Must be a ${types.join(' or ')}.` };
  }
  switch (first) {
    case 'integer':
      return { code: 'NUMBER_TYPE_COERCE', message: `Value "${echo(data)}" is not int.` };
    case 'number':
      return { code: 'NUMBER_TYPE_COERCE', message: `Value "${echo(data)}" is not a number.` };
    case 'boolean':
      return { code: 'BASE_TYPE_BOOLEAN', message: 'Must be either true or false.' };
    case 'array':
      return { code: 'BASE_TYPE_ARRAY', message: 'Must be an array.' };
    default:
      return { code: 'BASE_TYPE_STRING', message: 'Must be a string.' };
  }
}

const TYPE_CODES: Readonly<Record<string, string>> = {
  string: 'BASE_TYPE_STRING',
  integer: 'NUMBER_TYPE_COERCE',
  number: 'NUMBER_TYPE_COERCE',
  boolean: 'BASE_TYPE_BOOLEAN',
  array: 'BASE_TYPE_ARRAY',
};

/**
 * Discord's length leaves, for strings and arrays alike: BASE_TYPE_BAD_LENGTH when both bounds exist,
 * otherwise BASE_TYPE_MAX_LENGTH ("Must be 2000 or fewer in length.") or BASE_TYPE_MIN_LENGTH.
 */
function lengthLeaf(error: ErrorObject): FieldErrorLeaf {
  const items = error.keyword.endsWith('Items');
  const schema = error.parentSchema ?? {};
  const limit = numberOrUndefined(error.params['limit']);
  const isMin = error.keyword.startsWith('min');
  const min = numberOrUndefined(schema[items ? 'minItems' : 'minLength']) ?? (isMin ? limit : undefined);
  const max = numberOrUndefined(schema[items ? 'maxItems' : 'maxLength']) ?? (isMin ? undefined : limit);
  if (min !== undefined && max !== undefined) {
    return { code: 'BASE_TYPE_BAD_LENGTH', message: `Must be between ${min} and ${max} in length.` };
  }
  if (max !== undefined) return { code: 'BASE_TYPE_MAX_LENGTH', message: `Must be ${max} or fewer in length.` };
  return { code: 'BASE_TYPE_MIN_LENGTH', message: `Must be ${min ?? 0} or more in length.` };
}

function choicesLeaf(values: unknown): FieldErrorLeaf {
  const list = Array.isArray(values) ? values.filter((value) => value !== null).map((value) => String(value)) : [];
  return { code: 'BASE_TYPE_CHOICES', message: `Value must be one of (${list.join(', ')}).` };
}

function formatLeaf(format: unknown, data: unknown): FieldErrorLeaf {
  switch (format) {
    case 'email':
      return { code: 'EMAIL_TYPE_INVALID_EMAIL', message: 'Not a well formed email address.' };
    case 'date-time':
      return { code: 'DATE_TIME_TYPE_PARSE', message: `Could not parse ${echo(data)}. Should be ISO8601.` };
    default:
      return { code: 'BASE_TYPE_BAD_FORMAT', message: `Must be a valid ${String(format)}.` };
  }
}

function numberOrUndefined(value: unknown): number | undefined {
  return typeof value === 'number' ? value : undefined;
}

/** The rejected value as Discord echoes it in a message, cut to MAX_ECHO characters. */
export function echo(data: unknown): string {
  const text = typeof data === 'string' ? data : (JSON.stringify(data) ?? String(data));
  return text.length > MAX_ECHO ? `${text.slice(0, MAX_ECHO)}…` : text;
}
