/**
 * Narrowing for JSON an actor parses that is not a Discord body (a reply, a stored user or member, READY
 * pieces): parse into `unknown`, then narrow with these guards rather than cast (bodies use bodyOf()).
 */

/** A JSON object (not null, not an array). */
export type JsonObject = Record<string, unknown>;

/** True when `value` is a JSON object (not null, not an array). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `text` parsed as a JSON object, or `fallback` when it holds another JSON value. */
export function parseJsonObject(text: string, fallback: JsonObject = {}): JsonObject {
  const value: unknown = JSON.parse(text);
  return isJsonObject(value) ? value : fallback;
}

/** `text` parsed as any JSON value, to be narrowed by the caller (or passed on as it is). */
export function parseJson(text: string): unknown {
  return JSON.parse(text);
}

/** True when `value` is a string, or absent (undefined). */
export function isOptionalString(value: unknown): value is string | undefined {
  return value === undefined || typeof value === 'string';
}
