/** The second whose date and time text (`YYYY-MM-DDTHH:MM:SS.`) was worked out last, and that text. */
let cachedSecond = Number.NaN;
let cachedPrefix = '';

/**
 * `new Date(ms).toISOString()`, the same text, with the date and time up to the second formatted once per second
 * (a message create stamps its timestamp: Date's formatter cost about 1 µs of each). A time that is not a whole
 * number of ms goes to Date as it is.
 */
export function isoTimestamp(ms: number): string {
  if (!Number.isSafeInteger(ms)) return new Date(ms).toISOString();
  const second = Math.floor(ms / 1000);
  if (second !== cachedSecond) {
    cachedPrefix = new Date(second * 1000).toISOString().slice(0, -4); // without `mmmZ`
    cachedSecond = second;
  }
  const milli = ms - second * 1000;
  return `${cachedPrefix}${milli < 10 ? '00' : milli < 100 ? '0' : ''}${milli}Z`;
}
