import { Ajv, type ValidateFunction } from 'ajv';
import formatsPlugin from 'ajv-formats';
import { ValidationError } from '../domain/errors.js';
import { formErrors } from './formErrors.js';
import { schemas, type SchemaBody, type SchemaName } from './index.js';
import { addWireKeywords } from './wireForms.js';

/**
 * The one ajv instance: every error is collected (allErrors), `verbose` keeps each failing schema for exact length
 * messages. No defaults are filled and ajv coerces no type; only the wire keywords (wireForms.ts) convert, and only
 * what Discord itself accepts: snowflakes and permission masks given as JSON integers become decimal strings,
 * numeric strings in integer and number fields become numbers, null in a non-nullable field becomes absent. So a
 * body reaches an actor in one canonical shape, and with known fields only: properties a schema does not name are
 * removed (`removeAdditional` with closedObject()'s `additionalProperties: false`). Work and errors stay bounded:
 * arrays and maps are checked item by item only within their size limit (see boundedArray() in wireTypes.ts), and
 * formErrors reports at most MAX_FIELD_ERRORS fields. The schemas are TypeBox types: ajv reads their JSON Schema
 * keywords and ignores TypeBox's symbol keys.
 */
// removeAdditional is safe here because no schema uses anyOf/oneOf, where a failing branch would strip
// properties a passing one needs; the only conditional is boundedArray()'s and boundedMap()'s size check (`if` on a
// count), and the only allOf holds a wire value's bounds (never an object).
const ajv = new Ajv({
  allErrors: true,
  strict: false,
  verbose: true,
  coerceTypes: false,
  useDefaults: false,
  removeAdditional: true,
});
addWireKeywords(ajv);
// ajv-formats is CommonJS: under NodeNext the default import is module.exports, whose `default` is the plugin.
formatsPlugin.default(ajv, ['email', 'date-time']);

const compiled = new Map<SchemaName, ValidateFunction>();

/** The compiled validator for a schema, compiled on first use and cached; throws if the schema itself is invalid. */
export function validatorFor(name: SchemaName): ValidateFunction {
  let check = compiled.get(name);
  if (check === undefined) {
    check = ajv.compile(schemas[name]);
    compiled.set(name, check);
  }
  return check;
}

/**
 * Returns `body` typed as the schema's body type (Static of the TypeBox schema) if it matches schema `name`, with
 * its unknown properties removed and wire forms converted (in place); otherwise throws ValidationError with
 * Discord's 50035 tree.
 */
export function validate<N extends SchemaName>(name: N, body: unknown): SchemaBody<N> {
  const check = validatorFor(name);
  // ajv's guard knows no TypeBox type; the schema it just passed is the one SchemaBody<N> is derived from.
  if (check(body)) return body as SchemaBody<N>;
  throw new ValidationError(formErrors(check.errors ?? []));
}
