import { ValidationError } from './errors.js';
import { QUOTE, closingQuote } from './jsonText.js';

/**
 * Deepest nesting a body may have. Discord's deepest bodies (command options inside subcommand
 * groups, with choices and localizations) stay under 12 levels.
 */
export const MAX_JSON_DEPTH = 32;
/**
 * Most values (objects, arrays and scalars; object keys aside) a body may hold. Schemas cap each
 * array far below this; this bounds the work done on a body before any schema looks at it, unknown
 * fields included.
 */
export const MAX_JSON_NODES = 50_000;

const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

function refusal(code: string, message: string): ValidationError {
  return new ValidationError({ _errors: [{ code, message }] });
}

/**
 * Why a JSON text is refused before it is parsed, if it is: nested deeper than MAX_JSON_DEPTH or
 * holding more than MAX_JSON_NODES values (400 50035). Parsing a megabyte of tiny values holds the
 * event loop for tens of milliseconds and a deep document overflows the stack of every later step
 * (validation, serialization, cloning), so one pass over the characters decides first: it counts
 * brackets and commas outside strings, an upper bound of the values a valid document holds. Text that
 * is not JSON at all is left for JSON.parse to refuse.
 */
export function jsonBoundsError(text: string): ValidationError | undefined {
  let depth = 0;
  let values = 1;
  for (let at = 0; at < text.length; at += 1) {
    const char = text.charCodeAt(at);
    if (char === QUOTE) {
      at = closingQuote(text, at);
    } else if (char === OPEN_BRACE || char === OPEN_BRACKET) {
      depth += 1;
      values += 1; // its first member, which no comma announces
      if (depth > MAX_JSON_DEPTH) {
        return refusal('JSON_TOO_DEEP', `The body may nest at most ${MAX_JSON_DEPTH} levels deep.`);
      }
    } else if (char === CLOSE_BRACE || char === CLOSE_BRACKET) {
      depth -= 1;
    } else if (char === COMMA) {
      values += 1;
    }
    if (values > MAX_JSON_NODES) {
      return refusal('JSON_TOO_LARGE', `The body may hold at most ${MAX_JSON_NODES} values.`);
    }
  }
  return undefined;
}
