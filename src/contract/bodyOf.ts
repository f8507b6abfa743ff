import type { Static, TSchema } from '@sinclair/typebox';
import { ValidationError } from '../domain/errors.js';

/**
 * The one way an actor reads a Discord body from a command's `body` (or `*_json`) text: as the static type of
 * the schema the edge validated it against. An empty text is an empty object (bodies that may be absent).
 * Not valid JSON at all (which the edge never forwards) is a 50035 like any bad body.
 */
// `schema` is only read by the type system: it names the body type, and the edge already checked the value.
export function bodyOf<S extends TSchema>(_schema: S, json: string): Static<S> {
  let parsed: unknown;
  try {
    parsed = json === '' ? {} : JSON.parse(json);
  } catch {
    throw new ValidationError({ _errors: [{ code: 'BASE_TYPE_BAD_JSON', message: 'Body is not valid JSON.' }] });
  }
  // The one place a body's type is taken on trust, and soundly: the edge validated this very text against
  // `schema` (validate.ts compiles the same TypeBox schema) and forwarded the value ajv left, with wire forms
  // converted and unknown fields removed, so it has the shape Static<S> describes. Checking again here would run
  // ajv twice per command. (TypeScript takes `unknown` as Static<S> of a generic S without an assertion.)
  return parsed;
}
