import { QUOTE, closingQuote } from './jsonText.js';

const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;
const LARGEST_SAFE = String(Number.MAX_SAFE_INTEGER);

const isDigit = (char: number): boolean => char >= ZERO && char <= NINE;

/** True for the digits of an integer JSON.parse would round (beyond 2^53 - 1). */
function unsafeInteger(digits: string): boolean {
  return digits.length > LARGEST_SAFE.length || (digits.length === LARGEST_SAFE.length && digits > LARGEST_SAFE);
}

/**
 * The JSON text with every integer literal beyond 2^53 - 1 turned into a string, so parsing keeps its
 * digits. discord.py and other libraries send snowflakes as JSON integers (`"message_id": 1234...`),
 * which JSON.parse would round to another id; as strings they mean what the client sent (and a
 * schema expecting a snowflake takes them as is). Returns the text itself when there is nothing to
 * quote, which is almost always.
 */
export function quoteUnsafeIntegers(text: string): string {
  let out: string[] | undefined;
  let copiedUpTo = 0;
  for (let at = 0; at < text.length; at += 1) {
    const char = text.charCodeAt(at);
    if (char === QUOTE) {
      at = closingQuote(text, at);
      continue;
    }
    if (!isDigit(char) && char !== MINUS) continue;
    const start = at;
    let end = char === MINUS ? at + 1 : at;
    while (end < text.length && isDigit(text.charCodeAt(end))) end += 1;
    const next = text[end];
    const integer = next !== '.' && next !== 'e' && next !== 'E';
    const digits = text.slice(char === MINUS ? start + 1 : start, end);
    if (integer && unsafeInteger(digits)) {
      out ??= [];
      out.push(text.slice(copiedUpTo, start), '"', text.slice(start, end), '"');
      copiedUpTo = end;
    }
    at = end - 1;
  }
  if (out === undefined) return text;
  out.push(text.slice(copiedUpTo));
  return out.join('');
}
