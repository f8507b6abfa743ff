/** `"` in JSON text. */
export const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Where the JSON string opened by the quote at `open` ends: the index of its closing quote (or the
 * text's end when it has none). Escapes are skipped, so `\"` does not close it. For scanners that
 * look at JSON text outside its strings.
 */
export function closingQuote(text: string, open: number): number {
  for (let at = open + 1; at < text.length; at += 1) {
    const char = text.charCodeAt(at);
    if (char === BACKSLASH) at += 1;
    else if (char === QUOTE) return at;
  }
  return text.length;
}
